/**
 * The headless command line: `marker-research <command> ...`. Uses the same core
 * code as the extension.
 */
import { ASK_USAGE, askCommand } from './askCommand';
import { CHAT_USAGE, chatCommand } from './chatCommand';
import { EVAL_USAGE, evalCommand } from './evalCommand';
import { EXPORT_USAGE, exportCommand } from './exportCommand';
import { GOALS_USAGE, goalsCommand } from './goalsCommand';
import { indexCommand } from './indexCommand';
import { MARKERS_USAGE, markersCommand } from './markersCommand';
import { RESEARCH_USAGE, researchCommand } from './researchCommand';
import { CONDENSE_USAGE, condenseCommand } from './condenseCommand';
import { describeFailure, EXIT, EXIT_CODES_HELP } from './cliFailure';
import { type CliContext } from './io';
import { SEARCH_USAGE, searchCommand } from './searchCommand';
import { TerminalSafeStream } from './terminalText';

const USAGE = `Usage: marker-research <command> [options]

Commands:
  marker-research index <corpusDir> [--json]
      Load a corpus folder and report items, words, comments and problems.
  ${SEARCH_USAGE.replace(/\n/g, '\n  ')}
  ${ASK_USAGE.replace(/\n/g, '\n  ')}
  ${CHAT_USAGE.replace(/\n/g, '\n  ')}
  ${EVAL_USAGE.replace(/\n/g, '\n  ')}
  ${MARKERS_USAGE.replace(/\n/g, '\n  ')}
  ${GOALS_USAGE.replace(/\n/g, '\n  ')}
  ${RESEARCH_USAGE.replace(/\n/g, '\n  ')}
  ${CONDENSE_USAGE.replace(/\n/g, '\n  ')}
  ${EXPORT_USAGE.replace(/\n/g, '\n  ')}

  -h, --help    Show this help.

${EXIT_CODES_HELP}
`;

const COMMANDS: Record<string, (ctx: CliContext) => Promise<number>> = {
  index: indexCommand,
  search: searchCommand,
  ask: askCommand,
  chat: chatCommand,
  eval: evalCommand,
  markers: markersCommand,
  goals: goalsCommand,
  research: researchCommand,
  condense: condenseCommand,
  export: exportCommand,
};

/**
 * Runs the CLI. Exit codes: {@link EXIT} (0 ok, 1 failure, 2 usage error, 3 a file could not be
 * written, 130 cancelled). Every failure is one line on stderr. All output goes through the
 * terminal-text sanitiser: no control character from a corpus, a model or a path reaches the
 * terminal.
 */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const safeOut = new TerminalSafeStream(out);
  const safeErr = new TerminalSafeStream(err);
  const [command, ...args] = argv;
  if (!command) {
    safeErr.write(USAGE);
    return EXIT.usage;
  }
  if (command === '-h' || command === '--help' || command === 'help' || args.includes('--help') || args.includes('-h')) {
    safeOut.write(USAGE);
    return EXIT.ok;
  }
  const run = COMMANDS[command];
  if (!run) {
    safeErr.write(`marker-research: unknown command "${command}"; the commands are ${Object.keys(COMMANDS).join(', ')} (see marker-research --help)\n`);
    return EXIT.usage;
  }
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    return await run({ args, out: safeOut, err: safeErr, signal: controller.signal });
  } catch (e) {
    const failure = describeFailure(e, command);
    safeErr.write(`${failure.line}\n`);
    return failure.code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
