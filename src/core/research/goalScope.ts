/**
 * A goal's scope: which of the items in reach a goal the user wrote is about. A goal's content
 * terms are its words minus the vocabulary of research questions themselves ("main facts,
 * opinions and figures", "how do commenters respond", "主要事实、观点和数据", "¿qué dicen los
 * comentaristas?") and stopwords. A goal without content terms is about every item; one with
 * them is about every item whose text (read in full through the search index, not only its
 * markers) or markers mention one of them — the others are left out with that reason, never
 * silently.
 */
import { tokenize, QUERY_STOPWORDS } from '../search/tokenize';
import type { CorpusIndex } from '../search/corpusIndex';
import { isStopword } from '../text/stopwords';

/**
 * Words and phrases that say what kind of answer a research question wants, not what it is
 * about: kinds of findings, the items and their parts, the audience, verbs of saying and
 * reacting, change over time ("how do the topics change over time", "随时间如何变化"), scope
 * words. English and Spanish are matched as whole words (case- and accent-insensitively),
 * Chinese as substrings, longest first.
 */
const RESEARCH_VOCABULARY = {
  latin: `
    fact facts opinion opinions figure figures data datum datapoint datapoints number numbers statistic statistics stat stats point points key main
    major central overall general important summary summarize summarise summarized overview highlights finding findings evidence insight insights
    item items video videos meeting meetings episode episodes corpus content contents transcript transcripts recording recordings clip clips
    comment comments commenter commenters commentator commentators viewer viewers audience audiences reception respond responds responded responding
    response responses react reacts reacted reaction reactions receive receives received say says said tell tells told discuss discusses discussed
    discussion discussions talk talks talked argument arguments view views position positions claim claims theme themes topic topics subject subjects
    across all every each whole entire both throughout research study analyse analyze analysis compare comparison differ difference differences
    what which how why who whom where when whether there their they them is are was were do does did the a an and or of in on about to for from with
    by as at this that these those it its
    change changes changed changing evolve evolves evolved evolving evolution develop develops developed developing development trend trends over time
    times year years period periods show shows showed shown
    hecho hechos opinion opiniones cifra cifras dato datos numero numeros estadistica estadisticas principal principales clave importante importantes
    general generales resumen resumir contenido contenidos video videos reunion reuniones episodio episodios programa programas transcripcion
    comentario comentarios comentarista comentaristas audiencia publico espectadores seguidores responden responde responder respuesta respuestas
    reaccion reacciones reaccionan reciben recibe recepcion opina opinan opinar piensan piensa dicen dice dijo dijeron decir habla hablan hablaron hablo discuten discusion argumento
    argumentos tema temas asunto todos todas cada cuales cual que como por sobre entre
    cambia cambian cambio cambios cambiado cambiaron evoluciona evolucionan evolucion evolucionado tendencia tendencias desarrollo desarrollan largo tiempo
    ano anos periodo periodos muestra muestran
  `,
  cjk: `
    评价 評價 看待 认为 認為 觉得 覺得 这些 這些 那些 这个 這個 那个 那個 主要事实 事实 观点 看法 数据点 数据 数字 统计 主要 关键 重要 总体 总结 概述 概览 要点 发现 全部 所有 每个 每场 每一 各个 各场 内容项 内容 视频 影片 会议 节目 录音
    转录 评论者 评论区 评论 留言 网友 观众 听众 粉丝 回应 反应 如何 怎样 怎么 什么 哪些 有哪些 是什么 讨论 说了 提到 关于 话题 主题 之间 以及 中的 其中
    事實 觀點 數據點 數據 數字 統計 總體 總結 概述 要點 發現 全部 所有 每個 各個 內容項 內容 視頻 影片 會議 節目 評論者 評論區 評論 留言 網友 觀眾 聽眾 回應 反應
    如何 怎樣 怎麼 什麼 哪些 有哪些 是什麼 討論 說了 提到 關於 話題 主題 之間 以及
    随着时间 随时间 随着 时间 变化 演变 变迁 趋势 发展 隨著時間 隨時間 隨著 時間 變化 演變 變遷 趨勢 發展
  `,
};

const LATIN = new Set(RESEARCH_VOCABULARY.latin.split(/\s+/).filter(Boolean).map(fold));
const CJK_PHRASES = [...new Set(RESEARCH_VOCABULARY.cjk.split(/\s+/).filter(Boolean))].sort((a, b) => b.length - a.length);
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Chinese particles, measure words and conjunctions left between the phrases ("的", "和", "场"). */
const CJK_FILLER = /[的了和与與及着著吗嗎呢吧啊或在中里裡上下场場个個次位条條篇是有对對从從把被也都还還就又]/u;
/** A word (of {@link ZH_WORDS}) made only of fillers: dropped where it stands alone, never inside a word ("风电场", "中国市场", "上海"). */
const CJK_FILLER_WORD = new RegExp(`^${CJK_FILLER.source}+$`, 'u');
const ZH_WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

function fold(w: string): string {
  return w.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/**
 * The content terms of a goal (search tokens: stemmed words, Chinese bigrams), without the
 * research vocabulary, numbers and stopwords. Empty for a goal about everything ("What are the
 * main facts, opinions and figures in all 22 meetings?").
 *
 * @example
 * goalContentTerms('What is said about battery range in 3 videos?') // ['battery', 'range']
 * goalContentTerms('全部 22 场会议的主要事实、观点和数据是什么？')          // []
 */
export function goalContentTerms(goal: string): string[] {
  let text = goal.normalize('NFKC');
  for (const p of CJK_PHRASES) text = text.split(p).join(' ');
  text = [...ZH_WORDS.segment(text)].map((w) => (CJK_FILLER_WORD.test(w.segment) ? ' ' : w.segment)).join('');
  // Latin words of the vocabulary go whole; quoted titles and item ids stay (they name what the goal is about).
  text = text.replace(/[\p{L}\p{M}\p{N}'’]+/gu, (w) => (LATIN.has(fold(w)) || /^\d+$/.test(w) ? ' ' : w));
  const terms: string[] = [];
  for (const t of tokenize(text)) {
    if (/^\d+$/.test(t) || QUERY_STOPWORDS.has(t)) continue;
    if (!CJK_CHAR.test(t) && (isStopword(t, 'en') || isStopword(t, 'es') || t.length < 2 || LATIN.has(fold(t)))) continue;
    if (!terms.includes(t)) terms.push(t);
  }
  return terms;
}

/** Words by which a goal asks about the comments (the audience's side), in English, Spanish and Chinese. */
const COMMENT_CUES = /\b(?:comment\w*|viewers?|audiences?|fans?|followers?|reception|replies|comentari\w*|audiencia|p[uú]blico|espectador\w*|seguidor\w*|oyentes)\b|评论|評論|留言|网友|網友|观众|觀眾|粉丝|粉絲|弹幕|彈幕/iu;

/** Whether a goal asks about the comments ("how do commenters respond", "¿qué opina la audiencia?", "网友如何评价"). */
export function goalAsksAboutComments(goal: string): boolean {
  return COMMENT_CUES.test(goal.normalize('NFKC'));
}

/**
 * The items of `itemIds` whose text mentions one of `terms`, read through the search index
 * (every chunk of every item, not only its markers), best first.
 */
export function itemsMentioning(index: CorpusIndex, terms: readonly string[], itemIds: readonly string[]): string[] {
  if (!terms.length || !itemIds.length) return [];
  const best = new Map<string, number>();
  for (const hit of index.searchAll(terms.join(' '), { itemIds })) {
    const id = hit.chunk.itemId;
    best.set(id, Math.max(best.get(id) ?? 0, hit.score));
  }
  return [...best].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
