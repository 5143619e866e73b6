import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What every CLI command gets: its arguments, output streams and a cancel signal. */
export interface CliContext {
  args: string[];
  /** Standard output; under `main`, every write is made safe for a terminal (see terminalText.ts). */
  out: NodeJS.WritableStream;
  /** Standard error, likewise. */
  err: NodeJS.WritableStream;
  signal: AbortSignal;
}

/** A usage error: printed as one line, exit code 2. */
export class UsageError extends Error {
  readonly reason = 'usage' as const;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A number after an option (`--k -1`, `--from -.5`): the option's value, not an option of its own. */
const NEGATIVE_NUMBER = /^-(?:\d|\.\d|Infinity\b)/;

/**
 * Parses a command's arguments with `node:util` `parseArgs`. A negative number after an option
 * that takes a value is that value (`--k -1` reads as `--k=-1`, for the option's own check to
 * refuse with its range); parseArgs' errors become one-line {@link UsageError}s naming the option.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  const given = config.args ?? [];
  const args: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const a = given[i]!;
    const next = given[i + 1];
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  try {
    return parseArgs<T>({ ...config, args });
  } catch (e) {
    throw usageFromParseError(e);
  }
}

/** parseArgs' error as one line: which option is wrong and how. */
function usageFromParseError(e: unknown): unknown {
  const err = e as { code?: string; message?: string };
  if (typeof err.code !== 'string' || !err.code.startsWith('ERR_PARSE_ARGS')) return e;
  const message = err.message ?? '';
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${option ?? message.split('\n')[0]}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (option && /argument missing/.test(message)) return new UsageError(`${option} needs a value`);
      if (option && /ambiguous/.test(message)) return new UsageError(`${option} needs a value (for a value that starts with "-", write ${option}=VALUE)`);
      if (option && /does not take an argument/.test(message)) return new UsageError(`${option} takes no value`);
      return new UsageError(message.split('\n')[0]!);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}`.trim());
    default:
      return new UsageError(message.split('\n')[0]!);
  }
}

/**
 * A whole-number option of at least `min` (1: "a positive integer", 0: "a non-negative
 * integer"), or `fallback` when not given.
 * @throws UsageError "--k must be a positive integer, got "-1"".
 */
export function integerOption(name: string, value: string | undefined, fallback: number, min: 0 | 1 = 1): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a ${min === 1 ? 'positive' : 'non-negative'} integer, got "${value}"`);
  return n;
}

/**
 * A non-negative number option (seconds, a density), or `fallback` when not given.
 * @throws UsageError "--from must be a non-negative number, got "-3"".
 */
export function numberOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a non-negative number, got "${value}"`);
  return n;
}

/** Width in terminal columns: CJK and full-width characters take two. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return w;
}

/** Cuts `s` to at most `width` columns, ending with … when cut. */
export function clip(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let out = '';
  for (const ch of s) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…`;
}

export function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

/** Renders rows as aligned columns (each at most `maxWidth` wide). */
export function table(header: string[], rows: string[][], maxWidth = 48): string {
  const widths = header.map((h, i) => Math.min(maxWidth, Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? '')))));
  const fmt = (r: string[]): string => r.map((c, i) => pad(clip(c, widths[i]!), widths[i]!)).join('  ').trimEnd();
  return [fmt(header), ...rows.map(fmt)].join('\n');
}
