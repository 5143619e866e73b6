import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { main } from '../../src/cli/main';

const ROOT = path.join(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'samples', 'demo-corpus');

async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d: Buffer) => (o += d.toString()));
  err.on('data', (d: Buffer) => (e += d.toString()));
  const code = await main(args, out, err);
  return { code, out: o, err: e };
}

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
