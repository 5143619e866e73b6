/**
 * How a CLI command opens its corpus: the way the engine does ({@link openCorpus}: the persisted
 * outline, items parsed when first used within a bounded share of memory; for a command that
 * searches, the persisted index — built in the same pass as the items when there is none,
 * {@link openCorpusForSearch}), with a note on stderr for an item whose files change while the
 * command runs, and one line on stderr when the folder does not exist.
 */
import { isMissingCorpus, openCorpus, openCorpusForSearch, type CorpusForSearch, type OpenCorpusOptions } from '../core/corpus/openCorpus';
import type { Corpus } from '../core/corpus/types';
import type { CliContext } from './io';

function options(ctx: CliContext): OpenCorpusOptions {
  return {
    signal: ctx.signal,
    // An item parsed again on use that no longer has the content it was opened with.
    onStale: (id) => ctx.err.write(`note: the files of item ${id} changed since the corpus was opened; run the command again to use the new content\n`),
  };
}

/** Opens the corpus at `dir` for a command; every problem is kept on the corpus (none is printed here). */
export function openCommandCorpus(ctx: CliContext, dir: string): Promise<Corpus> {
  return openCorpus(dir, options(ctx));
}

function refuseMissing(ctx: CliContext, command: string, dir: string, corpus: Corpus): boolean {
  if (!isMissingCorpus(corpus)) return false;
  ctx.err.write(`marker-research ${command}: ${dir}: corpus folder does not exist or is not a folder\n`);
  return true;
}

/**
 * {@link openCommandCorpus}; undefined, after saying so on stderr
 * (`marker-research <command>: <dir>: corpus folder does not exist or is not a folder`), when the
 * folder does not exist (the command then exits 1).
 */
export async function openExistingCorpus(ctx: CliContext, command: string, dir: string): Promise<Corpus | undefined> {
  const corpus = await openCommandCorpus(ctx, dir);
  return refuseMissing(ctx, command, dir, corpus) ? undefined : corpus;
}

/** {@link openExistingCorpus} for a command that searches: the corpus and its search index ({@link openCorpusForSearch}). */
export async function openCorpusToSearch(ctx: CliContext, command: string, dir: string): Promise<CorpusForSearch | undefined> {
  const opened = await openCorpusForSearch(dir, options(ctx));
  return refuseMissing(ctx, command, dir, opened.corpus) ? undefined : opened;
}
