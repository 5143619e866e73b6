/**
 * The headless command line: `marker-research <command> ...`. Uses the same core
 * code as the extension.
 */
import { LlmError } from '../core/llm/types';
import { RunLockedError } from '../core/research/runLock';
import { UnsafeStatePathError } from '../core/storage/safePath';
import { CancelledError } from '../core/util/abort';
import { ASK_USAGE, askCommand } from './askCommand';
import { CHAT_USAGE, chatCommand } from './chatCommand';
import { EVAL_USAGE, evalCommand } from './evalCommand';
import { EXPORT_USAGE, exportCommand } from './exportCommand';
import { indexCommand } from './indexCommand';
import { MARKERS_USAGE, markersCommand } from './markersCommand';
import { RESEARCH_USAGE, researchCommand } from './researchCommand';
import { CONDENSE_USAGE, condenseCommand } from './condenseCommand';
import { UsageError, type CliContext } from './io';
import { SEARCH_USAGE, searchCommand } from './searchCommand';

const USAGE = `Usage: marker-research <command> [options]

Commands:
  marker-research index <corpusDir> [--json]
      Load a corpus folder and report items, words, comments and problems.
  ${SEARCH_USAGE.replace(/\n/g, '\n  ')}
  ${ASK_USAGE.replace(/\n/g, '\n  ')}
  ${CHAT_USAGE.replace(/\n/g, '\n  ')}
  ${EVAL_USAGE.replace(/\n/g, '\n  ')}
  ${MARKERS_USAGE.replace(/\n/g, '\n  ')}
  ${RESEARCH_USAGE.replace(/\n/g, '\n  ')}
  ${CONDENSE_USAGE.replace(/\n/g, '\n  ')}
  ${EXPORT_USAGE.replace(/\n/g, '\n  ')}

  -h, --help    Show this help.
`;

const COMMANDS: Record<string, (ctx: CliContext) => Promise<number>> = {
  index: indexCommand,
  search: searchCommand,
  ask: askCommand,
  chat: chatCommand,
  eval: evalCommand,
  markers: markersCommand,
  research: researchCommand,
  condense: condenseCommand,
  export: exportCommand,
};

/** Runs the CLI. Exit codes: 0 ok, 1 failure, 2 usage error, 130 cancelled. */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const [command, ...args] = argv;
  if (!command) {
    err.write(USAGE);
    return 2;
  }
  if (command === '-h' || command === '--help' || command === 'help' || args.includes('--help') || args.includes('-h')) {
    out.write(USAGE);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    err.write(`marker-research: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    return await run({ args, out, err, signal: controller.signal });
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err.write(`marker-research ${command}: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof CancelledError) {
      err.write('marker-research: cancelled\n');
      return 130;
    }
    // A bad setting or a refused state path is the user's to fix: its message says how; no stack.
    if (e instanceof LlmError && e.reason === 'config') {
      err.write(`marker-research ${command}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof UnsafeStatePathError || e instanceof RunLockedError) {
      err.write(`marker-research ${command}: ${(e as Error).message}\n`);
      return 1;
    }
    err.write(`marker-research: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
