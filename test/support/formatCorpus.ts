/**
 * A generated corpus with items of every transcript and comments format, composed with a seeded
 * generator: transcript.json with and without times (and one whose first turns have no start),
 * .srt, .vtt, .txt with speaker labels and with timestamps, comments.jsonl alone and beside a
 * transcript (some comments empty, some replies), folder and flat layouts, meta files, and a turn
 * long enough to be cut at sentence ends. Every item's text uses a small shared vocabulary, so a
 * query such as "battery winter range" finds hits in every item.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { rng } from './testing';

const WORDS = ['battery', 'winter', 'range', 'charging', 'price', 'city', 'lane', 'coffee', 'harvest', 'panel', 'survey', 'office', 'river', 'bridge', 'budget', 'policy', 'camera', 'recipe'];
const SPEAKERS = ['Host', 'Guest', 'Engineer', 'Maya'];

type Rand = () => number;

function pick<T>(r: Rand, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function sentence(r: Rand): string {
  const n = 5 + Math.floor(r() * 9);
  const words = Array.from({ length: n }, () => pick(r, WORDS));
  return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
}

function turnText(r: Rand, long: boolean): string {
  return Array.from({ length: long ? 60 : 1 + Math.floor(r() * 4) }, () => sentence(r)).join(' ');
}

function clock(s: number, sep: ',' | '.'): string {
  const p = (n: number, w = 2): string => String(Math.floor(n)).padStart(w, '0');
  return `${p(s / 3600)}:${p((s / 60) % 60)}:${p(s % 60)}${sep}${p((s % 1) * 1000, 3)}`;
}

/** The kinds of item {@link writeFormatCorpus} writes. */
export type ItemFormat = 'json-timed' | 'json-untimed' | 'json-partly-timed' | 'srt' | 'vtt' | 'txt-labels' | 'txt-timestamps' | 'comments-only';

/** Every kind whose turns are all timed or all untimed (a `json-partly-timed` item's first turns have no start). */
export const ALL_FORMATS: readonly ItemFormat[] = ['json-timed', 'json-untimed', 'srt', 'vtt', 'txt-labels', 'txt-timestamps', 'comments-only'];

/** The transcript file of an item of `format`: its extension and content. */
function transcript(r: Rand, format: Exclude<ItemFormat, 'comments-only'>, turns: number, longAt: number): { ext: string; text: string } {
  const ts = Array.from({ length: turns }, (_, i) => ({ speaker: pick(r, SPEAKERS), text: turnText(r, i === longAt), start: i * 9.5, end: i * 9.5 + 9 }));
  switch (format) {
    case 'json-timed':
      return { ext: 'json', text: `${JSON.stringify({ turns: ts }, null, 1)}\n` };
    case 'json-untimed':
      return { ext: 'json', text: `${JSON.stringify({ segments: ts.map((t) => ({ speaker: t.speaker, text: t.text })) }, null, 1)}\n` };
    case 'json-partly-timed':
      // Some turns without a start (the first ones among them), some without an end.
      return { ext: 'json', text: `${JSON.stringify({ turns: ts.map((t, i) => ({ speaker: t.speaker, text: t.text, ...(i % 3 === 0 ? {} : { start: t.start }), ...(i % 4 === 1 ? {} : { end: t.end }) })) }, null, 1)}\n` };
    case 'srt':
      return { ext: 'srt', text: ts.map((t, i) => `${i + 1}\n${clock(t.start, ',')} --> ${clock(t.end, ',')}\n${t.text}\n`).join('\n') };
    case 'vtt':
      return { ext: 'vtt', text: `WEBVTT\n\n${ts.map((t) => `${clock(t.start, '.')} --> ${clock(t.end, '.')}\n<v ${t.speaker}>${t.text}\n`).join('\n')}` };
    case 'txt-labels':
      return { ext: 'txt', text: `${ts.map((t) => `${t.speaker}: ${t.text}`).join('\n')}\n` };
    case 'txt-timestamps':
      return { ext: 'txt', text: `${ts.map((t) => `[${clock(t.start, '.').slice(0, 8)}] ${t.speaker}: ${t.text}`).join('\n')}\n` };
  }
}

function comments(r: Rand, n: number, item: number): string {
  const lines = Array.from({ length: n }, (_, j) => {
    const text = r() < 0.1 ? '' : turnText(r, false);
    return JSON.stringify({ comment_id: `i${item}c${j}`, author: `viewer${Math.floor(r() * 20)}`, text, likes: Math.floor(r() * 50), parent_id: j > 0 && r() < 0.2 ? `i${item}c0` : null });
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `perFormat` items (default 3) of each of `formats` under `dir`, ids `<format>-<k>`: the
 * second of each kind in the flat layout (`<id>.transcript.srt`) without comments, the third with a
 * meta file, the first with a turn of 60 sentences. The same seed gives the same files.
 * @returns every file written (absolute paths)
 */
export async function writeFormatCorpus(dir: string, options: { seed: number; formats: readonly ItemFormat[]; perFormat?: number }): Promise<string[]> {
  const r = rng(options.seed);
  const files: string[] = [];
  const put = async (rel: string, text: string): Promise<void> => {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    files.push(file);
  };
  let n = 0;
  for (const format of options.formats) {
    for (let k = 0; k < (options.perFormat ?? 3); k++, n++) {
      const id = `${format}-${k}`;
      const at = (part: string): string => (k === 1 ? `${id}.${part}` : `${id}/${part}`);
      if (format !== 'comments-only') {
        const t = transcript(r, format, 8 + Math.floor(r() * 30), k === 0 ? 3 : -1);
        await put(at(`transcript.${t.ext}`), t.text);
      }
      if (format === 'comments-only' || k !== 1) await put(at('comments.jsonl'), comments(r, 3 + Math.floor(r() * 10), n));
      if (k === 2) await put(at('meta.json'), `${JSON.stringify({ title: `Item ${n}: ${format}`, source: 'test' })}\n`);
    }
  }
  return files;
}
