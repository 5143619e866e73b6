/** What every CLI command gets: its arguments, output streams and a cancel signal. */
export interface CliContext {
  args: string[];
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  signal: AbortSignal;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  readonly reason = 'usage' as const;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parses a non-negative number option, or throws a {@link UsageError} naming it. */
export function numberOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} expects a non-negative number, got "${value}"`);
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
