import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { outcomeFails, renderSummary, statusOf, type BenchOutcome } from '../../bench/all';
import {
  BenchError, BenchReport, copyCorpus, coverageFromCounts, duplicateShare, lineCandidates, markWindowLines, requireCorpus, splitBenchFlags, synthesisFindings,
} from '../../bench/benchSupport';

describe('bench targets and exit codes', () => {
  test('a missed target exits 1 unless --report-only; a failure always exits 1', () => {
    const r = new BenchReport('x');
    assert.equal(r.check('a ≥ 1', true, '2'), '2 ✓');
    assert.equal(r.exitCode(false), 0);
    assert.equal(r.check('b ≤ 1', false, '3'), '3 ✗');
    assert.equal(r.exitCode(false), 1);
    assert.equal(r.exitCode(true), 0);
    r.fail('corpus qmsum-dev not found at /nowhere/qmsum-dev');
    assert.equal(r.exitCode(true), 1);
    const lines = r.lines().join('\n');
    assert.match(lines, /1\/2 met; 1 failure/);
    assert.match(lines, /✗ b ≤ 1: 3/);
    assert.match(lines, /FAILED: corpus qmsum-dev not found at \/nowhere\/qmsum-dev/);
  });

  test('shared flags are split off', () => {
    assert.deepEqual(splitBenchFlags(['--quick', '--report-only', '--strict']), { reportOnly: true, rest: ['--quick'] });
    assert.deepEqual(splitBenchFlags(['--no-strict']), { reportOnly: true, rest: [] });
    assert.deepEqual(splitBenchFlags([]), { reportOnly: false, rest: [] });
  });

  test('the all-bench summary fails on a crash, a missing summary or a non-zero exit', () => {
    const ok: BenchOutcome = { name: 'a', code: 0, signal: null, timedOut: false, ms: 1000, summary: { bench: 'a', targets: [{ label: 't', value: '1', ok: true }], failures: [], notes: [], exitCode: 0 } };
    const missed: BenchOutcome = { ...ok, name: 'b', code: 1, summary: { ...ok.summary!, bench: 'b', targets: [{ label: 'p95 ≤ 50 ms', value: '61', ok: false }], exitCode: 1 } };
    const crashed: BenchOutcome = { name: 'c', code: 1, signal: null, timedOut: false, ms: 10 };
    assert.equal(statusOf(ok), 'ok');
    assert.equal(statusOf(missed), 'targets missed');
    assert.match(statusOf(crashed), /crashed/);
    assert.deepEqual([ok, missed, crashed].map(outcomeFails), [false, true, true]);
    const md = renderSummary([ok, missed, crashed]);
    assert.match(md, /✗ p95 ≤ 50 ms: 61/);
    assert.match(md, /✓ \[a\] t: 1/);
  });
});

describe('bench corpora', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bench-targets-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a missing corpus is an error naming its path', async () => {
    await assert.rejects(requireCorpus('qmsum-dev', path.join(dir, 'none')), (e: Error) => e instanceof BenchError && e.message.includes(path.join(dir, 'none', 'qmsum-dev')));
    await assert.rejects(copyCorpus(path.join(dir, 'none'), path.join(dir, 'copy')), BenchError);
  });

  test('copying leaves .marker-research behind and keeps nested folders', async () => {
    const src = path.join(dir, 'src');
    await mkdir(path.join(src, 'a', 'b', 'c'), { recursive: true });
    await mkdir(path.join(src, '.marker-research'), { recursive: true });
    await writeFile(path.join(src, 'a', 'b', 'c', 'transcript.txt'), 'hello');
    await writeFile(path.join(src, '.marker-research', 'x.json'), '{}');
    const dst = await copyCorpus(src, path.join(dir, 'dst'));
    assert.deepEqual(await readdir(dst), ['a']);
    assert.deepEqual(await readdir(path.join(dst, 'a', 'b', 'c')), ['transcript.txt']);
  });
});

describe('independent measures', () => {
  test('duplicates by the bench rule: exact, near-identical, contained; distinct ones are not', () => {
    const d = duplicateShare([
      'The team chose a rubber case for the remote control.',
      'the team chose a rubber case for the remote control',
      'They decided the budget was twelve euros and fifty cents per unit.',
      'Overall, they decided the budget was twelve euros and fifty cents per unit, after some debate about the cost.',
      'Marketing presented the trend report on fancy looks.',
    ]);
    assert.equal(d.duplicates, 2);
    assert.equal(d.rate, 2 / 5);
    assert.equal(duplicateShare(['电池价格下降了三成', '电池价格下降了三成。', '评论者喜欢这个节目']).duplicates, 1);
    assert.equal(duplicateShare([]).rate, 0);
  });

  test('findings are read back from a synthesis prompt', () => {
    const prompt = ['## Step s1 [phase: early]: Goal', '- The budget is 12.50 [S1][S3] (confidence 0.7)', '- A [bracketed] word stays [S2] (confidence 1)', '', 'Not a finding'].join('\n');
    assert.deepEqual(synthesisFindings(prompt), ['The budget is 12.50', 'A [bracketed] word stays']);
  });

  test('labels are stripped, long ones too; an empty turn has nothing to find', () => {
    assert.ok(lineCandidates('Hon. Mary Ng (Minister of Small Business, Export Promotion and International Trade): Mr. Chair, yes.').includes('Mr. Chair, yes.'));
    assert.ok(lineCandidates('[c42 likes=3] great: really', 'comments').includes('great: really'));
    assert.deepEqual(lineCandidates('Hon. Bill Morneau: '), []);
    assert.deepEqual(lineCandidates('Orejudo min:', 'comments'), ['Orejudo min:']);
  });

  test('window coverage: overlap counts twice, a dropped window leaves a gap', () => {
    const turns = ['Alpha says the first thing here.', 'Beta answers with a second line.', 'Alpha adds a third remark now.', 'Beta closes with the fourth one.'];
    const text = turns.join('\n');
    const w1 = ['A: Alpha says the first thing here.', 'B: Beta answers with a second line.'];
    const w2 = ['B: Beta answers with a second line.', 'A: Alpha adds a third remark now.'];
    const w3 = ['B: Beta closes with the fourth one.'];
    const full = new Uint8Array(text.length);
    for (const w of [w1, w2, w3]) assert.equal(markWindowLines(text, w, full), 0);
    const cov = coverageFromCounts(text, full);
    assert.equal(cov.covered, cov.chars);
    assert.ok(cov.sent > cov.covered);
    const gap = new Uint8Array(text.length);
    for (const w of [w1, w3]) markWindowLines(text, w, gap);
    const g = coverageFromCounts(text, gap);
    assert.ok(g.covered < g.chars);
    assert.equal(text.slice(g.firstGap![0], g.firstGap![1]).trim(), 'Alpha adds a third remark now.');
    assert.equal(markWindowLines(text, ['Z: not in this text at all'], new Uint8Array(text.length)), 1);
  });
});
