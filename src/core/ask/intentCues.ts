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
    'visión general', 'vision general', 'repaso', 'panorama general', 'mensaje principal', 'short version', 'mainly about', 'main ideas',
    'summar*', 'sum up', 'sum it up', 'overview', 'recap', 'gist', 'tl;dr', 'tldr', 'in a nutshell', 'in brief', 'briefly', 'outline',
    'main points', 'key points', 'key takeaways', 'takeaways', 'what is this about', 'what is it about', "what's this about", 'what is the video about',
    'what is the episode about', 'what is the meeting about', 'what was the meeting about', 'what happens in', 'what happened in', 'what happened during', 'walk me through', 'give me the highlights of',
    'main takeaway', 'main message', 'key message',
    'resum*', 'sintetiza*', 'de qué trata', 'de que trata', 'de qué va', 'de que va', 'puntos principales', 'ideas principales', 'en pocas palabras',
  ],
  cjk: ['大概讲', '大概講', '讲了些什么', '講了些什麼', '讲了哪些内容', '講了哪些內容', '说了哪些内容', '說了哪些內容', '重点是什么', '重點是什麼', '重点是啥', '核心内容', '核心內容', '主要讲', '主要講', '主要说', '主要說', '主要谈', '主要談', '总结', '總結', '概括', '概述', '摘要', '归纳', '歸納', '简述', '簡述', '讲了什么', '講了什麼', '说了什么', '說了什麼', '主要内容', '主要內容', '要点', '要點', '大意', '综述', '綜述', '梳理一下', '简要介绍', '簡要介紹', '回顾一下', '回顧一下'],
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
    'asuntos', 'qué asuntos', 'en qué reuniones', 'qué reuniones', 'qué vídeos', 'qué charlas', 'qué entrevistas', 'en qué episodios', 'qué programas', 'run through', 'keep returning', 'keeps returning', 'vuelve una y otra vez', 'atraviesan',
    'theme', 'themes', 'topics', 'which topics', 'what topics', 'subjects', 'recurring', 'recur*', 'keep coming back', 'keeps coming back', 'come up again',
    'comes up again', 'come up across', 'across the', 'across all', 'across these', 'across episodes', 'across meetings', 'develop over', 'develops over', 'evolve*',
    'over the course of', 'change over', 'changes over', 'shift over', 'which meetings', 'which videos', 'which episodes', 'which items',
    'common thread', 'main themes', 'how does the discussion', 'how did the discussion', 'in common', 'common to', 'from one', 'each meeting', 'each episode', 'each video',
    'temas', 'qué temas', 'que temas', 'se repite', 'se repiten', 'recurrente*', 'a lo largo de', 'evoluciona*', 'cómo cambia', 'como cambia',
    'en las distintas', 'en los distintos', 'en todos los', 'en todas las', 'qué episodios', 'que episodios', 'en común', 'en comun', 'cada episodio',
  ],
  cjk: ['怎么发展', '怎麼發展', '怎样发展', '怎樣發展', '哪些讨论', '哪些討論', '哪些访谈', '哪些訪談', '哪些圆桌', '哪些圓桌', '哪几期', '哪幾期', '不同讨论', '不同討論', '不同视频', '不同視頻', '不同节目', '不同節目', '不同访谈', '不同訪談', '围绕哪些', '圍繞哪些', '主题', '主題', '话题', '話題', '议题', '議題', '哪些会议', '哪些會議', '哪几场', '哪幾場', '哪些视频', '哪些視頻', '哪些节目', '哪些節目', '反复出现', '反復出現', '反复提到', '反覆', '演变', '演變', '发展脉络', '發展脈絡', '如何发展', '如何發展', '如何变化', '如何變化', '趋势', '趨勢', '贯穿', '貫穿', '各自关注', '各自關注', '不同会议', '不同會議', '各场', '各場', '几场', '幾場', '共同点', '共同點', '共性'],
};

/** Nouns for the audience: enough on their own ("what do viewers think?"). */
export const AUDIENCE_CUES: CueList = {
  latin: [
    'al público', 'al publico', 'del público', 'del publico',
    'viewer', 'viewers', 'audience', 'audiences', 'commenter', 'commenters', 'commentators', 'fans', 'subscribers', 'the public', 'people in the comments',
    'comment section', 'reception', 'received by', 'in the comments', 'under the video',
    'espectador*', 'audiencia', 'comentarista*', 'el público', 'el publico', 'seguidores', 'suscriptores', 'los fans', 'la gente en los comentarios', 'en los comentarios',
    'followers', 'watchers', 'netizens', 'people watching', 'those watching', 'listeners', 'oyentes', 'la afición', 'la aficion', 'los que lo vieron', 'la gente que lo vio',
  ],
  cjk: [
    '评论里', '評論裡', '评论中', '評論中', '观众', '觀眾', '网友', '網友', '弹幕', '彈幕', '粉丝', '粉絲', '评论区', '評論區', '留言区', '留言區', '受众', '受眾', '反响', '反響', '口碑',
    '网民', '網民', '乡民', '鄉民', '听众', '聽眾', '看视频的人', '看視頻的人', '看影片的人', '看节目的人', '看節目的人',
  ],
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
    'frases memorables', 'frase memorable', 'citables', 'más citables', 'vídeo corto', 'video corto', 'vídeos cortos', 'videos cortos',
    'short clip', 'short clips', 'good clip', 'good clips', 'clip', 'clips', 'short video', 'short videos', 'shorts', 'tiktok', 'tik tok', 'reels', 'reel', 'highlight reel', 'highlights', 'quotable', 'quote-worthy',
    'soundbite*', 'sound bite*', 'snippets', 'teaser', 'trailer', 'viral', 'best moments', 'memorable moments', 'shareable', 'social media', 'cut into',
    'clips cortos', 'fragmentos', 'momentos destacados', 'mejores momentos', 'momentos virales', 'citas memorables', 'recortes',
  ],
  cjk: ['精彩片段', '精彩瞬间', '精彩瞬間', '精彩时刻', '精彩時刻', '剪辑', '剪輯', '短视频', '短視頻', '片段适合', '片段適合', '精华', '精華', '高光', '切片', '金句', '抖音', '快手', '视频号', '視頻號', '适合传播', '適合傳播', '名场面', '名場面'],
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

/** The item itself, named with a demonstrative ("this video", "esta charla", "这期节目", "這部影片"): with nothing else asked of it, a summary. */
export const ITEM_NOUNS: CueList = {
  latin: [
    'this video', 'this episode', 'this podcast', 'this meeting', 'this talk', 'this interview', 'this session', 'this discussion', 'this conversation', 'this show',
    'this chat', 'this lecture', 'this panel', 'this one', 'the whole thing', 'the whole video', 'the whole episode', 'the whole meeting',
    'este vídeo', 'este video', 'este episodio', 'este programa', 'este podcast', 'esta charla', 'esta entrevista', 'esta reunión', 'esta reunion', 'esta conversación',
    'esta conversacion', 'esta sesión', 'esta sesion', 'todo el episodio', 'todo el vídeo', 'todo el video',
  ],
  cjk: [
    '这个视频', '這個視頻', '这段视频', '這段視頻', '这部影片', '這部影片', '这支影片', '這支影片', '这个影片', '這個影片', '这期', '這期', '这集', '這集', '本期', '本集',
    '这场', '這場', '这次', '這次', '这个节目', '這個節目', '这档', '這檔', '整个视频', '整個視頻', '整期', '整场', '整場',
  ],
};

/** The item named with an article or bare ("the video", "el episodio", "节目"); nouns that are also verbs ("talk", "show", "讨论") left out. */
export const ITEM_ANY: CueList = {
  latin: [
    'video', 'episode', 'podcast', 'meeting', 'interview', 'session', 'discussion', 'conversation', 'lecture', 'panel',
    'vídeo', 'episodio', 'programa', 'charla', 'entrevista', 'reunión', 'reunion', 'conversación', 'conversacion', 'sesión', 'sesion',
  ],
  cjk: ['视频', '視頻', '影片', '节目', '節目', '会议', '會議', '访谈', '訪談', '播客', '讲座', '講座', '圆桌', '圓桌'],
};

/**
 * The form "what is … about" ("What's this episode about?", "¿De qué va?", "讲的是什么", "是关于什么的"): matched on the
 * question as typed (Latin case- and accent-insensitive).
 */
export const ABOUT_FORMS: readonly RegExp[] = [
  /\bwhat(?:'s|’s| is| was| are| were)\b[^?]*\babout\s*[?.!]*$/iu,
  /\bwhat\b[^?]*\b(?:cover|covers|covered)\s*[?.!]*$/iu,
  /\bde\s+qu[ée]\s+(?:va|iba|trata|tratan|trataba|se\s+trata|habla|hablan)\b|\bsobre\s+qu[ée]\s+(?:es|era|trata|va)\b/iu,
  /(?:讲|講|说|說|聊|谈|談|在讲|在講)(?:的)?(?:是)?(?:什么|什麼|啥)|(?:关于|關於)(?:什么|什麼|啥)|(?:是)?(?:关于|關於)什(?:么|麼)的/u,
];

/** Parts of an item as such (moments, segments, passages): what a clip request picks. */
export const SEGMENT_NOUNS: CueList = {
  latin: ['moment', 'moments', 'segment', 'segments', 'part', 'parts', 'passage', 'passages', 'exchange', 'exchanges', 'bits', 'snippet', 'snippets', 'momento', 'momentos', 'parte', 'partes', 'trozo', 'trozos', 'fragmento', 'fragmentos', 'pasaje', 'pasajes', 'frases', 'cortes'],
  cjk: ['片段', '段落', '几段', '幾段', '时刻', '時刻', '部分', '名场面', '名場面'],
};

/** Sharing and publishing: where a clip goes. */
export const SHARE_CUES: CueList = {
  latin: ['share', 'shared', 'post', 'publish', 'go viral', 'viral', 'social', 'instagram', 'youtube shorts', 'twitter', 'compartir', 'publicar', 'redes', 'redes sociales', 'virales', 'tráiler', 'trailer', 'teaser'],
  cjk: ['传播', '傳播', '发抖音', '發抖音', '发到', '發到', '发布', '發布', '分享', '预告', '預告', '剪成', '剪辑成', '剪輯成', '做成'],
};

/** People in general, not named: the audience when the scope has comments ("what do people think", "la gente", "大家"). */
export const GENERIC_PEOPLE: CueList = {
  latin: ['people', 'everyone', 'everybody', 'folks', 'la gente', 'las personas', 'todo el mundo', 'todos'],
  cjk: ['大家', '人们', '人們', '的人'],
};

/** Words of opinion and feeling beyond {@link REACTION_CUES} (features only: they stay keywords). */
export const OPINION_CUES: CueList = {
  latin: ['like', 'likes', 'enjoy', 'enjoyed', 'received', 'complaints', 'sentiment', 'general sentiment', 'piensa', 'critica', 'destaca', 'valora', 'se tomaron', 'gusta', 'gustó', 'gusto', 'queja', 'quejan', 'sentimiento', 'mood'],
  cjk: ['看法', '意见', '意見', '怎么样', '怎麼樣', '喜不喜欢', '喜不喜歡', '满意', '滿意', '吐槽'],
};

/** Question words. */
export const WHY_CUES: CueList = { latin: ['why', 'por qué', 'por que', 'porqué'], cjk: ['为什么', '為什麼', '为何', '為何'] };
export const WHO_CUES: CueList = { latin: ['who', 'whom', 'quién', 'quien', 'quiénes', 'quienes'], cjk: ['谁', '誰'] };
export const HOW_CUES: CueList = { latin: ['how', 'cómo', 'como'], cjk: ['怎么', '怎麼', '如何', '怎样', '怎樣'] };
export const WHICH_CUES: CueList = { latin: ['which', 'cuál', 'cuáles', 'en qué', 'qué partes', 'qué momentos'], cjk: ['哪些', '哪个', '哪個', '哪几', '哪幾', '哪段'] };
/** Asking for an account ("tell me about", "háblame de", "介绍一下"). */
export const TELL_ABOUT_CUES: CueList = { latin: ['tell me about', 'talk about', 'háblame de', 'hablame de', 'cuéntame de', 'cuentame de', 'cuéntame sobre'], cjk: ['介绍一下', '介紹一下', '讲讲', '講講', '说说', '說說'] };

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

/** A list's Latin cues as one expression, and whether every cue holds an ASCII letter once folded. */
interface LatinMatcher {
  re: RegExp | null;
  /**
   * Every cue holds a letter a–z once folded: then a folded text without one cannot match, and the
   * expression is not run (a Chinese question). Folded text has no character that matches a–z
   * case-insensitively but itself (the Kelvin sign and the long s fold to k and s), so this is exact.
   */
  needsAsciiLetter: boolean;
}

const compiled = new WeakMap<CueList, LatinMatcher>();
const ASCII_LETTER = /[a-z]/;

function latinMatcher(list: CueList): LatinMatcher {
  let m = compiled.get(list);
  if (m) return m;
  const folded = list.latin.map(fold);
  const alts = folded.map((f) => {
    const star = f.endsWith('*');
    const body = (star ? f.slice(0, -1) : f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    return star ? `${body}[\\p{L}]*` : body;
  });
  const re = alts.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.join('|')})(?![\\p{L}\\p{N}])`, 'giu') : null;
  m = { re, needsAsciiLetter: folded.every((f) => ASCII_LETTER.test(f)) };
  compiled.set(list, m);
  return m;
}

/** The list's Latin expression when `folded` may match it (see {@link LatinMatcher.needsAsciiLetter}). */
function latinRegex(list: CueList, folded: string): RegExp | null {
  const { re, needsAsciiLetter } = latinMatcher(list);
  return re && (!needsAsciiLetter || ASCII_LETTER.test(folded)) ? re : null;
}

/** Where the cues of `list` occur in `text` (character ranges of the folded text, which keeps the original's length for Latin and CJK text). */
export function cueMatches(text: string, list: CueList): { cue: string; range: [number, number] }[] {
  return cueMatchesIn(text, fold(text), list);
}

/** {@link cueMatches} for a text already folded by the caller (`folded` = `fold(text)`). */
export function cueMatchesIn(text: string, folded: string, list: CueList): { cue: string; range: [number, number] }[] {
  const out: { cue: string; range: [number, number] }[] = [];
  const re = latinRegex(list, folded);
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

/** {@link hasCue} for a text already folded by the caller (`folded` = `fold(text)`): no match list is built. */
export function cueIn(text: string, folded: string, list: CueList): boolean {
  const re = latinRegex(list, folded);
  if (re) {
    re.lastIndex = 0;
    const hit = re.test(folded);
    re.lastIndex = 0;
    if (hit) return true;
  }
  for (const c of list.cjk) if (text.includes(c)) return true;
  return false;
}
