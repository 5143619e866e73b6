/**
 * ISO 8601 values as a reader writes them: a date-time `2024-03-14T13:05:00Z` as
 * `2024-03-14 13:05 UTC`, a duration `PT1H43M20S` (YouTube's `duration`) as the clock `1:43:20`.
 */
import { formatClock } from './clock';

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DURATION = /^P(?:(\d+)D)?T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?$/i;

/**
 * The readable form of an ISO 8601 date-time or duration; undefined for anything else (left
 * as it is by the caller).
 *
 * @example
 * readableIsoValue('2023-03-28T18:05:56Z')    // '2023-03-28 18:05 UTC'
 * readableIsoValue('2024-03-14T13:05:00+01:00') // '2024-03-14 13:05 +01:00'
 * readableIsoValue('PT1H43M20S')              // '1:43:20'
 * readableIsoValue('PT4M5S')                  // '4:05'
 */
export function readableIsoValue(value: string): string | undefined {
  const s = value.trim();
  const dt = DATE_TIME.exec(s);
  if (dt) {
    const zone = dt[3];
    return `${dt[1]} ${dt[2]}${!zone ? '' : zone.toUpperCase() === 'Z' ? ' UTC' : ` ${zone}`}`;
  }
  const d = DURATION.exec(s);
  if (d && s.length > 2 && (d[2] || d[3] || d[4])) {
    const seconds = Number(d[1] ?? 0) * 86_400 + Number(d[2] ?? 0) * 3600 + Number(d[3] ?? 0) * 60 + Number((d[4] ?? '0').replace(',', '.'));
    return formatClock(seconds);
  }
  return undefined;
}
