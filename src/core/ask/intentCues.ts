/**
 * The words and phrases that signal each intent, in English, Chinese
 * (simplified and traditional) and Spanish. Latin cues match on word
 * boundaries (case-insensitive, accents as written or stripped); CJK cues
 * match as substrings. One list per intent, so a new language is one edit.
 */
import type { Intent } from './query';

export interface CueList {
  /** Latin-script phrases; a trailing `*` matches any word ending ("summar*"). */
  latin: readonly string[];
  /** CJK phrases, matched as substrings. */
  cjk: readonly string[];
}

/** "Give me a summary", "what is this about": what an item, the corpus or a part of it is about. */
export const SUMMARY_CUES: CueList = {
  latin: [
    'summar*', 'sum up', 'sum it up', 'overview', 'recap', 'gist', 'tl;dr', 'tldr', 'in a nutshell', 'in brief', 'briefly', 'outline',
    'main points', 'key points', 'key takeaways', 'takeaways', 'what is this about', 'what is it about', "what's this about", 'what is the video about',
    'what is the episode about', 'what is the meeting about', 'what was the meeting about', 'what happens in', 'what happened in', 'what happened during', 'walk me through', 'give me the highlights of',
    'main takeaway', 'main message', 'key message',
    'resum*', 'sintetiza*', 'de qué trata', 'de que trata', 'de qué va', 'de que va', 'puntos principales', 'ideas principales', 'en pocas palabras',
  ],
  cjk: ['重点是什么', '重點是什麼', '重点是啥', '核心内容', '核心內容', '主要讲', '主要講', '主要说', '主要說', '主要谈', '主要談', '总结', '總結', '概括', '概述', '摘要', '归纳', '歸納', '简述', '簡述', '讲了什么', '講了什麼', '说了什么', '說了什麼', '主要内容', '主要內容', '要点', '要點', '大意', '综述', '綜述', '梳理一下', '简要介绍', '簡要介紹', '回顾一下', '回顧一下'],
};

/**
 * An open question about what was said, with no subject of its own ("What did they talk about?",
 * "前半小时里大家讨论了什么？", "¿De qué hablaron?"): a summary of the item or the part the question names.
 */
export const OPEN_SUMMARY = [
  /\bwhat (?:did|do|does|was|were|is|are) (?:they|we|you|people|everyone|everybody|the (?:team|group|speakers|panel|participants|guests|hosts?|committee))\s+(?:talk(?:ed)?|speak|spoke|discuss(?:ed)?|cover(?:ed)?|say|said|go over|went over)(?:\s+about)?\s*[?.!]*$/iu,
  /\bwhat (?:was|is|gets|got|were) (?:discussed|said|covered|talked about)\s*[?.!]*$/iu,
  /(?:讨论|討論|聊|谈|談|讲|講|说|說)(?:了|的)?(?:些|一些)?(?:什么|什麼|啥)(?:内容|內容)?[？?。!！]*$/u,
  /de qu[ée] (?:hablan|hablaron|habla|habló|se habla|se habló|trata|tratan|trató)\b|qu[ée] se (?:dijo|dice|habló|comentó|cuenta)\s*[?.!]*$/iu,
];

/** Themes and how they develop through an item or across items. */
export const TOPIC_CUES: CueList = {
  latin: [
    'theme', 'themes', 'topics', 'which topics', 'what topics', 'subjects', 'recurring', 'recur*', 'keep coming back', 'keeps coming back', 'come up again',
    'comes up again', 'come up across', 'across the', 'across all', 'across these', 'across episodes', 'across meetings', 'develop over', 'develops over', 'evolve*',
    'over the course of', 'change over', 'changes over', 'shift over', 'which meetings', 'which videos', 'which episodes', 'which items',
    'common thread', 'main themes', 'how does the discussion', 'how did the discussion', 'in common', 'common to', 'from one', 'each meeting', 'each episode', 'each video',
    'temas', 'qué temas', 'que temas', 'se repite', 'se repiten', 'recurrente*', 'a lo largo de', 'evoluciona*', 'cómo cambia', 'como cambia',
    'en las distintas', 'en los distintos', 'en todos los', 'en todas las', 'qué episodios', 'que episodios', 'en común', 'en comun', 'cada episodio',
  ],
  cjk: ['主题', '主題', '话题', '話題', '议题', '議題', '哪些会议', '哪些會議', '哪几场', '哪幾場', '哪些视频', '哪些視頻', '哪些节目', '哪些節目', '反复出现', '反復出現', '反复提到', '反覆', '演变', '演變', '发展脉络', '發展脈絡', '如何发展', '如何發展', '如何变化', '如何變化', '趋势', '趨勢', '贯穿', '貫穿', '各自关注', '各自關注', '不同会议', '不同會議', '各场', '各場', '几场', '幾場', '共同点', '共同點', '共性'],
};

/** Nouns for the audience: enough on their own ("what do viewers think?"). */
export const AUDIENCE_CUES: CueList = {
  latin: [
    'viewer', 'viewers', 'audience', 'audiences', 'commenter', 'commenters', 'commentators', 'fans', 'subscribers', 'the public', 'people in the comments',
    'comment section', 'reception', 'received by', 'in the comments', 'under the video',
    'espectador*', 'audiencia', 'comentarista*', 'el público', 'el publico', 'seguidores', 'suscriptores', 'los fans', 'la gente en los comentarios', 'en los comentarios',
  ],
  cjk: ['评论里', '評論裡', '评论中', '評論中', '观众', '觀眾', '网友', '網友', '弹幕', '彈幕', '粉丝', '粉絲', '评论区', '評論區', '留言区', '留言區', '受众', '受眾', '反响', '反響', '口碑'],
};

/** The comments as such: about the audience only with a reaction word ("what do the comments highlight"). */
export const COMMENT_CUES: CueList = {
  latin: ['comment', 'comments', 'replies', 'reply thread', 'comentario', 'comentarios', 'respuestas'],
  cjk: ['评论', '評論', '留言', '回复', '回覆'],
};

/** Reactions, judgements, sentiment. */
export const REACTION_CUES: CueList = {
  latin: [
    'react*', 'feel', 'feels', 'felt', 'think', 'thinks', 'say', 'says', 'said', 'saying', 'negative', 'positive', 'negativ*', 'positiv*', 'favorite', 'favourite', 'opinion*', 'sentiment', 'praise*', 'criticis*', 'criticiz*', 'complain*',
    'like about', 'love', 'hate', 'highlight', 'highlights', 'liked', 'disliked', 'respond*', 'take on', 'perceive*', 'think of', 'ask', 'asks', 'asking', 'question', 'questions',
    'opinan', 'opina', 'piensan', 'dicen', 'critican', 'destacan', 'elogian', 'valoran', 'reaccion*', 'sienten', 'se quejan', 'les gusta', 'odian', 'comentan', 'preguntan', 'preguntas',
  ],
  cjk: ['负面', '負面', '正面', '好评', '好評', '差评', '差評', '提问', '提問', '问了', '問了', '怎么看', '怎麼看', '评价', '評價', '觉得', '覺得', '认为', '認為', '说了', '說了', '说什么', '說什麼', '吐槽', '称赞', '稱讚', '批评', '批評', '喜欢', '喜歡', '反应', '反應', '态度', '態度', '情绪', '情緒'],
};

/** Clips, highlights, quotable moments. */
export const CLIP_CUES: CueList = {
  latin: [
    'short clip', 'short clips', 'good clip', 'good clips', 'clip', 'clips', 'short video', 'short videos', 'shorts', 'tiktok', 'tik tok', 'reels', 'reel', 'highlight reel', 'highlights', 'quotable', 'quote-worthy',
    'soundbite*', 'sound bite*', 'snippets', 'teaser', 'trailer', 'viral', 'best moments', 'memorable moments', 'shareable', 'social media', 'cut into',
    'clips cortos', 'fragmentos', 'momentos destacados', 'mejores momentos', 'momentos virales', 'citas memorables', 'recortes',
  ],
  cjk: ['剪辑', '剪輯', '短视频', '短視頻', '片段适合', '片段適合', '精华', '精華', '高光', '切片', '金句', '抖音', '快手', '视频号', '視頻號', '适合传播', '適合傳播', '名场面', '名場面'],
};

/** Words that make a question about a relation even with one named entity ("华为和开源社区之间是什么关系"). */
export const STRONG_RELATION_CUES: CueList = {
  latin: ['relationship', 'relation', 'relations', 'between', 'versus', 'vs', 'vs.', 'compare*', 'comparison', 'difference between', 'relación', 'relacion', 'entre', 'frente a', 'comparar', 'diferencia entre'],
  cjk: ['关系', '關係', '之间', '之間', '区别', '區別', '对比', '對比', '比较', '比較'],
};

/** Social platforms: the target of a clip request, not its subject. */
export const PLATFORMS = /^(?:twitter|x|tiktok|tik tok|instagram|facebook|youtube|youtube shorts|shorts|reels|linkedin|snapchat|threads|weibo|微博|抖音|快手|b站|bilibili|小红书|小紅書|视频号|視頻號)$/iu;

/** How two entities relate: agreement, difference, who answered whom, comparison. */
export const RELATION_CUES: CueList = {
  latin: [
    'agree*', 'disagree*', 'differ*', 'compare*', 'comparison', 'versus', 'vs', 'vs.', 'relationship', 'relation', 'related', 'between', 'respond to', 'responded to',
    'reply to', 'replied to', 'answer*', 'argue*', 'debate*', 'sponsor*', 'connect*', 'link between', 'work with', 'worked with', 'together', 'same view', 'side with',
    'relación', 'relacion', 'diferencia*', 'compara*', 'frente a', 'de acuerdo', 'coinciden', 'discrepan', 'entre', 'respond*', 'contesta*', 'patrocin*', 'trabaj* con', 'junto a',
  ],
  cjk: ['区别', '區別', '不同', '关系', '關係', '看法一致', '一致', '分歧', '对比', '對比', '比较', '比較', '相比', '合作', '回应', '回應', '之间', '之間', '赞同', '贊同', '反对', '反對', '同意'],
};

/** Words that mark a question about what is said in the item itself. */
export const TRANSCRIPT_CUES: CueList = {
  latin: ['say', 'says', 'said', 'tell', 'tells', 'told', 'talk*', 'explain*', 'mention*', 'in the video', 'in the episode', 'in the interview', 'cuenta', 'dice', 'habla*', 'explica*', 'menciona*', 'en el episodio', 'en el vídeo', 'en el video', 'en la entrevista'],
  cjk: ['说', '說', '讲', '講', '提到', '谈到', '談到', '介绍', '介紹'],
};

/** Intents by the cue list that signals them alone. */
export const INTENT_CUES: Partial<Record<Intent, CueList>> = {
  summary: SUMMARY_CUES,
  analyze_topic: TOPIC_CUES,
  recommend_clip: CLIP_CUES,
};

/** Lower-cased, accents folded: "Cómo" → "como". */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

const compiled = new WeakMap<CueList, RegExp | null>();

function latinRegex(list: CueList): RegExp | null {
  if (compiled.has(list)) return compiled.get(list)!;
  const alts = list.latin.map((c) => {
    const f = fold(c);
    const star = f.endsWith('*');
    const body = (star ? f.slice(0, -1) : f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    return star ? `${body}[\\p{L}]*` : body;
  });
  const re = alts.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.join('|')})(?![\\p{L}\\p{N}])`, 'giu') : null;
  compiled.set(list, re);
  return re;
}

/** Where the cues of `list` occur in `text` (character ranges of the folded text, which keeps the original's length for Latin and CJK text). */
export function cueMatches(text: string, list: CueList): { cue: string; range: [number, number] }[] {
  const out: { cue: string; range: [number, number] }[] = [];
  const folded = fold(text);
  const re = latinRegex(list);
  if (re) for (const m of folded.matchAll(re)) out.push({ cue: m[0], range: [m.index!, m.index! + m[0].length] });
  for (const c of list.cjk) {
    let at = text.indexOf(c);
    while (at >= 0) {
      out.push({ cue: c, range: [at, at + c.length] });
      at = text.indexOf(c, at + c.length);
    }
  }
  return out;
}

/** True when any cue of `list` occurs in `text`. */
export function hasCue(text: string, list: CueList): boolean {
  return cueMatches(text, list).length > 0;
}
