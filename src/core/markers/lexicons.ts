/**
 * Word lists of the extractive engine (English, Chinese, some Spanish): opinion
 * cues and number words (sentiment: ./commentLexicons.ts). Small on purpose; they are heuristics,
 * labelled as such wherever their output appears ("extractive").
 */

/** Phrases that mark a sentence as an opinion. Matched on lower-cased text. */
export const OPINION_CUES_EN = [
  'i think', 'i believe', 'i feel', 'in my opinion', 'in my view', 'my view', 'my opinion', 'i guess', 'i suppose', 'personally',
  'should', 'must', 'ought to', 'need to', 'have to', 'it is important', "it's important", 'the best', 'the worst', 'better than', 'worse than',
  'unfair', 'too much', 'not enough', 'i would argue', 'i agree', 'i disagree', 'i prefer', 'we should', 'it seems', 'probably',
];
export const OPINION_CUES_ZH = [
  '我认为', '我觉得', '我相信', '我感觉', '我个人', '个人认为', '我的看法', '我的观点', '在我看来', '应该', '必须', '值得', '建议', '一定要', '最好',
  '不公平', '非常重要', '很重要', '关键是', '我希望', '我同意', '我不同意', '恐怕', '可能', '其实',
];
export const OPINION_CUES_ES = ['creo que', 'pienso que', 'en mi opinión', 'me parece', 'deberíamos', 'debería', 'hay que', 'lo mejor', 'lo peor'];

/** Chinese numerals with a unit or a percentage: 三成, 百分之十九, 五十二分钟, 四百公里. */
export const ZH_NUMBER = /(?:百分之[零一二三四五六七八九十百两]+|[零一二三四五六七八九十百千万亿两]{2,}|[一二三四五六七八九十两][成倍])(?:[个年月天日周小时分钟秒元块万亿公里米吨%％]|)/u;
export const DIGIT_NUMBER = /\d/u;

// Sentiment words live with the comments pass: ./commentLexicons.ts.
