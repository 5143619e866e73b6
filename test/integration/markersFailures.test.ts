/**
 * A markers run whose model calls all fail says so: the failed calls are counted (never "0 model
 * calls" after a storm of failures), through the real openai client against the fake server.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
let server: FakeModelServer;
let dir: string;

before(async () => {
  server = await startFakeModelServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'mr-markers-fail-'));
  await cp(DEMO, dir, { recursive: true });
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('every call failing: the summary counts the failed calls and the command fails', async () => {
  server.injectFault({ kind: 'status', status: 500, times: Number.POSITIVE_INFINITY, message: 'boom' });
  const r = await runCli(['markers', dir, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model', '--timeout', '5']);
  assert.notEqual(r.code, 0, 'a run with every item failed is not a success');
  const summary = `${r.out}\n${r.err}`;
  assert.match(summary, /0 model calls succeeded, \d+ failed after their retries/);
  assert.doesNotMatch(summary, /500 500/);
});
