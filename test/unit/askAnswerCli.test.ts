/**
 * `marker-research ask` shows the extractive answer (issue 22): `--json` gains `answer` (each
 * sentence with its citation); the readable form prints an `answer:` block above the hits — each
 * sentence with ` [n]`, then where each [n] is (title — location — file:line) — and each hit
 * quotes its focus, not the first characters of its window. Generated meetings in English,
 * Spanish and Chinese written as transcript files.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AnswerCitation } from '../../src/core/ask/answer';
import { ANSWER_LANGS, answerCorpus, type AnswerLang } from '../support/answerCorpus';
import { runCli } from '../support/testing';

const ASK: Record<AnswerLang, (t: string) => string> = {
  en: (t) => `What was said about the ${t}?`,
  es: (t) => `¿Qué se dijo sobre el ${t}?`,
  zh: (t) => `关于${t}说了什么？`,
};

interface JsonHit {
  rank: number;
  start: number;
  end: number;
  text: string;
  focus: { start: number; end: number };
}

describe('ask prints the extractive answer', () => {
  let dir: string;
  const cases: { lang: AnswerLang; id: string; topic: string; turns: string[] }[] = [];
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mr-ask-answer-'));
    for (const lang of ANSWER_LANGS) {
      for (const seed of [4, 9]) {
        const g = answerCorpus(lang, seed);
        const t = g.corpus.items.find((i) => i.id === g.meetingId)!.transcript!;
        const id = `${lang}-meeting-${seed}`;
        await mkdir(path.join(dir, id), { recursive: true });
        await writeFile(path.join(dir, id, 'transcript.json'), JSON.stringify({ turns: t.segments.map((s) => ({ speaker: s.speaker, text: s.text, start: s.start, end: s.end })) }, null, 1));
        await writeFile(path.join(dir, id, 'meta.json'), JSON.stringify({ title: `Meeting ${id}` }));
        cases.push({ lang, id, topic: g.topic, turns: t.segments.map((s) => s.text) });
      }
    }
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('--json: answer sentences with their citations, each the exact text of its turn', async () => {
    for (const c of cases) {
      const r = await runCli(['ask', dir, ASK[c.lang](c.topic), '--item', c.id, '--json']);
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out) as { answer: { text: string; citation: AnswerCitation }[]; hits: JsonHit[] };
      assert.ok(j.answer.length >= 2 && j.answer.length <= 6, `${c.id}: ${j.answer.length} sentences`);
      for (const s of j.answer) {
        assert.equal(s.citation.itemId, c.id);
        assert.equal(s.citation.title, `Meeting ${c.id}`);
        assert.ok(s.citation.source && s.citation.source.file.relPath.endsWith('transcript.json'), `${c.id}: source of «${s.text}»`);
        assert.ok(c.turns.some((turn) => turn.replace(/\s+/g, ' ').includes(s.text)), `${c.id}: «${s.text}» is no turn's text`);
        assert.ok(s.citation.location.length > 0 && s.citation.speaker, `${c.id}: location and speaker of «${s.text}»`);
      }
      assert.ok(j.answer.some((s) => s.text.includes(c.topic)), `${c.id}: no sentence about ${c.topic}`);
    }
  });

  test('readable form: the answer block above the hits, [n] after each sentence, one place line per [n]; each hit quotes its focus', async () => {
    for (const c of cases) {
      const question = ASK[c.lang](c.topic);
      const [readable, json] = await Promise.all([runCli(['ask', dir, question, '--item', c.id]), runCli(['ask', dir, question, '--item', c.id, '--json'])]);
      assert.equal(readable.code, 0, readable.err);
      const j = JSON.parse(json.out) as { answer: { text: string; citation: AnswerCitation }[]; hits: JsonHit[] };
      const lines = readable.out.split('\n');
      const at = lines.indexOf('answer:');
      const firstHit = lines.findIndex((l) => /^1\. /.test(l));
      assert.ok(at > 0 && firstHit > at, `${c.id}: the answer block is not above the hits:\n${readable.out}`);
      j.answer.forEach((s, i) => {
        assert.equal(lines[at + 1 + i], `  ${s.text} [${i + 1}]`);
        const place = lines[at + 1 + j.answer.length + i]!;
        assert.ok(place.startsWith(`  [${i + 1}] Meeting ${c.id} — ${s.citation.location} — `) && /transcript\.json:\d+$/.test(place), `${c.id}: «${place}»`);
      });
      // Each hit's quote is its focus (the sentences that answer), cut at 200 characters.
      for (const h of j.hits) {
        const focus = h.text.slice(h.focus.start - h.start, h.focus.end - h.start).replace(/\s+/g, ' ').trim();
        const line = lines[lines.findIndex((l) => l.startsWith(`${h.rank}. `)) + 1]!;
        assert.equal(line, `   ${focus.slice(0, 200)}${focus.length > 200 ? '…' : ''}`, `${c.id}: hit ${h.rank}`);
      }
    }
  });
});
