/**
 * `--items ID[,ID…]` and `--items @FILE` of `research` and `goals`: the items a run (or a goal
 * listing) is scoped to. Ids the corpus does not have are a usage error that names them, each
 * with the known ids that look like it (the same id in another case, a prefix either way, or a
 * few edits away), so a typo is one glance from its fix.
 *
 * @example
 * await readItemsOption('ev-winter-range,coffee-market-report') // → ['ev-winter-range', 'coffee-market-report']
 * await readItemsOption('@ids.txt')                               // one id a line; blank lines and # comments skipped
 */
import { readFile } from 'node:fs/promises';
import type { Corpus } from '../core/corpus/types';
import { ScopeError, scopedItems } from '../core/research/session';
import { UsageError } from './io';

/** Unknown ids named in the message (the rest are counted). */
const MAX_NAMED = 10;
/** Look-alike ids suggested per unknown id. */
const MAX_LOOK_ALIKES = 3;

/**
 * The ids of `--items` (undefined when not given), in the order given, each once. `@FILE` reads
 * one id a line (surrounding spaces trimmed; blank lines and lines starting with `#` skipped);
 * otherwise the value is a comma-separated list.
 * @throws UsageError when the list is empty or the file cannot be read (naming it).
 */
export async function readItemsOption(value: string | undefined): Promise<string[] | undefined> {
  if (value === undefined) return undefined;
  let ids: string[];
  if (value.startsWith('@')) {
    const file = value.slice(1);
    if (!file) throw new UsageError('--items @FILE needs a file name after @');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`--items ${value}: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : (code ?? (e as Error).message)})`);
    }
    ids = text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    if (!ids.length) throw new UsageError(`--items ${value}: ${file} names no item id (one id a line)`);
  } else {
    ids = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!ids.length) throw new UsageError('--items needs at least one item id (ID[,ID…] or @FILE)');
  }
  return [...new Set(ids)];
}

/**
 * Checks that `corpus` has every id of `scope` (with the core's own check, `scopedItems`).
 * @throws UsageError naming the unknown ids, each with up to three known ids that look like it.
 */
export function checkItemScope(corpus: Pick<Corpus, 'items' | 'root'>, scope: readonly string[]): void {
  try {
    scopedItems(corpus.items, scope);
  } catch (e) {
    if (!(e instanceof ScopeError)) throw e;
    const known = corpus.items.map((i) => i.id);
    const named = e.unknown.slice(0, MAX_NAMED).map((id) => {
      const like = lookAlikeIds(id, known, MAX_LOOK_ALIKES);
      return `"${id}"${like.length ? ` (did you mean ${like.map((k) => `"${k}"`).join(' or ')}?)` : ''}`;
    });
    const more = e.unknown.length > MAX_NAMED ? ` and ${e.unknown.length - MAX_NAMED} more` : '';
    const n = e.unknown.length;
    throw new UsageError(
      `--items: ${n} id${n === 1 ? '' : 's'} name${n === 1 ? 's' : ''} no item of ${corpus.root}: ${named.join(', ')}${more}; the corpus has ${known.length} item${known.length === 1 ? '' : 's'} (marker-research index ${corpus.root} lists their ids)`,
    );
  }
}

/**
 * The ids of `known` that look like `id`, closest first, at most `max`: the same id ignoring
 * case (distance 0), one a prefix of the other (ignoring case; distance 1), or at most
 * max(1, ⌊length / 4⌋) single-character edits away (Levenshtein over code points, ignoring case).
 * Ties keep the order of `known`.
 */
export function lookAlikeIds(id: string, known: readonly string[], max = MAX_LOOK_ALIKES): string[] {
  const a = [...id.toLowerCase()];
  const limit = Math.max(1, Math.floor(a.length / 4));
  const scored: { id: string; d: number; i: number }[] = [];
  known.forEach((k, i) => {
    const lower = k.toLowerCase();
    const b = [...lower];
    let d: number | undefined;
    if (lower === id.toLowerCase()) d = 0;
    else if (Math.min(a.length, b.length) >= 3 && (lower.startsWith(id.toLowerCase()) || id.toLowerCase().startsWith(lower))) d = 1;
    else if (Math.abs(a.length - b.length) <= limit) {
      const e = editDistance(a, b, limit);
      if (e <= limit) d = e;
    }
    if (d !== undefined) scored.push({ id: k, d, i });
  });
  return scored
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, max)
    .map((s) => s.id);
}

/**
 * Levenshtein distance of two code-point arrays, stopping early once every entry of a row is
 * over `bound` (then returns `bound + 1`). Two rows of memory, O(|a|·|b|) time at most.
 */
export function editDistance(a: readonly string[], b: readonly string[], bound = Infinity): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < best) best = v;
    }
    if (best > bound) return bound + 1;
    prev = row;
  }
  return prev[b.length]!;
}
