/**
 * Item ids: an item is named by its folder (`<name>/transcript.*`) or its flat-file stem
 * (`<name>.transcript.*`). When several items in different sub-folders have the same name,
 * each of them gets its path relative to the corpus root as its id instead (`season1/ep1`,
 * `season2/ep1`), so no item is merged into another or dropped; a `duplicate-id` warning says
 * so. Ids depend only on the corpus's paths, so they are the same on every load.
 */
import type { CorpusProblem } from './types';

export interface NamedLocation {
  /** The item's name: its folder name or flat-file stem (the id when there is no clash). */
  name: string;
  /** Where the item is, relative to the corpus root, `/`-separated; '' for the root folder itself. */
  key: string;
  /** How to show the location in a notice (`season1/ep1/`, `a/x.*`). */
  where: string;
  /** A file of the item, for the notice's `file`. */
  firstFile: string;
}

/**
 * The id of every location (same order as `locations`, whose keys are unique), and a
 * `duplicate-id` warning for every name that several locations share.
 */
export function assignItemIds(locations: readonly NamedLocation[], problems: CorpusProblem[]): string[] {
  const byName = new Map<string, number[]>();
  locations.forEach((loc, i) => {
    const list = byName.get(loc.name);
    if (list) list.push(i);
    else byName.set(loc.name, [i]);
  });
  const ids = locations.map((loc) => ((byName.get(loc.name)?.length ?? 0) > 1 ? loc.key || loc.name : loc.name));
  // Relative paths hold a `/` and names never do, so only the root item (whose path is empty
  // and keeps its name) can meet another derived id; a numbered suffix settles that, in path order.
  const count = new Map<string, number>();
  for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  const taken = new Set(ids.filter((id) => count.get(id) === 1));
  const order = locations.map((_, i) => i).sort((a, b) => cmp(locations[a]!.key, locations[b]!.key));
  const seen = new Set<string>();
  for (const i of order) {
    const id = ids[i]!;
    if (count.get(id) === 1) continue;
    if (!seen.has(id)) {
      seen.add(id);
      taken.add(id);
      continue;
    }
    let n = 2;
    while (taken.has(`${id}~${n}`)) n++;
    ids[i] = `${id}~${n}`;
    taken.add(ids[i]!);
  }
  for (const [name, members] of byName) {
    if (members.length < 2) continue;
    const sorted = [...members].sort((a, b) => cmp(locations[a]!.key, locations[b]!.key));
    problems.push({
      severity: 'warning',
      file: locations[sorted[0]!]!.firstFile,
      code: 'duplicate-id',
      message: `${sorted.length} items are named "${name}" (${sorted.map((i) => locations[i]!.where).join(', ')}); each is kept, with its relative path as its id: ${sorted.map((i) => `"${ids[i]}"`).join(', ')}`,
    });
  }
  return ids;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
