/**
 * Generated corpora for the marker-cache tests: items composed from parts with a seeded generator —
 * transcripts (plain text with speaker labels, or JSON turns), comment threads (JSONL, with spam
 * templates repeated across items, repeated and empty comment ids, replies), meta files or none.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { rng } from './testing';

/** Which parts the items have: one kind for all, or `any` (each item picks). */
export type CorpusShape = 'comments' | 'transcript' | 'mixed' | 'any';

const SUBJECTS = ['The bridge', 'Our battery', 'The new policy', 'This recipe', 'The city council', 'The camera', 'Remote work', 'The river'];
const VERBS = ['costs', 'saves', 'adds', 'carries', 'loses', 'needs', 'produces', 'replaces'];
const OBJECTS = ['dollars a month', 'cars a day', 'percent of the budget', 'hours a week', 'kilometres of range', 'tonnes of coffee'];
const OPINIONS = ['I think it is beautiful', 'honestly this is a mistake', 'I love how simple it is', 'in my opinion the design is too expensive', 'I really doubt the numbers'];
const SPAM = ['check out my channel please subscribe', 'Subscribe to my new channel for music!!', 'visit www.free-gifts.example for free gifts', 'I make covers, check out my channel'];
const REACTIONS = ['great video', 'the part at the end was the best', 'not my favourite but ok', 'thanks for the numbers', 'who else is watching this in winter'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function sentence(r: () => number, i: number): string {
  return r() < 0.35 ? `${pick(r, OPINIONS)}.` : `${pick(r, SUBJECTS)} ${pick(r, VERBS)} ${1 + Math.floor(r() * 900) + i} ${pick(r, OBJECTS)}.`;
}

function transcriptFile(r: () => number, n: number): { name: string; text: string } {
  const turns = Array.from({ length: n }, (_, i) => ({ speaker: pick(r, ['Host', 'Guest', 'Engineer']), text: `${sentence(r, i)} ${sentence(r, i + 1)}`, start: i * 7 }));
  if (r() < 0.5) return { name: 'transcript.txt', text: `${turns.map((t) => `${t.speaker}: ${t.text}`).join('\n')}\n` };
  return { name: 'transcript.json', text: `${JSON.stringify({ turns: turns.map((t) => ({ ...t, end: t.start + 6 })) }, null, 1)}\n` };
}

function commentsFile(r: () => number, n: number, item: number): string {
  const lines: string[] = [];
  for (let j = 0; j < n; j++) {
    const spam = r() < 0.3;
    const text = spam ? pick(r, SPAM) : r() < 0.5 ? `${pick(r, REACTIONS)}, ${sentence(r, j)}` : pick(r, REACTIONS);
    // Ids as real exports have them: mostly unique, sometimes repeated, sometimes absent.
    const roll = r();
    const id = roll < 0.12 ? `dup${item}` : roll < 0.18 ? '' : `i${item}c${j}`;
    const parent = j > 0 && r() < 0.2 ? `i${item}c${Math.floor(r() * j)}` : null;
    lines.push(JSON.stringify({ comment_id: id, author: `user${Math.floor(r() * 50)}`, text, likes: Math.floor(r() * 40), parent_id: parent }));
  }
  return `${lines.join('\n')}\n`;
}

/** What {@link writeGeneratedCorpus} wrote: the item folders' names and the parts each has. */
export interface GeneratedItem {
  name: string;
  transcript: boolean;
  comments: boolean;
}

/**
 * Writes `items` generated items under `dir` (each in its own folder) and returns what it wrote.
 * The same seed gives the same files.
 */
export async function writeGeneratedCorpus(dir: string, options: { items: number; seed: number; shape: CorpusShape; turns?: [number, number]; comments?: [number, number] }): Promise<GeneratedItem[]> {
  const r = rng(options.seed);
  const [tMin, tMax] = options.turns ?? [3, 20];
  const [cMin, cMax] = options.comments ?? [2, 25];
  const out: GeneratedItem[] = [];
  for (let i = 0; i < options.items; i++) {
    const shape = options.shape === 'any' ? pick(r, ['comments', 'transcript', 'mixed'] as const) : options.shape;
    const name = `item-${options.seed}-${i}`;
    const folder = path.join(dir, name);
    await mkdir(folder, { recursive: true });
    const transcript = shape !== 'comments';
    const comments = shape !== 'transcript';
    if (transcript) {
      const t = transcriptFile(r, tMin + Math.floor(r() * (tMax - tMin + 1)));
      await writeFile(path.join(folder, t.name), t.text);
    }
    if (comments) await writeFile(path.join(folder, 'comments.jsonl'), commentsFile(r, cMin + Math.floor(r() * (cMax - cMin + 1)), i));
    if (r() < 0.6) await writeFile(path.join(folder, 'meta.json'), JSON.stringify({ title: `${pick(r, SUBJECTS)} ${i}`, ...(r() < 0.5 ? { video_id: `vid${String(i).padStart(8, '0')}` } : {}) }));
    out.push({ name, transcript, comments });
  }
  return out;
}
