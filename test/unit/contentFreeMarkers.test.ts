/**
 * Content-free units are never shown as content (issue 21): on generated meeting transcripts in
 * English, Spanish and Chinese (simplified and traditional) salted with backchannel turns
 * ("Yeah.", "Sí, claro.", "对对对"), filler runs and annotations, and with long turns of hedges
 * around at most two content words ("So I mean, like, I think, sort of, budget, you know…"), no
 * extractive marker rests on a content-free sentence; and an offline (extractive) research run
 * over such a corpus reports no content-free finding. Judged by the product's predicate (strict:
 * a marker or finding stands alone) and by the measure the issue sets: at least 3 words outside
 * stopwords-iso of the language.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import stopwordsIso from 'stopwords-iso';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { generateMarkers } from '../../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import { isContentFree } from '../../src/core/text/contentFree';
import { CaseGenerator, langOf, type Lang, type Script } from '../support/contentFreeCases';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const iso: Readonly<Record<string, readonly string[]>> = stopwordsIso;
const zhWords = new Intl.Segmenter('zh', { granularity: 'word' });

/** The measure, independent of the product: words outside stopwords-iso of the language (annotations out). */
function isoContentWords(text: string, lang: Lang): number {
  const stop = new Set(iso[lang]!.map((w) => w.toLowerCase()));
  const t = text.replace(/\{[^}]*\}|\[[^\]]*\]|\((?:risas|laughter)\)|（[^）]*）/giu, ' ').toLowerCase();
  const ws = /\p{Script=Han}/u.test(t) ? [...zhWords.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment) : (t.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []);
  return ws.filter((w) => /\d/.test(w) || !stop.has(w)).length;
}

/** A meeting of `turns` turns: content turns, backchannel turns and hedge turns in about equal parts, three speakers. */
function meeting(script: Script, turns: number, seed: number): { title: string; turns: { speaker: string; text: string }[] } {
  const g = new CaseGenerator(seed);
  const out: { speaker: string; text: string }[] = [];
  for (let i = 0; i < turns; i++) {
    const r = i % 3;
    const text = r === 0 ? `${g.content(script)} ${g.content(script)}` : r === 1 ? g.contentFree(script) : g.hedgeTalk(script, i % 2 === 0 ? 2 : 1, 8);
    out.push({ speaker: ['Project Manager', 'Marketing', 'Industrial Designer'][g.int(0, 2)]!, text });
  }
  return { title: `Meeting (${script})`, turns: out };
}

const CASES: readonly { script: Script; seed: number }[] = [
  { script: 'en', seed: 3 },
  { script: 'es', seed: 5 },
  { script: 'zh-Hans', seed: 7 },
  { script: 'zh-Hant', seed: 9 },
];

let work: string;
let corpus: Corpus;

describe('content-free units in markers and offline research', () => {
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-content-free-'));
    const dir = path.join(work, 'meetings');
    for (const c of CASES) {
      await mkdir(path.join(dir, c.script), { recursive: true });
      await writeFile(path.join(dir, c.script, 'transcript.json'), JSON.stringify(meeting(c.script, 600, c.seed)));
    }
    corpus = await loadCorpus(dir);
    const r = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    assert.equal(r.failed, 0);
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  for (const c of CASES) {
    test(`${c.script}: no marker rests on a backchannel, filler run, annotation or hedge talk`, async () => {
      const item = corpus.items.find((i) => i.id === c.script)!;
      const r = await readItemMarkers(corpus.root, item.id);
      assert.ok(r.ok);
      const markers = allMarkers(r.value);
      assert.ok(markers.length >= 10, `${markers.length} markers`);
      const lang = langOf(c.script);
      const bad = markers.filter((m) => {
        const span = item.transcript!.text.slice(m.evidence[0]!.start, m.evidence[0]!.end);
        return isContentFree(m.text, lang, { strict: true }) || isContentFree(span, lang, { strict: true }) || isoContentWords(m.text, lang) < 3;
      });
      assert.deepEqual(bad.map((m) => m.text), []);
    });
  }

  test('an offline research run reports no content-free finding (markers, passages and whole items read)', async () => {
    const goals = ['What was said about the budget, the contract and the prices?', '关于预算、合同和价格说了什么？', '¿Qué se dijo sobre el presupuesto, el contrato y el precio?'];
    let findings = 0;
    const bad: string[] = [];
    for (const goal of goals) {
      for (const complexity of ['light', 'medium'] as const) {
        const res = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal, complexity });
        const run = await readRun(corpus.root, res.runId);
        for (const step of run.steps.values()) {
          for (const f of step.findings) {
            findings++;
            const src = step.sources.find((s) => f.source_ids.includes(s.source_id));
            const lang: Lang = src?.item_id === 'es' ? 'es' : src?.item_id?.startsWith('zh') ? 'zh' : 'en';
            if (isContentFree(f.text, lang, { strict: true }) || isoContentWords(f.text, lang) < 3) bad.push(`${goal} ${complexity} ${f.finding_id}: ${f.text}`);
          }
        }
      }
    }
    assert.ok(findings >= 10, `${findings} findings`);
    assert.deepEqual(bad, []);
  });
});
