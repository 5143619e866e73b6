/**
 * The languages a corpus holds (English, Spanish, Chinese), item by item: each part's language
 * from a sample of its text — the first windows the search index kept of it, or (without an
 * index) the part's own text — by the project's detector (`detectLanguageEsEnZh`). Worked out
 * once per item (again only when its content hash changes) and kept with the corpus object,
 * and saved beside the search index (savedLanguages.ts): a corpus-wide question on 10,000 items
 * otherwise reads and judges every item's first windows again in each new process (~6 s).
 */
import type { Corpus, CorpusItem, PartKind } from '../../corpus/types';
import { detectLanguageEsEnZh } from '../../llm/langDetect';
import type { ContentLang } from '../../text/contentFree';

/** Characters of a part looked at. */
const SAMPLE_CHARS = 3000;

/** What is read of the search index: the chunks of an item, their part and their kept text. */
export interface ChunkSource {
  itemChunkIds(itemId: string): readonly number[];
  chunk(id: number): { part: PartKind } | undefined;
  storedChunkText(id: number): string | undefined;
}

export interface Known {
  hash: string;
  langs: readonly ContentLang[];
}

const known = new WeakMap<Corpus, Map<string, Known>>();
/** Items worked out since the corpus's saved languages were read or written (savedLanguages.ts). */
const fresh = new WeakMap<Corpus, number>();

/** The languages known of the corpus's items, by item id, with the content hash they were worked out for (savedLanguages.ts reads and fills it). */
export function knownItemLanguages(corpus: Corpus): Map<string, Known> {
  let byItem = known.get(corpus);
  if (!byItem) known.set(corpus, (byItem = new Map()));
  return byItem;
}

/** How many items' languages were worked out since the last save (`reset`: the save just wrote them). */
export function freshItemLanguages(corpus: Corpus, reset = false): number {
  const n = fresh.get(corpus) ?? 0;
  if (reset) fresh.delete(corpus);
  return n;
}
/** The languages of a whole corpus, for the item list and index they were worked out from (a new load makes a new list). */
const wholeCorpus = new WeakMap<Corpus, { items: readonly CorpusItem[]; index: ChunkSource | undefined; langs: ReadonlySet<ContentLang> }>();

/** The first characters of each part of `item`: from the index's kept texts when it has them, else from the parsed parts. */
function samples(item: CorpusItem, index?: ChunkSource): string[] {
  const out: string[] = [];
  if (index) {
    const byPart = new Map<PartKind, string>();
    for (const id of index.itemChunkIds(item.id)) {
      const c = index.chunk(id);
      if (!c) continue;
      const have = byPart.get(c.part) ?? '';
      if (have.length >= SAMPLE_CHARS) continue;
      const text = index.storedChunkText(id);
      if (text === undefined) continue;
      byPart.set(c.part, `${have} ${text}`);
      if ([...byPart.values()].every((t) => t.length >= SAMPLE_CHARS) && byPart.size === 2) break;
    }
    out.push(...byPart.values());
  }
  if (!out.length) {
    for (const text of [item.transcript?.text, item.comments?.text]) if (text) out.push(text.slice(0, SAMPLE_CHARS));
  }
  return out.filter((t) => /\p{L}/u.test(t));
}

/** The languages of one item's parts (its title's when it has no text). */
export function itemLanguages(corpus: Corpus, item: CorpusItem, index?: ChunkSource): readonly ContentLang[] {
  const byItem = knownItemLanguages(corpus);
  const k = byItem.get(item.id);
  if (k && k.hash === item.contentHash) return k.langs;
  const texts = samples(item, index);
  const langs = [...new Set((texts.length ? texts : [item.title]).map((t) => detectLanguageEsEnZh(t)))];
  byItem.set(item.id, { hash: item.contentHash, langs });
  fresh.set(corpus, (fresh.get(corpus) ?? 0) + 1);
  return langs;
}

/**
 * The languages of the items in `itemIds` (all items when not given).
 *
 * @example corpusLanguages(corpus, { index }) // Set { 'en' } for QMSum's meetings
 */
export function corpusLanguages(corpus: Corpus, options: { index?: ChunkSource; itemIds?: readonly string[] } = {}): Set<ContentLang> {
  const scope = options.itemIds ? new Set(options.itemIds) : undefined;
  const whole = scope ? undefined : wholeCorpus.get(corpus);
  if (whole && whole.items === corpus.items && whole.index === options.index) return new Set(whole.langs);
  const out = new Set<ContentLang>();
  for (const item of corpus.items) {
    if (scope && !scope.has(item.id)) continue;
    for (const l of itemLanguages(corpus, item, options.index)) out.add(l);
  }
  if (!scope) wholeCorpus.set(corpus, { items: corpus.items, index: options.index, langs: new Set(out) });
  return out;
}
