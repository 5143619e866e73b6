/**
 * A step's "Across the corpus" line: how many of the run's items mention the step's topic (read
 * through the search index, every chunk of every item — `itemsMentioning`), and how many distinct
 * speakers and commenters its findings quote. "*Across the corpus:* mentioned in 7 of 12
 * meetings; 3 speakers." / "*全部语料：* 在 12 场会议中的 7 场提到；3 位发言人。" / "*En todo el
 * corpus:* mencionado en 7 de 12 vídeos; 3 hablantes." A step whose question names no topic says
 * how many items its findings come from instead.
 */
import type { CorpusIndex } from '../search/corpusIndex';
import type { FindingPlace } from './findingPlace';
import { itemsMentioning } from './goalScope';
import type { ItemKindNoun, ReportWords } from './reportWords';

/** What the line counts. */
export interface AcrossCounts {
  /** Items of the scope that mention the topic (undefined: the step names no topic). */
  mentioning?: number;
  /** Items the findings come from. */
  findingItems: number;
  scope: number;
  speakers: number;
  commenters: number;
}

/**
 * The counts of a step: items of `scopeIds` whose text mentions one of `topicWords` (none counted
 * when there are no words), items, speakers and commenters among the findings' places.
 */
export function acrossCounts(index: CorpusIndex | undefined, topicWords: readonly string[], scopeIds: readonly string[], places: readonly FindingPlace[]): AcrossCounts {
  const speakers = new Set<string>();
  const commenters = new Set<string>();
  for (const p of places) for (const w of p.who) (p.part === 'comments' ? commenters : speakers).add(`${p.part === 'transcript' ? `${p.itemId}\u0000` : ''}${w}`);
  const mentioning = index && topicWords.length ? itemsMentioning(index, topicWords, scopeIds).length : undefined;
  return { ...(mentioning !== undefined ? { mentioning } : {}), findingItems: new Set(places.map((p) => p.itemId)).size, scope: scopeIds.length, speakers: speakers.size, commenters: commenters.size };
}

/**
 * The line in words (raw Markdown: only the project's own words and numbers; nothing to escape).
 *
 * @example
 * acrossLine({ mentioning: 7, findingItems: 3, scope: 12, speakers: 3, commenters: 0 }, reportWords('en'), 'meeting')
 * // '*Across the corpus:* mentioned in 7 of 12 meetings; 3 speakers.'
 */
export function acrossLine(c: AcrossCounts, W: ReportWords, noun: ItemKindNoun): string {
  const parts = [c.mentioning !== undefined ? W.mentionedIn(c.mentioning, c.scope, noun) : W.findingsFrom(c.findingItems, c.scope, noun)];
  if (c.speakers) parts.push(W.speakers(c.speakers));
  if (c.commenters) parts.push(W.commenters(c.commenters));
  const zh = W.lang === 'zh';
  return `*${W.acrossCorpus}${zh ? '：' : ':'}* ${parts.join(W.listSeparator)}${zh ? '。' : '.'}`;
}
