/**
 * The engine's V8 flags (src/shared/engineProcess.ts) are flags this Node takes: a process started
 * with them runs, and its young generation may grow past the default (the flag took effect).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { ENGINE_EXEC_ARGV } from '../../src/shared/engineProcess';

/** Largest new-space size a process reaches while it makes short-lived garbage (bounded loop). */
const PROBE = `
const v8 = require('node:v8');
let most = 0;
// A window of recent objects stays alive, as a parse's objects do until its item is built: the young generation grows.
const ring = new Array(400000);
for (let round = 0; round < 60; round++) {
  for (let i = 0; i < 100000; i++) ring[(round * 100000 + i) % ring.length] = { i, s: 'x' + i };
  const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
  most = Math.max(most, s ? s.space_size : 0);
}
process.stdout.write(String(most));
`;

function newSpace(flags: readonly string[]): number {
  const r = spawnSync(process.execPath, [...flags, '-e', PROBE], { encoding: 'utf8' });
  assert.equal(r.status, 0, `node ${flags.join(' ')} ran: ${r.stderr}`);
  return Number(r.stdout);
}

test('the engine\'s flags are taken by this Node and give a larger young generation than the default', () => {
  assert.ok(ENGINE_EXEC_ARGV.length > 0);
  const withFlags = newSpace(ENGINE_EXEC_ARGV);
  const without = newSpace([]);
  assert.ok(withFlags > without, `new space with the flags ${withFlags} bytes, without ${without}`);
});
