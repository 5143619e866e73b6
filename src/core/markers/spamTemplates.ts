/**
 * Templates across comments, for the corpus-wide spam decision (spam.ts): near-duplicate groups of
 * the comments' words within an item and across items, weighed by the items and accounts that post
 * them; items that are copies of each other (mirrored uploads) count once.
 */
import { nearDuplicateGroups } from './nearDuplicates';

/**
 * What the corpus-wide decision keeps of a comment (spam.ts, `spamRecordsOf`): its own score, the
 * model's part and its template words — not the comment, so a corpus's comments can be read item
 * by item and let go.
 */
export interface SpamRecord {
  id: string;
  /** The author, trimmed and lower case ('' without one). */
  author: string;
  /** The template words (spam.ts, `templateWords`) joined by a space, and how many there are. */
  words: string;
  wordCount: number;
  /** Its own cues (`scoreComment`). */
  score: number;
  reasons: readonly string[];
  /** The learned model's part (`modelTerm`); 0 without a model. */
  learned: number;
}

/** A comment's record and the place of its item among the decision's items. */
export interface Flat {
  itemIndex: number;
  record: SpamRecord;
}

/**
 * Near-duplicate groups ({@link nearDuplicateGroups}: MinHash over the
 * normalised words, links left out) within an item and across items. A group's
 * weight grows with the items it spans, the accounts that post it and whether
 * one author posts it again; short groups (a few words: "nice", "best song
 * ever") weigh little, their wording is left to the model.
 */
export function templateWeights(flat: readonly Flat[], itemCount: number): Map<number, { weight: number; reason: string }> {
  const group = nearDuplicateGroups(flat.map((f) => f.record.words));
  const mirror = mirroredItems(flat, itemCount);
  const groups = new Map<number, number[]>();
  flat.forEach((f, i) => {
    if (!f.record.wordCount) return;
    const g = groups.get(group[i]!);
    if (g) g.push(i);
    else groups.set(group[i]!, [i]);
  });
  const out = new Map<number, { weight: number; reason: string }>();
  for (const all of groups.values()) {
    if (all.length < 2) continue;
    // The same comment in two copies of one item (mirrored items) counts once.
    const seen = new Set<string>();
    const members = all.filter((i) => {
      const f = flat[i]!;
      const k = `${mirror.find(f.itemIndex)}|${f.record.author}|${f.record.words}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    if (members.length < 2) continue;
    const items = new Set(members.map((i) => mirror.find(flat[i]!.itemIndex))).size;
    // Accounts: a comment without an author is an account of its own.
    const named = members.map((i) => flat[i]!.record.author).filter((a) => !!a);
    const accounts = new Set(named).size + (members.length - named.length);
    const sameAuthor = named.length > new Set(named).size;
    // (A loop, not a spread: a template can have more members than a call takes arguments.)
    let words = Infinity;
    for (const i of members) words = Math.min(words, flat[i]!.record.wordCount);
    let weight = 0;
    let reason = `template repeated ${members.length}×`;
    if (members.length >= 3 && items >= 2 && words >= TEMPLATE_WORDS.campaign) {
      weight = 1;
      reason = `template repeated in ${items} items`;
    } else if (accounts >= 3 && words >= TEMPLATE_WORDS.accounts) {
      weight = accounts >= 5 ? 0.7 : 0.6;
      reason = `template posted by ${accounts} accounts`;
    } else if ((sameAuthor || items >= 2) && words >= TEMPLATE_WORDS.repeated) {
      weight = 0.6;
      if (items >= 2) reason = `template repeated in ${items} items`;
    } else if (members.length >= 3) weight = 0.3;
    if (!weight) continue;
    for (const i of all) out.set(i, { weight, reason });
  }
  return out;
}

/** Fewest words of a near-duplicate group for each of its weights. */
const TEMPLATE_WORDS = { campaign: 10, accounts: 5, repeated: 8 } as const;

/**
 * Items that are copies of each other (a third or more of the long comments of
 * the smaller one also in the other, word for word): their shared comments are
 * one comment, not a campaign across items.
 */
function mirroredItems(flat: readonly Flat[], itemCount: number): UnionFind {
  const uf = new UnionFind(itemCount);
  const long = new Array<number>(itemCount).fill(0);
  // The items of each long text: one item as its number (most texts), two or more as a set.
  const where = new Map<string, number | Set<number>>();
  for (const f of flat) {
    if (f.record.wordCount < 8) continue;
    long[f.itemIndex]!++;
    const k = f.record.words;
    const s = where.get(k);
    if (s === undefined) where.set(k, f.itemIndex);
    else if (typeof s !== 'number') s.add(f.itemIndex);
    else if (s !== f.itemIndex) where.set(k, new Set([s, f.itemIndex]));
  }
  const shared = new Map<string, number>();
  for (const s of where.values()) {
    // A text in very many items is a campaign (and pairs of them would be quadratic).
    if (typeof s === 'number' || s.size > 50) continue;
    const ids = [...s].sort((a, b) => a - b);
    for (let a = 0; a < ids.length; a++) for (let b = a + 1; b < ids.length; b++) shared.set(`${ids[a]},${ids[b]}`, (shared.get(`${ids[a]},${ids[b]}`) ?? 0) + 1);
  }
  for (const [pair, n] of shared) {
    const [a, b] = pair.split(',').map(Number) as [number, number];
    if (n >= 5 && n * 3 >= Math.min(long[a]!, long[b]!)) uf.union(a, b);
  }
  return uf;
}

class UnionFind {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]!]!;
      i = this.parent[i]!;
    }
    return i;
  }
  union(a: number, b: number): void {
    const x = this.find(a);
    const y = this.find(b);
    if (x !== y) this.parent[Math.max(x, y)] = Math.min(x, y);
  }
}
