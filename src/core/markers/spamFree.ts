/**
 * The spam-free comments of an item: the one place that decides which comments
 * are spam for everything that reads comments on the researcher's behalf — the
 * extractive and model marker engines, the research overview and retrieval
 * handler (and so offline findings), chat's corpus passages. Spam is decided
 * over the whole corpus ({@link detectSpam}: templates repeated across items
 * count), once per corpus content, and kept with the corpus's item list.
 *
 * A spam-free part is the item's comments part with its spam comments left out
 * of `comments` and blanked (spaces, same length) in `text`: every offset still
 * points at the same character of the item, so spans, evidence and citations
 * computed on it open in the real file; what a model or a finding reads of it
 * has no spam in it. The readable view keeps showing every comment.
 *
 * @example
 * const part = spamFreeComments(item, corpus); // no spam in part.comments or part.text
 */
import { createHash } from 'node:crypto';
import type { CommentsPart, Corpus, CorpusItem } from '../corpus/types';
import { countWords } from '../text/words';
import { detectSpam, spamInputOf, type DetectOptions, type SpamDecision, type SpamInput } from './spam';

/** What a decision needs of a corpus: its items. */
export type SpamCorpus = Pick<Corpus, 'items'>;

interface Decided {
  signature: string;
  spam: Map<string, SpamDecision>;
}

/** Decisions by item list (a reloaded corpus has a new list; a list changed in place is noticed by its signature). */
const decided = new WeakMap<readonly CorpusItem[], Decided>();
/** The decision each item was last given as part of its corpus, or alone. */
const ofItem = new WeakMap<CorpusItem, SpamDecision>();
/** Spam-free parts by comments part, with the spam ids they were made for. */
const freeParts = new WeakMap<CommentsPart, { ids: ReadonlySet<string>; part: CommentsPart }>();

/** The corpus's content as the decision saw it: item ids and content hashes. */
function signatureOf(items: readonly CorpusItem[]): string {
  // The same item objects in the same order have the same content: comparing references is cheap, hashing every item is not (a question or a served request asks this).
  const memo = signatures.get(items);
  if (memo && memo.refs.length === items.length && memo.refs.every((x, k) => x === items[k] && x.contentHash === memo.hashes[k])) return memo.signature;
  const h = createHash('sha256');
  for (const i of items) h.update(`${i.id}\u0000${i.contentHash}\u0001`);
  const signature = h.digest('hex');
  signatures.set(items, { refs: [...items], hashes: items.map((i) => i.contentHash), signature });
  return signature;
}

/** The last signature of each item list, with the items (and their content hashes) it was made from. */
const signatures = new WeakMap<readonly CorpusItem[], { refs: CorpusItem[]; hashes: string[]; signature: string }>();

/**
 * The spam of every item of a corpus, decided once per corpus content. The
 * first decision of a content is kept: `options` (a threshold, another model)
 * apply only when the content has not been decided yet.
 *
 * @example
 * corpusSpam(corpus).get(item.id)?.ids.has(commentId);
 */
export function corpusSpam(corpus: SpamCorpus, options: DetectOptions = {}): Map<string, SpamDecision> {
  const signature = signatureOf(corpus.items);
  const known = decided.get(corpus.items);
  if (known && known.signature === signature) return known.spam;
  // Item by item: each item's comments are parsed (or taken from the part store), turned into the few facts the decision needs, and let go.
  const inputs = function* (items: readonly CorpusItem[]): Generator<SpamInput> {
    for (const item of items) {
      const input = spamInputOf(item);
      if (input) yield input;
    }
  };
  const spam = detectSpam(inputs(corpus.items), options);
  decided.set(corpus.items, { signature, spam });
  for (const item of corpus.items) {
    const d = spam.get(item.id);
    if (d) ofItem.set(item, d);
  }
  return spam;
}

/**
 * The corpus's spam decision when it is known for its current content (decided, or adopted from the
 * saved one): nothing is decided or parsed for it.
 */
export function knownCorpusSpam(corpus: SpamCorpus): Map<string, SpamDecision> | undefined {
  const known = decided.get(corpus.items);
  return known && known.signature === signatureOf(corpus.items) ? known.spam : undefined;
}

/**
 * Takes `spam` as the corpus's decision for its current content (one read from the saved
 * decision, see spamStore.ts, made for this content): {@link corpusSpam} gives it without deciding.
 */
export function adoptCorpusSpam(corpus: SpamCorpus, spam: Map<string, SpamDecision>): void {
  decided.set(corpus.items, { signature: signatureOf(corpus.items), spam });
  for (const item of corpus.items) {
    const d = spam.get(item.id);
    if (d) ofItem.set(item, d);
  }
}

const NO_SPAM: SpamDecision = { ids: new Set(), reasons: new Map(), scores: new Map() };

/**
 * The spam decision of an item: the corpus's when `corpus` is given (or when the
 * item was decided as part of its corpus before), else the item's comments
 * judged alone.
 */
export function itemSpam(item: CorpusItem, corpus?: SpamCorpus): SpamDecision {
  if (corpus) return corpusSpam(corpus).get(item.id) ?? NO_SPAM;
  const known = ofItem.get(item);
  if (known) return known;
  const input = spamInputOf(item);
  const d = (input && detectSpam([input]).get(item.id)) ?? NO_SPAM;
  ofItem.set(item, d);
  return d;
}

/** The comments part without `ids`: spam left out of the records, blanked in the text (offsets unchanged). */
function withoutSpam(part: CommentsPart, ids: ReadonlySet<string>): CommentsPart {
  if (!ids.size || !part.comments.some((c) => ids.has(c.id))) return part;
  const cached = freeParts.get(part);
  if (cached && cached.ids === ids) return cached.part;
  const pieces: string[] = [];
  let at = 0;
  for (const c of part.comments) {
    if (!ids.has(c.id) || c.offset < at) continue;
    pieces.push(part.text.slice(at, c.offset), part.text.slice(c.offset, c.offset + c.text.length).replace(/[^\n]/g, ' '));
    at = c.offset + c.text.length;
  }
  pieces.push(part.text.slice(at));
  const text = pieces.join('');
  const free: CommentsPart = { ...part, comments: part.comments.filter((c) => !ids.has(c.id)), text, wordCount: countWords(text) };
  freeParts.set(part, { ids, part: free });
  return free;
}

/**
 * The item's comments without spam (see the module's note), or undefined when
 * the item has no comments. The same object as `item.comments` when none is spam.
 *
 * @example
 * const free = spamFreeComments(item, corpus);
 * free?.comments.every((c) => !corpusSpam(corpus).get(item.id)?.ids.has(c.id)); // true
 */
export function spamFreeComments(item: CorpusItem, corpus?: SpamCorpus): CommentsPart | undefined {
  return item.comments && withoutSpam(item.comments, itemSpam(item, corpus).ids);
}

/**
 * {@link spamFreeComments} with the corpus's decision already in hand (`corpusSpam(corpus)`): a
 * caller that reads many spans of a question takes it once — each `corpusSpam` call checks the
 * corpus's content (every item) against the decision's.
 */
export function spamFreeCommentsIn(item: CorpusItem, spam: ReadonlyMap<string, SpamDecision>): CommentsPart | undefined {
  return item.comments && withoutSpam(item.comments, (spam.get(item.id) ?? NO_SPAM).ids);
}

/** Whether a comment of the item is spam. */
export function isSpamComment(item: CorpusItem, commentId: string, corpus?: SpamCorpus): boolean {
  return itemSpam(item, corpus).ids.has(commentId);
}
