/**
 * The languages of a corpus's items (corpusLanguages.ts), saved beside the search index in
 * `languages.json` with each item's content hash: a new process (the CLI's `ask`, the engine after
 * a restart) reads them instead of sampling and judging every item's text again — on a
 * 10,000-item corpus the first corpus-wide question spent ~6 s there. An item whose hash changed
 * is worked out again; a file that cannot be read or has another version is worked out afresh.
 *
 * @example
 * await loadSavedLanguages(corpus); // in openAskContext
 * corpusLanguages(corpus, { index }); // reads no window of an unchanged item
 * await saveLanguages(corpus); // after a question worked any out
 */
import * as path from 'node:path';
import { z } from 'zod';
import type { Corpus } from '../../corpus/types';
import { indexDir } from '../../search/corpusIndex';
import { writeFileAtomic } from '../../storage/atomic';
import { readStateFile } from '../../storage/safePath';
import { freshItemLanguages, knownItemLanguages } from './corpusLanguages';

const VERSION = 1;

const fileSchema = z.object({
  version: z.literal(VERSION),
  /** Item id → [content hash, languages]. */
  items: z.record(z.string(), z.tuple([z.string(), z.array(z.enum(['en', 'es', 'zh']))])),
});

/** The file of a corpus's saved languages. */
export function languagesFile(root: string): string {
  return path.join(indexDir(root), 'languages.json');
}

/** Reads the saved languages of `corpus`'s items whose content is unchanged; returns how many it took. */
export async function loadSavedLanguages(corpus: Corpus): Promise<number> {
  let parsed;
  try {
    parsed = fileSchema.safeParse(JSON.parse(await readStateFile(languagesFile(corpus.root), 'utf8')));
  } catch {
    return 0; // none saved yet, or not readable: worked out again
  }
  if (!parsed.success) return 0;
  const known = knownItemLanguages(corpus);
  let taken = 0;
  for (const item of corpus.items) {
    const saved = parsed.data.items[item.id];
    if (!saved || saved[0] !== item.contentHash || known.get(item.id)?.hash === item.contentHash) continue;
    known.set(item.id, { hash: saved[0], langs: saved[1] });
    taken++;
  }
  return taken;
}

/** Saves the languages known of `corpus`'s items when any were worked out since the last load or save; returns whether it wrote. */
export async function saveLanguages(corpus: Corpus): Promise<boolean> {
  if (!freshItemLanguages(corpus)) return false;
  const known = knownItemLanguages(corpus);
  const items = Object.create(null) as Record<string, [string, string[]]>;
  for (const item of corpus.items) {
    const k = known.get(item.id);
    if (k && k.hash === item.contentHash) items[item.id] = [k.hash, [...k.langs]];
  }
  freshItemLanguages(corpus, true);
  await writeFileAtomic(languagesFile(corpus.root), JSON.stringify({ version: VERSION, items }));
  return true;
}
