/** `marker-research index <corpusDir> [--json]`: open a corpus (writing its outline) and report it. */
import { isMissingCorpus } from '../core/corpus/openCorpus';
import { formatProblem, type Corpus } from '../core/corpus/types';
import { openCommandCorpus } from './commandCorpus';
import { parseCommandArgs, table, UsageError, type CliContext } from './io';

export async function indexCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args: ctx.args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) throw new UsageError('index: expected exactly one corpus folder');
  const started = Date.now();
  const corpus = await openCommandCorpus(ctx, positionals[0]!);
  const ms = Date.now() - started;
  for (const p of corpus.problems) ctx.err.write(`${formatProblem(p)}\n`);
  if (isMissingCorpus(corpus)) return 1;
  ctx.out.write(values.json ? `${JSON.stringify(indexSummary(corpus, ms), null, 2)}\n` : renderIndex(corpus, ms));
  return 0;
}

/** The JSON shape printed by `index --json`. */
export function indexSummary(corpus: Corpus, ms: number): object {
  return {
    root: corpus.root,
    stats: corpus.stats,
    problems: corpus.problems,
    ms,
    items: corpus.items.map((it) => ({
      id: it.id,
      title: it.title,
      words: it.wordCount,
      transcript: it.transcript ? { file: it.transcript.file.relPath, format: it.transcript.format, segments: it.transcript.segments.length, words: it.transcript.wordCount } : null,
      comments: it.comments ? { file: it.comments.file.relPath, format: it.comments.format, count: it.comments.comments.length, empty: it.comments.emptyCount, words: it.comments.wordCount } : null,
      contentHash: it.contentHash,
    })),
  };
}

function renderIndex(corpus: Corpus, ms: number): string {
  const rows = corpus.items.map((it) => [it.id, it.title, String(it.transcript?.segments.length ?? '-'), String(it.comments?.comments.length ?? '-'), String(it.wordCount)]);
  const s = corpus.stats;
  const bad = corpus.problems.filter((p) => p.severity !== 'info').length;
  return [
    table(['item', 'title', 'segments', 'comments', 'words'], rows),
    '',
    `${s.items} items, ${s.words} words, ${s.comments} comments (${s.emptyComments} empty), ${s.transcripts} transcripts`,
    `${corpus.problems.length} problems (${bad} errors/warnings), ${s.skipped} records or files skipped, ${s.filesRead} files read in ${ms} ms`,
    '',
  ].join('\n');
}
