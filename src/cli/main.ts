/**
 * The headless command line: `marker-research <command> ...`. Uses the same core
 * code as the extension.
 */
import { parseArgs } from 'node:util';
import { loadCorpus } from '../core/corpus/loader';
import { formatProblem, type Corpus } from '../core/corpus/types';
import { CancelledError } from '../core/util/abort';

const USAGE = `Usage: marker-research <command> [options]

Commands:
  index <corpusDir> [--json]   Load a corpus folder and report items, words, comments and problems.

Options:
  --json        Print machine-readable JSON on stdout.
  -h, --help    Show this help.
`;

/** Exit codes: 0 ok, 1 failure, 2 usage error. */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (e) {
    err.write(`marker-research: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || !command) {
    (command || parsed.values.help ? out : err).write(USAGE);
    return command || parsed.values.help ? 0 : 2;
  }
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    switch (command) {
      case 'index':
        return await runIndex(rest, parsed.values.json, controller.signal, out, err);
      default:
        err.write(`marker-research: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof CancelledError) {
      err.write('marker-research: cancelled\n');
      return 130;
    }
    err.write(`marker-research: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function runIndex(args: string[], json: boolean, signal: AbortSignal, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const [dir] = args;
  if (!dir || args.length > 1) {
    err.write(`marker-research index: expected exactly one corpus folder\n\n${USAGE}`);
    return 2;
  }
  const started = Date.now();
  const corpus = await loadCorpus(dir, { signal });
  const ms = Date.now() - started;
  for (const p of corpus.problems) err.write(`${formatProblem(p)}\n`);
  if (corpus.problems.some((p) => p.code === 'not-a-folder')) return 1;
  if (json) {
    out.write(`${JSON.stringify(indexSummary(corpus, ms), null, 2)}\n`);
  } else {
    out.write(renderIndexTable(corpus, ms));
  }
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

function renderIndexTable(corpus: Corpus, ms: number): string {
  const rows = corpus.items.map((it) => [it.id, it.title, String(it.transcript?.segments.length ?? '-'), String(it.comments?.comments.length ?? '-'), String(it.wordCount)]);
  const header = ['item', 'title', 'segments', 'comments', 'words'];
  const widths = header.map((h, i) => Math.min(48, Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i]!)))));
  const fmt = (r: string[]): string => r.map((c, i) => pad(clip(c, widths[i]!), widths[i]!)).join('  ').trimEnd();
  const s = corpus.stats;
  const bad = corpus.problems.filter((p) => p.severity !== 'info').length;
  return [
    fmt(header),
    ...rows.map(fmt),
    '',
    `${s.items} items, ${s.words} words, ${s.comments} comments (${s.emptyComments} empty), ${s.transcripts} transcripts`,
    `${corpus.problems.length} problems (${bad} errors/warnings), ${s.skipped} records or files skipped, ${s.filesRead} files read in ${ms} ms`,
    '',
  ].join('\n');
}

/** Width in terminal columns: CJK characters take two. */
function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return w;
}

function clip(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let outStr = '';
  for (const ch of s) {
    if (displayWidth(outStr + ch) > width - 1) break;
    outStr += ch;
  }
  return `${outStr}…`;
}

function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
