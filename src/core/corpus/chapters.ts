/**
 * Chapters of a video from its description ("0:00 Intro", "5:31 Quién es Pep – 12:10"): the
 * entity index lists them, and the extractive engine uses them as sections.
 */
import { parseClock } from '../text/clock';

/** A chapter: where it starts (seconds) and its title. */
export interface Chapter {
  startS: number;
  title: string;
}

/** Chapters of a YouTube description: lines starting (or ending) with a clock, at least two, the first at 0:00. */
export function parseChapters(description: string): Chapter[] {
  const out: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const m = /^\s*[-•*]?\s*\(?(\d{1,2}(?::\d{2}){1,2})\)?\s*[-–—:|]?\s*(.+?)\s*$/u.exec(line) ?? /^\s*(?<t>.+?)\s*[-–—:|]?\s*\(?(\d{1,2}(?::\d{2}){1,2})\)?\s*$/u.exec(line);
    if (!m) continue;
    const [clock, title] = /^\d/.test(m[1]!) ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
    if (!title || /^\d{1,2}(?::\d{2}){1,2}$/.test(title)) continue;
    out.push({ startS: parseClock(clock), title });
  }
  if (out.length < 2) return [];
  out.sort((a, b) => a.startS - b.startS);
  return out;
}
