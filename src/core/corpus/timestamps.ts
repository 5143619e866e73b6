/** Clock times in transcripts (`HH:MM:SS,mmm`, `MM:SS.mmm`) as seconds. */

/** Parses `HH:MM:SS,mmm` or `MM:SS.mmm` (hours optional, milliseconds with `.` or `,`). */
export function parseTimestamp(s: string): number | undefined {
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*$/.exec(s);
  if (!m) return undefined;
  const [, h, mi, se, ms] = m;
  return Number(h ?? 0) * 3600 + Number(mi) * 60 + Number(se) + (ms ? Number(ms.padEnd(3, '0')) / 1000 : 0);
}
