import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseComments } from '../../src/core/corpus/commentParsers';
import { decodeText } from '../../src/core/corpus/decode';
import { loadCorpus } from '../../src/core/corpus/loader';
import { mapSpanInPart } from '../../src/core/corpus/spans';
import { parseTranscript } from '../../src/core/corpus/transcriptParsers';
import type { CommentsFormat, TranscriptFormat } from '../../src/core/corpus/types';
import { rng } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');


async function demoFiles(): Promise<{ rel: string; bytes: Buffer }[]> {
  const out: { rel: string; bytes: Buffer }[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push({ rel: path.relative(DEMO, p), bytes: await readFile(p) });
    }
  };
  await walk(DEMO);
  return out;
}

/** Mutations: truncation, random byte flips, random bytes, insertion of structural characters. */
function mutate(bytes: Buffer, random: () => number): Buffer {
  const kind = Math.floor(random() * 4);
  const b = Buffer.from(bytes);
  if (kind === 0) return b.subarray(0, Math.floor(random() * b.length));
  if (kind === 1) {
    for (let k = 0; k < 1 + Math.floor(random() * 20); k++) b[Math.floor(random() * b.length)] = Math.floor(random() * 256);
    return b;
  }
  if (kind === 2) return Buffer.from(Array.from({ length: Math.floor(random() * 400) }, () => Math.floor(random() * 256)));
  const chars = ['"', '{', '}', '[', ']', ',', '\n', '-->', '\\', '<', '&', '\r\n', '\u0000'];
  const at = Math.floor(random() * b.length);
  return Buffer.concat([b.subarray(0, at), Buffer.from(chars[Math.floor(random() * chars.length)]!), b.subarray(at)]);
}

const TRANSCRIPT: TranscriptFormat[] = ['json', 'txt', 'md', 'srt', 'vtt'];
const COMMENTS: CommentsFormat[] = ['jsonl', 'json', 'csv'];

describe('parsers never throw on random or truncated input', () => {
  test('every parser, every demo file, 150 mutations each', async () => {
    const random = rng(7);
    const files = await demoFiles();
    let runs = 0;
    for (const f of files) {
      for (let k = 0; k < 150; k++) {
        const text = decodeText(mutate(f.bytes, random)).text;
        for (const fmt of TRANSCRIPT) {
          const r = parseTranscript(text, fmt, f.rel);
          for (const s of r.segments) assert.equal(typeof s.text, 'string');
          runs++;
        }
        for (const fmt of COMMENTS) {
          const r = parseComments(text, fmt, f.rel);
          for (const p of r.problems) assert.equal(p.file, f.rel);
          runs++;
        }
      }
    }
    assert.ok(runs > 10000, `${runs} parser runs`);
  });

  test('a corpus of mutated files loads without throwing, and spans still map', async () => {
    const random = rng(11);
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-fuzz-'));
    try {
      for (let round = 0; round < 5; round++) {
        const root = path.join(dir, `r${round}`);
        for (const f of await demoFiles()) {
          await mkdir(path.dirname(path.join(root, f.rel)), { recursive: true });
          await writeFile(path.join(root, f.rel), random() < 0.5 ? mutate(f.bytes, random) : f.bytes);
        }
        const c = await loadCorpus(root);
        assert.ok(Array.isArray(c.problems));
        for (const it of c.items) {
          for (const part of [it.transcript, it.comments]) {
            if (!part || !part.text.length) continue;
            const a = Math.floor(random() * part.text.length);
            const src = mapSpanInPart(part, a, Math.min(part.text.length, a + 50));
            if (src) assert.ok(src.range.startLine <= src.range.endLine);
          }
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a huge single line is read, not dropped', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-huge-'));
    try {
      const line = 'word '.repeat(400_000).trim();
      await writeFile(path.join(dir, 'big.transcript.txt'), line);
      const c = await loadCorpus(dir);
      assert.equal(c.items[0]!.transcript!.wordCount, 400_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
