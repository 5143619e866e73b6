/**
 * The extractive engine's transcript pass (issue 11): clean marker texts over exact spans,
 * markers spread over the whole item (every section gets some), about `density` markers per
 * 1,000 words, every kind present where the text has it, topics that are never fillers or
 * numbers. The meeting is generated here, with QMSum-style annotations and fillers.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { generateMarkers } from '../../src/core/markers/generate';
import { topicCandidates } from '../../src/core/markers/keyphrases';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { assertNearLinear } from '../support/scaling';
import { rng, runCli } from '../support/testing';

const TOPICS: Record<string, string[]> = {
  battery: 'battery charge range winter heater kilometres charger cells voltage temperature'.split(' '),
  coffee: 'coffee harvest freight brazil price arabica roast beans export weather'.split(' '),
  office: 'office rent remote hybrid commute desk city lease employee contract'.split(' '),
};
const FILLERS = ['{disfmarker}', '{vocalsound}', 'um ,', 'uh ,', 'eh'];

/** A meeting of three topic sections, each about `turns` turns, with annotations, fillers, numbers and opinions. */
function meeting(turns: number, seed = 1): { turns: { speaker: string; text: string }[] } {
  const r = rng(seed);
  const out: { speaker: string; text: string }[] = [];
  for (const [topic, vocab] of Object.entries(TOPICS)) {
    for (let i = 0; i < turns; i++) {
      const w = (): string => vocab[Math.floor(r() * vocab.length)]!;
      const filler = (): string => (r() < 0.4 ? ` ${FILLERS[Math.floor(r() * FILLERS.length)]} ` : ' ');
      const kind = i % 5;
      let text: string;
      if (kind === 0) text = `The ${w()} ${w()}${filler()}went up by ${10 + i} percent in the last ${2 + (i % 4)} months for the ${topic} ${w()}.`;
      else if (kind === 1) text = `I think the ${w()}${filler()}is really important for the ${w()} and we should look at the ${w()} again.`;
      else text = `So the ${w()} and the ${w()}${filler()}depend on the ${w()} of the ${topic} ${w()} and the ${w()} ${w()}.`;
      out.push({ speaker: ['Project Manager', 'Marketing', 'Industrial Designer'][i % 3]!, text });
    }
  }
  return { turns: out };
}

let work: string;
let corpus: Corpus;

describe('extractive transcript markers', () => {
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-extractive-'));
    const dir = path.join(work, 'meetings');
    await mkdir(path.join(dir, 'm1'), { recursive: true });
    await writeFile(path.join(dir, 'm1', 'transcript.json'), JSON.stringify({ title: 'Design meeting', ...meeting(120) }));
    corpus = await loadCorpus(dir);
    const r = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    assert.equal(r.failed, 0);
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('marker texts are clean; each evidence span is exact and starts and ends on content', async () => {
    const r = await readItemMarkers(corpus.root, 'm1');
    assert.ok(r.ok);
    const item = corpus.items[0]!;
    const ms = allMarkers(r.value);
    assert.ok(ms.length > 5);
    for (const m of ms) {
      assert.doesNotMatch(m.text, /\{\w+\}|(?:^|\s)(?:um|uh|eh)(?:\s|,|$)|\s,/, m.text);
      const ev = m.evidence[0]!;
      const span = item.transcript!.text.slice(ev.start, ev.end);
      assert.equal(ev.quote, span, 'the quote is the exact span');
      assert.doesNotMatch(span, /^(?:\{|\s|um\b|uh\b|eh\b|,)|(?:\}|\s|,)$/, `span edges: ${JSON.stringify(span)}`);
    }
  });

  test('markers spread over the whole item: every topic section has some; about 3 per 1,000 words; every kind', async () => {
    const r = await readItemMarkers(corpus.root, 'm1');
    assert.ok(r.ok);
    const t = corpus.items[0]!.transcript!;
    const ms = allMarkers(r.value);
    const third = t.text.length / 3;
    const bySection = [0, 1, 2].map((k) => ms.filter((m) => m.evidence[0]!.start >= k * third && m.evidence[0]!.start < (k + 1) * third).length);
    for (const n of bySection) assert.ok(n >= 3, `markers per section: ${JSON.stringify(bySection)}`);
    const density = (ms.length * 1000) / t.wordCount;
    assert.ok(density >= 2 && density <= 4, `density ${density.toFixed(2)} per 1,000 words (${ms.length} markers, ${t.wordCount} words)`);
    assert.deepEqual(new Set(ms.map((m) => m.kind)), new Set(['FACT', 'OPINION', 'DATA']));
    for (const m of ms.filter((x) => x.kind === 'DATA')) assert.match(m.text, /percent|\d/, m.text);
    for (const m of ms.filter((x) => x.kind === 'OPINION')) assert.match(m.text, /I think|should|important/, m.text);
    assert.ok(new Set(ms.map((m) => m.confidence)).size > 1, 'confidence varies (never 1.00 for all)');
  });

  test('topics are keyphrases, never fillers, annotations or numbers', async () => {
    const r = await readItemMarkers(corpus.root, 'm1');
    assert.ok(r.ok);
    const topics = [...r.value.transcript_summary!.topic_areas, ...allMarkers(r.value).map((m) => m.topic)];
    for (const tp of topics) assert.doesNotMatch(tp, /disfmarker|vocalsound|^(?:um|uh|eh|percent|point|one|two|\d+)$|^(.)\1+$/, tp);
  });

  test('density is configurable (CLI --density), and a new density regenerates cached markers', async () => {
    const count = async (): Promise<number> => {
      const r = await readItemMarkers(corpus.root, 'm1');
      assert.ok(r.ok);
      return allMarkers(r.value).length;
    };
    const base = await count();
    const low = await runCli(['markers', corpus.root, '--density', '1', '--json']);
    assert.equal(low.code, 0, low.err);
    const fewer = await count();
    const high = await runCli(['markers', corpus.root, '--density', '6', '--json']);
    assert.equal(high.code, 0, high.err);
    const more = await count();
    assert.ok(fewer < base && base < more, `density 1: ${fewer}, 3: ${base}, 6: ${more}`);
    const bad = await runCli(['markers', corpus.root, '--density', '50']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--density/);
  });

  test('topic candidates of a long Chinese text take linear time (20,000 against 80,000 characters)', async () => {
    const base = '我们今天讨论电动车冬季续航的问题，零下十度的时候电池掉电很快，大家觉得应该怎么办？';
    const text = (n: number): string => base.repeat(Math.ceil(n / base.length)).slice(0, n);
    const c = topicCandidates(text(80_000));
    assert.ok(c.includes('电池') && c.includes('续航'), c.slice(0, 10).join(' '));
    await assertNearLinear({ name: 'topicCandidates (Chinese)', n: 20_000, prepare: text, run: (t: string) => topicCandidates(t) });
  });
});

describe('extractive comment markers and the cache', () => {
  test('a template repeated under other videos re-judges a cached item: its spam verdict is part of the cache key', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-spamcache-'));
    try {
      const T = 'This is the most beautiful thing I have heard in my entire life honestly';
      const line = (id: string, author: string, text: string): string => JSON.stringify({ comment_id: id, author, text, likes: 3 });
      const write = async (item: string, lines: string[]): Promise<void> => {
        await mkdir(path.join(dir, item), { recursive: true });
        await writeFile(path.join(dir, item, 'meta.json'), JSON.stringify({ title: item }));
        await writeFile(path.join(dir, item, 'comments.jsonl'), `${lines.join('\n')}\n`);
      };
      const ordinary = (p: string): string[] => [
        line(`${p}1`, `${p}-ann`, 'The drummer in the second half is fantastic and the mix is clean.'),
        line(`${p}2`, `${p}-bob`, 'I saw them live in 2019 and the crowd sang every word of this one.'),
        line(`${p}3`, `${p}-cy`, 'The bridge reminds me of their first album, slower but heavier.'),
      ];
      await write('a', [...ordinary('a'), line('a-t', 'dora', T)]);
      await write('b', ordinary('b'));
      await write('c', ordinary('c'));
      const first = await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
      assert.equal(first.failed, 0);
      const before = await readItemMarkers(dir, 'a');
      assert.ok(before.ok);
      assert.ok(!(before.value.comments_summary?.spam?.comment_ids ?? []).includes('a-t'), 'one comment alone is not spam');
      // The same comment now appears under two more videos, by other accounts: a campaign.
      await write('b', [...ordinary('b'), line('b-t', 'ed', T)]);
      await write('c', [...ordinary('c'), line('c-t', 'flo', T)]);
      const second = await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
      assert.equal(second.items.find((i) => i.itemId === 'a')?.status, 'generated', 'item a is judged again though its own file did not change');
      const after = await readItemMarkers(dir, 'a');
      assert.ok(after.ok);
      assert.ok(after.value.comments_summary?.spam?.comment_ids.includes('a-t'), JSON.stringify(after.value.comments_summary?.spam));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
