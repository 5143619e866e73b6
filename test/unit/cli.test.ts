import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { RESEARCH_USAGE } from '../../src/cli/researchCommand';
import { readRun } from '../../src/core/research/runStore';
import { defaultResponder, startFakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';

const ROOT = path.join(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'samples', 'demo-corpus');

describe('marker-research CLI', () => {
  test('index --json reports items, words, comments and problems', async () => {
    const r = await runCli(['index', DEMO, '--json']);
    assert.equal(r.code, 0);
    const j = JSON.parse(r.out) as { stats: { items: number; comments: number; words: number }; problems: { file: string }[]; items: { id: string; title: string }[] };
    assert.equal(j.stats.items, 5);
    assert.equal(j.stats.comments, 20);
    assert.ok(j.stats.words > 700);
    assert.ok(j.problems.some((p) => p.file === 'food-vlog-broken/transcript.json'));
    assert.match(r.err, /food-vlog-broken\/transcript\.json:6:5: error/);
  });

  test('index prints a table with CJK titles', async () => {
    const r = await runCli(['index', DEMO]);
    assert.equal(r.code, 0);
    assert.match(r.out, /电动车冬季续航实测/);
    assert.match(r.out, /5 items, \d+ words, 20 comments/);
  });

  test('usage errors exit 2, a missing folder exits 1', async () => {
    assert.equal((await runCli([])).code, 2);
    assert.equal((await runCli(['frobnicate'])).code, 2);
    assert.equal((await runCli(['index'])).code, 2);
    const missing = await runCli(['index', path.join(DEMO, 'no-such-folder')]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /does not exist/);
  });

  test('the bin entry runs the bundled CLI', { skip: !existsSync(path.join(ROOT, 'dist', 'cli.js')) && 'dist/cli.js not built' }, () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'marker-research.js'), 'index', DEMO, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).stats.items, 5);
  });
});

describe('marker-research search and eval', () => {
  test('search --json returns hits mapped to original files, and persists the index', async () => {
    const { mkdtemp, cp, rm, stat } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-cli-search-'));
    try {
      await cp(DEMO, dir, { recursive: true });
      const r = await runCli(['search', dir, '掉电 热泵', '--k', '3', '--part', 'transcript', '--json']);
      assert.equal(r.code, 0, r.err);
      const hits = JSON.parse(r.out) as { itemId: string; source: { file: { relPath: string }; range: { startLine: number } } }[];
      assert.equal(hits[0]!.itemId, 'ev-winter-range');
      assert.equal(hits[0]!.source.file.relPath, 'ev-winter-range/transcript.json');
      assert.ok((await stat(path.join(dir, '.marker-research', 'index', 'manifest.json'))).isFile());
      const second = await runCli(['search', dir, 'bakery', '--part', 'comments']);
      assert.match(second.err, /index loaded/);
      assert.match(second.out, /city-cycling-podcast\/comments\.jsonl:2:/);
      const passages = await runCli(['search', dir, 'cyclist injuries', '--budget-words', '80', '--json']);
      assert.ok((JSON.parse(passages.out) as { words: number }[]).reduce((a, p) => a + p.words, 0) <= 80);
      assert.equal((await runCli(['search', dir, 'x', '--item', 'nope'])).code, 2);
      assert.equal((await runCli(['search', dir, 'x', '--part', 'video'])).code, 2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('eval retrieval reads queries.jsonl and reports the agreed keys', async () => {
    const { mkdtemp, cp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-cli-eval-'));
    try {
      await cp(DEMO, dir, { recursive: true });
      await writeFile(path.join(dir, 'queries.jsonl'), `${JSON.stringify({ item_id: 'ev-winter-range', query: '热泵 续航', relevant_turn_ranges: [[4, 5]] })}\nnot json\n`);
      const r = await runCli(['eval', 'retrieval', dir, '--scope', 'corpus', '--json']);
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out) as Record<string, number | string>;
      for (const k of ['queries', 'hit_at_5', 'recall_at_budget', 'p50_ms', 'p95_ms', 'index_ms', 'persisted_load_ms', 'reindex_one_item_ms', 'peak_rss_mb']) assert.ok(k in j, k);
      assert.equal(j['queries'], 1);
      assert.equal(j['hit_at_5'], 1);
      assert.match(r.err, /queries\.jsonl:2:/);
      await rm(path.join(dir, 'queries.jsonl'));
      const noGold = await runCli(['eval', 'retrieval', dir, '--json']);
      assert.equal(JSON.parse(noGold.out).mode, 'known-item');
      assert.equal((await runCli(['eval', 'precision', dir])).code, 2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('marker-research markers', () => {
  test('extractive markers for every item, all grounded; a second run is all cached', async () => {
    const { mkdtemp, cp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-cli-markers-'));
    try {
      await cp(DEMO, dir, { recursive: true, filter: (p) => !p.includes('.marker-research') });
      const r = await runCli(['markers', dir, '--json']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /food-vlog-broken\/transcript\.json:6:5: error/);
      const j = JSON.parse(r.out) as { engine: string; generated: number; items: { markers: number; grounded: number }[] };
      assert.equal(j.engine, 'extractive');
      assert.equal(j.generated, 5);
      for (const i of j.items) {
        assert.ok(i.markers > 0);
        assert.equal(i.grounded, i.markers);
      }
      const again = JSON.parse((await runCli(['markers', dir, '--json'])).out) as { cached: number };
      assert.equal(again.cached, 5);
      assert.equal((await runCli(['markers', dir, '--provider', 'openai'])).code, 2, 'a model provider needs --model');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('marker-research research: every research setting of the extension', () => {
  test('--max-followups, --max-items-per-turn, --context-window-limit, --overview-max-items, --concurrency and --timeout reach the run', async () => {
    const { mkdtemp, cp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-cli-research-config-'));
    const server = await startFakeModelServer();
    try {
      await cp(DEMO, dir, { recursive: true, filter: (p) => !p.includes('.marker-research') });
      const items = ['ev-winter-range', 'city-cycling-podcast', 'coffee-market-report', 'remote-work-panel'];
      const plan = {
        goal: 'How do the speakers measure what they claim?',
        complexity: 'light',
        steps: [{ step_id: 's1', goal: 'How are claims measured?', required_content_items: items, required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' }],
      };
      await writeFile(path.join(dir, 'plan.json'), JSON.stringify(plan));
      // Every step reply asks for more of all four items and is never done: the limits decide.
      server.setResponder((req) => {
        if (!req.messages.some((m) => m.content.includes('**Step s1:'))) return defaultResponder(req);
        return JSON.stringify({ findings: [], insights: [], confidence: 0.5, done: false, requests: items.map((id) => ({ type: 'selective_markers', item_id: id, kinds: ['FACT', 'OPINION', 'DATA'] })) });
      });
      const args = [
        'research', dir, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model', '--plan', path.join(dir, 'plan.json'),
        '--max-followups', '2', '--max-items-per-turn', '2', '--context-window-limit', '5321', '--overview-max-items', '1', '--concurrency', '3', '--timeout', '30', '--json',
      ];
      const r = await runCli(args);
      assert.ok(r.code === 0 || r.code === 1, r.err);
      const j = JSON.parse(r.out) as { runId: string };
      const steps = server.chatRequests().filter((q) => q.messages?.some((m) => m.content.includes('**Step s1:')));
      assert.ok(steps.length > 0, 'the step ran with the model');
      const prompt = steps[0]!.messages!.map((m) => m.content).join('\n');
      assert.match(prompt, /At most 2 items are served per round/, '--max-items-per-turn reaches the step prompt');
      assert.match(prompt, /context budget of about 5321 tokens/, '--context-window-limit reaches the step prompt');
      assert.match(prompt, /at most 3 rounds/, '--max-followups 2 = 3 rounds');
      assert.match(prompt, /Left out as less relevant \(3\)/, '--overview-max-items 1 leaves 3 of 4 items out of the overview');
      // The model asked for more every round: --max-followups 2 stops it after 3 rounds.
      assert.equal(steps.length, 3, 'three rounds of step s1');
      const stored = await readRun(dir, j.runId);
      assert.equal(stored.steps.get('s1')?.rounds, 3);
      // At most 2 items served per round; the rest deferred for the per-turn limit.
      const log = stored.requests.filter((e) => e.step_id === 's1');
      for (const round of [0, 1, 2]) {
        const served = new Set(log.filter((e) => e.round === round && e.status === 'served').flatMap((e) => e.served.map((s) => s.item_id)));
        assert.ok(served.size <= 2, `round ${round}: ${served.size} items served`);
      }
      assert.ok(log.some((e) => e.status === 'deferred' && /max_content_items_per_turn \(2\)/.test(e.reason ?? '')));
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('bad values are usage errors (exit 2) naming the flag; the help lists every flag with its range', async () => {
    const bad: [string, string][] = [
      ['--max-followups', '-1'], ['--max-followups', '21'], ['--max-followups', '1.5'], ['--max-followups', 'many'],
      ['--max-items-per-turn', '0'], ['--max-items-per-turn', '51'], ['--max-items-per-turn', ''],
      ['--context-window-limit', '199'], ['--context-window-limit', '2e3x'],
      ['--overview-max-items', '0'], ['--overview-max-items', '2.5'],
      ['--concurrency', '0'], ['--concurrency', '65'], ['--concurrency', '1.5'],
      ['--timeout', '0'], ['--timeout', 'soon'],
    ];
    // A corpus that does not exist: the options are checked first (exit 2), and nothing is ever written.
    const nowhere = path.join(DEMO, 'no-such-corpus');
    for (const [flag, value] of bad) {
      const r = await runCli(['research', nowhere, flag, value]);
      assert.equal(r.code, 2, `${flag} ${value}: exit ${r.code}, ${r.err}`);
      assert.ok(r.err.includes(flag), `${flag} ${value}: the error names the flag: ${r.err}`);
    }
    for (const flag of ['--max-followups', '--max-items-per-turn', '--context-window-limit', '--overview-max-items', '--concurrency', '--timeout']) assert.ok(RESEARCH_USAGE.includes(flag), flag);
    assert.match(RESEARCH_USAGE, /0–20 \(default 3\)/);
    assert.match(RESEARCH_USAGE, /1–50 \(default 3\)/);
    assert.match(RESEARCH_USAGE, /≥ 200 \(default 24000\)/);
    assert.match(RESEARCH_USAGE, /≥ 1 \(default 20\)/);
  });

  test('markers --window-limit and --concurrency: whole numbers in range, or exit 2 naming the flag', async () => {
    for (const [flag, value] of [['--window-limit', '-1'], ['--window-limit', '2.5'], ['--concurrency', '0'], ['--concurrency', '100']] as const) {
      const r = await runCli(['markers', path.join(DEMO, 'no-such-corpus'), flag, value]);
      assert.equal(r.code, 2, `${flag} ${value}: exit ${r.code}`);
      assert.ok(r.err.includes(flag), r.err);
    }
  });
});
