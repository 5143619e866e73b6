/**
 * The date of an item, from its metadata: `published_at` (the loader's name for it), else the
 * first of a few other names metadata files use for it. Read as the calendar day it names —
 * ISO 8601 dates and date-times (the day as written, whatever the time zone), `2024/03/14`,
 * `2024.03.14`, `2024年3月14日`, `20240314` (yt-dlp's `upload_date`), and epoch seconds or
 * milliseconds (a UTC day). Anything else is no date: the item is listed apart, not dropped.
 */
import type { ItemMeta } from '../corpus/types';

/** Metadata fields that hold an item's date, in the order they are tried. */
export const DATE_FIELDS = ['published_at', 'publishedAt', 'published', 'upload_date', 'date', 'recorded_at', 'created_at'] as const;

/** An item's date: the day (`YYYY-MM-DD`, null when the value does not read as one) and the value as written (null when no field has one). */
export interface ItemDate {
  day: string | null;
  raw: string | null;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `YYYY-MM-DD` of a valid year, month and day; undefined for `2024-02-30` and the like. */
function validDay(y: number, m: number, d: number): string | undefined {
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return undefined;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? `${pad(y, 4)}-${pad(m)}-${pad(d)}` : undefined;
}

/** The UTC day of an epoch time (seconds, or milliseconds from 1e11 on). */
function epochDay(n: number): string | undefined {
  const ms = Math.abs(n) >= 1e11 ? n : n * 1000;
  const t = new Date(ms);
  return Number.isNaN(t.getTime()) ? undefined : validDay(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/**
 * The calendar day `value` names, `YYYY-MM-DD`, or undefined.
 *
 * @example
 * readDay('2023-03-28T18:05:56Z') // '2023-03-28'
 * readDay('20230328') // '2023-03-28'
 * readDay('2023年3月28日') // '2023-03-28'
 * readDay('last spring') // undefined
 */
export function readDay(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // 20240314 as a number is yt-dlp's upload_date, not a time in August 1970.
    if (Number.isInteger(value) && value >= 1e7 && value < 1e8) return readDay(String(value));
    return epochDay(value);
  }
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const ymd = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:$|[T\s])/u.exec(s);
  if (ymd) return validDay(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (compact) return validDay(Number(compact[1]), Number(compact[2]), Number(compact[3]));
  if (/^\d{9,13}$/.test(s)) return epochDay(Number(s));
  return undefined;
}

/** The date of an item from its metadata ({@link DATE_FIELDS}, the first field with a value). */
export function itemDate(meta: ItemMeta): ItemDate {
  for (const field of DATE_FIELDS) {
    const v = meta[field];
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) continue;
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    return { day: readDay(v) ?? null, raw: String(v).trim() };
  }
  return { day: null, raw: null };
}
