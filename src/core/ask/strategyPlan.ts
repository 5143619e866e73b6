/**
 * Which retrieval strategies serve which intent (seed 004 "RETRIEVAL_STRATEGIES"),
 * and how much each counts in the fusion. Keyword search runs for every
 * intent that has words to search for; vectors join wherever keyword does
 * when an embedding model is configured.
 */
import { tokenizeQuery } from '../search/tokenize';
import type { Intent, StrategyName } from './query';

/** Nouns for the material itself: "the meeting", "this episode", "本期节目" say nothing about a topic. */
const GENERIC = new Set(
  ('meeting meetings episode episodes video videos podcast podcasts interview interviews session sessions item items discussion discussions talk conversation ' +
    'seminar panel committee corpus part parts segment segments whole short give brief general main key point points moment moments make good best ' +
    'episodio episodios vídeo video entrevista entrevistas charla conversación reunión reuniones sesión programa parte momento momentos ' +
    '会议 会上 视频 节目 本期 这期 对谈 讨论 内容 部分 片段 一下 主要 整体 會議 視頻 節目 對談 討論 內容').split(/\s+/),
);

/** The keywords that name a topic: without the generic ones ("episode", "meeting", "视频"). */
export function topicWords(keywords: readonly string[]): string[] {
  return keywords.filter((k) => !GENERIC.has(k.toLowerCase()));
}

/** True when `keywords` hold a topic: words left after the generic ones. */
export function hasTopic(keywords: readonly string[]): boolean {
  const words = topicWords(keywords);
  return words.length > 0 && tokenizeQuery(words.join(' ')).some((t) => !GENERIC.has(t) && t.length > 1);
}

/**
 * Weight of each strategy's ranks in reciprocal-rank fusion. Keyword search
 * is the measured baseline (bench: eval retrieval), so other strategies add
 * to it rather than outvote it, except where the intent is their own.
 */
export function fusionWeight(strategy: StrategyName, intent: Intent, hasKeywords = true, use: 'hits' | 'passages' = 'hits'): number {
  // Reception and clips rank by the topic themselves; plain text search only supports them there.
  if ((strategy === 'keyword' || strategy === 'vector') && (intent === 'analyze_reception' || intent === 'recommend_clip')) return 0.3;
  if (strategy === 'keyword') return 1;
  if (strategy === 'vector') return 0.8;
  // Strategies whose intent has no topical words to rank by (a citation, the comments, clips): they lead.
  if (strategy === 'citation' || (strategy === 'reception' && intent === 'analyze_reception') || (strategy === 'clip' && intent === 'recommend_clip')) return 1;
  // A question about what someone said: the entity strategy ranks the windows where they say the topic themself first (then
  // their windows by the topic), so it leads the hits; keyword search breaks its ties. Passages stay keyword-led (measured:
  // eval ask on qmsum-dev queries.jsonl, recall at the budget).
  if (strategy === 'entity' && intent === 'search_entity' && use === 'hits') return 2;
  // Without topical words the intent's own strategy leads ("summarize this meeting", "what did PhD C say?").
  const own: Partial<Record<Intent, StrategyName>> = { search_entity: 'entity', search_relation: 'relation', summary: 'summary' };
  if (!hasKeywords) return own[intent] === strategy ? 1 : 0.5;
  // With them, keyword ranking leads and the others add evidence: a span both find rises, one only they find comes lower.
  return own[intent] === strategy ? 0.08 : 0.05;
}

/**
 * The strategies for `intent`. `hasTopic`: the question has words to search
 * for beyond its intent ("summarize the discussion about VAD" has, "summarize
 * the meeting" has not) — then keyword search leads and whole-item strategies
 * (summary) stay out; without them, the intent's own strategy does the work.
 */
export function chooseStrategies(intent: Intent, opts: { hasTopic: boolean; vectors: boolean }): StrategyName[] {
  const text: StrategyName[] = opts.vectors ? ['keyword', 'vector'] : ['keyword'];
  const topical = opts.hasTopic ? text : [];
  switch (intent) {
    case 'summary':
      return opts.hasTopic ? [...text, 'marker'] : ['summary', 'marker'];
    case 'analyze_topic':
      return opts.hasTopic ? [...text, 'marker', 'summary'] : ['summary', 'marker'];
    case 'search_entity':
      return ['entity', ...topical, ...(opts.hasTopic ? (['marker'] as const) : [])];
    case 'search_relation':
      return ['relation', 'entity', ...topical];
    case 'search_semantic':
      return [...text, 'marker'];
    case 'analyze_reception':
      return ['reception', ...topical];
    case 'recommend_clip':
      return ['clip', ...topical];
    case 'citation_lookup':
      return ['citation'];
  }
}
