/**
 * How an error ends a CLI command: one line on stderr that says what is wrong and what to do,
 * and the exit code (issue 19, class 9). No stack trace unless `MARKER_RESEARCH_DEBUG` is set —
 * then an unexpected error (a bug) prints its stack too.
 */
import { LlmError, isCancellation } from '../core/llm/types';
import { NothingToResearchError } from '../core/research/nothingToResearch';
import { RunLockedError } from '../core/research/runLock';
import { RunStoreError } from '../core/research/runStore';
import { asFileWriteError, FileWriteError } from '../core/storage/writeError';
import { UnsafeStatePathError } from '../core/storage/safePath';
import { CancelledError } from '../core/util/abort';
import { UsageError } from './io';

/** The exit codes of every command (listed in `--help` and the README). */
export const EXIT = {
  /** The command did what it was asked. */
  ok: 0,
  /** It could not: a research run not `done`, nothing to research, a model or corpus error, a bug. */
  failed: 1,
  /** A missing or bad argument or option (an id that names nothing included). */
  usage: 2,
  /** A file could not be written (disk full, no permission, read-only file system); the message names it. */
  cannotWrite: 3,
  /** Cancelled (Ctrl-C). */
  cancelled: 130,
} as const;

/** The exit codes as `--help` lists them. */
export const EXIT_CODES_HELP = `Exit codes:
  0    done
  1    failed: the cause is printed (a research run that is partial, failed or has nothing to
       research; a model or corpus error)
  2    usage error: a missing or bad argument or option, or an id that names nothing
  3    a file could not be written (disk full, no permission, read-only); the file is named
  130  cancelled (Ctrl-C); a research run is left "cancelled" and resumes with --resume`;

/** System error codes that only a write gets. */
const WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EFBIG']);

/** What a failed command prints and returns. */
export interface CliFailure {
  /** One line (no trailing newline). */
  line: string;
  code: number;
}

/** Strips the `module:` prefix core errors carry (`research: `, `state: `, `llm: `). */
function plain(message: string): string {
  return message.replace(/^(?:research|state|llm|chat|export):\s*/, '');
}

/** A message on one line: whitespace runs (newlines included) become one space, at most `max` characters. */
function oneLine(message: string, max = 400): string {
  const t = message.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The message of an error nobody expected: a zod error's first issue, else its message. */
function unexpectedMessage(e: unknown): string {
  const issues = (e as { issues?: { path?: unknown[]; message?: string }[] } | undefined)?.issues;
  if (Array.isArray(issues) && issues[0]) return `${(issues[0].path ?? []).join('.') || 'value'}: ${issues[0].message ?? 'invalid'}`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * The line and exit code for `error`, thrown by `command`.
 * @example
 * describeFailure(new UsageError('--k must be a positive integer, got "-1"'), 'ask')
 * // → { line: 'marker-research ask: --k must be a positive integer, got "-1" (see marker-research --help)', code: 2 }
 */
export function describeFailure(error: unknown, command: string): CliFailure {
  const who = `marker-research ${command}`;
  if (error instanceof UsageError) return { line: `${who}: ${oneLine(error.message)} (see marker-research --help)`, code: EXIT.usage };
  if (error instanceof CancelledError || isCancellation(error)) return { line: `${who}: cancelled`, code: EXIT.cancelled };
  if (error instanceof FileWriteError) return { line: `${who}: ${oneLine(error.message, 1000)}`, code: EXIT.cannotWrite };
  if (error instanceof RunStoreError && error.reason === 'invalid-id') return { line: `${who}: ${oneLine(plain(error.message))}`, code: EXIT.usage };
  if (error instanceof NothingToResearchError || error instanceof RunStoreError || error instanceof UnsafeStatePathError || error instanceof RunLockedError || (error instanceof LlmError && error.reason === 'config')) {
    return { line: `${who}: ${oneLine(plain(error.message), 1000)}`, code: EXIT.failed };
  }
  if (error instanceof LlmError) return { line: `${who}: ${oneLine(plain(error.message))}`, code: EXIT.failed };
  const sys = error as NodeJS.ErrnoException | undefined;
  if (typeof sys?.code === 'string' && typeof sys.syscall === 'string') {
    // A system error that no store named a file for: a full or read-only disk is still a write failure.
    if (WRITE_CODES.has(sys.code)) return { line: `${who}: ${oneLine((asFileWriteError(error, sys.path ?? 'a file') as Error).message, 1000)}`, code: EXIT.cannotWrite };
    return { line: `${who}: ${oneLine(sys.message)}`, code: EXIT.failed };
  }
  const debug = process.env['MARKER_RESEARCH_DEBUG'];
  const stack = debug && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  return {
    line: `${who}: unexpected error: ${oneLine(unexpectedMessage(error))}${stack || ' (a bug: run again with MARKER_RESEARCH_DEBUG=1 for the stack trace, and report it)'}`,
    code: EXIT.failed,
  };
}
