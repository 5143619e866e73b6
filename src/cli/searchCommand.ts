/**
 * `marker-research search <corpusDir> "<query>" [--k 10] [--item ID] ...`:
 * BM25 search over the persisted index, each hit mapped to its original file.
 */
import type { Corpus, CorpusItem, PartKind } from '../core/corpus/types';
import type { CorpusIndex, SearchFilters } from '../core/search/corpusIndex';
import { spanSourceOf, spanTextOf } from '../core/search/keptSpans';
import { retrieve } from '../core/search/retrieve';
import type { SpanHit } from '../core/search/spanHit';
import { formatClock } from '../core/text/clock';
import { openCorpusToSearch } from './commandCorpus';
import { integerOption, numberOption, parseCommandArgs, UsageError, type CliContext } from './io';

export const SEARCH_USAGE = `marker-research search <corpusDir> "<query>" [options]
  --k N              results to show (default 10)
  --item ID          only this item (repeatable)
  --part P           transcript | comments
  --speaker NAME     speaker or comment author contains NAME
  --min-likes N      comments with at least N likes
  --from SEC --to SEC  only spans overlapping this time range (seconds)
  --expand N         widen each hit by N neighbouring windows on each side
  --budget-words N   instead of a ranked list: the best contiguous passages within N words
  --json             JSON on stdout`;

/** A hit as `search --json` prints it. */
export type SearchResultJson = SpanHit;

export async function searchCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      k: { type: 'string' }, item: { type: 'string', multiple: true }, part: { type: 'string' }, speaker: { type: 'string' },
      'min-likes': { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, expand: { type: 'string' },
      'budget-words': { type: 'string' }, json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 2) throw new UsageError('search: expected a corpus folder and a query');
  const [dir, query] = positionals as [string, string];
  if (values.part !== undefined && values.part !== 'transcript' && values.part !== 'comments') throw new UsageError('--part expects transcript or comments');
  const filters: SearchFilters = {
    itemIds: values.item,
    part: values.part as PartKind | undefined,
    speaker: values.speaker,
    minLikes: values['min-likes'] === undefined ? undefined : integerOption('min-likes', values['min-likes'], 0, 0),
    timeRange: values.from !== undefined || values.to !== undefined ? [numberOption('from', values.from, 0), numberOption('to', values.to, Number.POSITIVE_INFINITY)] : undefined,
  };
  const k = integerOption('k', values.k, 10);
  const expand = integerOption('expand', values.expand, 0, 0);
  const budgetWords = values['budget-words'] === undefined ? undefined : integerOption('budget-words', values['budget-words'], 2000);
  const opened = await openCorpusToSearch(ctx, 'search', dir);
  if (!opened) return 1;
  const { corpus } = opened;
  const unknown = (filters.itemIds ?? []).filter((id) => !corpus.items.some((i) => i.id === id));
  if (unknown.length) throw new UsageError(`--item: no item "${unknown.join('", "')}" in ${corpus.root}`);
  const { index, report } = await opened.searchIndex();
  ctx.err.write(`index ${report.mode} in ${report.ms} ms (${report.reindexed.length} items indexed, ${index.size.chunks} windows)\n`);
  const results = budgetWords !== undefined
    ? passages(index, corpus, query, filters, budgetWords)
    : ranked(index, corpus, query, filters, k, expand);
  if (values.json) ctx.out.write(`${JSON.stringify(results, null, 2)}\n`);
  else ctx.out.write(render(results, query));
  return 0;
}

function ranked(index: CorpusIndex, corpus: Corpus, query: string, filters: SearchFilters, k: number, expand: number): SearchResultJson[] {
  const res = retrieve(index, query, { ...filters, budgetWords: 0 });
  const items = itemsById(corpus);
  return res.ranked.slice(0, k).map((r, i) => {
    let { start, end, words } = r.chunk;
    let chunkIds = [r.id];
    if (expand > 0 && r.chunk.part === 'transcript') {
      const ids = index.itemChunkIds(r.chunk.itemId);
      const lo = index.chunk(ids[Math.max(0, r.chunk.seq - expand)]!);
      const hi = index.chunk(ids[r.chunk.seq + expand] ?? ids[r.chunk.seq]!);
      const last = hi?.part === 'transcript' ? hi : r.chunk;
      start = lo?.part === 'transcript' ? lo.start : start;
      end = last.end;
      words = 0;
      for (let s = Math.max(0, r.chunk.seq - expand); s <= last.seq; s++) words += index.chunk(ids[s]!)?.words ?? 0;
      chunkIds = ids.slice(Math.max(0, r.chunk.seq - expand), last.seq + 1);
    }
    return toJson(index, corpus.root, items.get(r.chunk.itemId)!, chunkIds, i + 1, r.chunk.part, start, end, words, r.listScore);
  });
}

function passages(index: CorpusIndex, corpus: Corpus, query: string, filters: SearchFilters, budgetWords: number): SearchResultJson[] {
  const items = itemsById(corpus);
  return retrieve(index, query, { ...filters, budgetWords }).spans.map((s, i) => toJson(index, corpus.root, items.get(s.itemId)!, s.chunkIds, i + 1, s.part, s.start, s.end, s.words, s.score));
}

function itemsById(corpus: Corpus): Map<string, CorpusItem> {
  return new Map(corpus.items.map((it) => [it.id, it]));
}

/** A hit as printed: its text and place from what the index kept of its chunks (the item is parsed only when the index did not keep them). */
function toJson(index: CorpusIndex, root: string, item: CorpusItem, chunkIds: readonly number[], rank: number, part: PartKind, start: number, end: number, words: number, score: number): SearchResultJson {
  const span = { part, start, end };
  return {
    rank, itemId: item.id, title: item.title, part, start, end, words, score: Math.round(score * 1000) / 1000,
    source: spanSourceOf(root, item, index, chunkIds, span) ?? null,
    text: spanTextOf(index, item, chunkIds, span),
  };
}

function clock(s: number | undefined): string {
  return s === undefined ? '' : formatClock(s);
}

function render(results: SearchResultJson[], query: string): string {
  if (!results.length) return `no results for "${query}"\n`;
  return results.map((r) => {
    const src = r.source;
    const where = src ? `${src.file.relPath}:${src.range.startLine + 1}:${src.range.startColumn + 1}-${src.range.endLine + 1}:${src.range.endColumn + 1}` : r.itemId;
    const time = src?.startTime !== undefined ? ` [${clock(src.startTime)}–${clock(src.endTime)}]` : '';
    const who = src?.speakers.length ? ` (${src.speakers.slice(0, 3).join(', ')}${src.speakers.length > 3 ? ', …' : ''})` : '';
    const snippet = r.text.replace(/\s+/g, ' ').slice(0, 240);
    return `${r.rank}. ${r.title} — ${r.part}, ${r.words} words, score ${r.score}\n   ${where}${time}${who}\n   ${snippet}${r.text.length > 240 ? '…' : ''}\n`;
  }).join('\n');
}
