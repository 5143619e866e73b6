/**
 * The engine's running work (src/server/work.ts): what background work (the Ask warm-up) waits
 * for and listens to. `whenIdle` resolves only once no work has run for the quiet time, false when
 * cancelled; `onDidStart` tells of each start; `cancelAll` aborts what runs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { RunningWork } from '../../src/server/work';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('RunningWork: idle and started work', () => {
  test('whenIdle waits for the work that runs, then for the quiet time after it', async () => {
    const running = new RunningWork();
    const source = new CancellationTokenSource();
    assert.equal(await running.whenIdle(0, source.token), true, 'no work yet: idle at once');
    const release = deferred();
    const work = running.run(undefined, () => release.promise);
    assert.equal(running.size, 1);
    assert.equal(running.idleFor(), 0);
    let workOver = false;
    let overWhenIdle: boolean | undefined;
    const idle = running.whenIdle(60, source.token, 5).then((v) => {
      overWhenIdle = workOver;
      return v;
    });
    // Several polls pass while the work runs.
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(overWhenIdle, undefined, 'idle while work ran');
    release.resolve();
    await work;
    workOver = true;
    assert.equal(await idle, true);
    assert.equal(overWhenIdle, true);
    assert.ok(running.idleFor() >= 60, `idle for ${running.idleFor()} ms`);
  });

  test('whenIdle is false once its token is cancelled, while work still runs', async () => {
    const running = new RunningWork();
    const source = new CancellationTokenSource();
    const release = deferred();
    const work = running.run(undefined, () => release.promise);
    const idle = running.whenIdle(10, source.token, 5);
    source.cancel();
    assert.equal(await idle, false);
    release.resolve();
    await work;
  });

  test('onDidStart tells of every start, with the work counted; disposed, it tells no more', async () => {
    const running = new RunningWork();
    const sizes: number[] = [];
    const sub = running.onDidStart(() => sizes.push(running.size));
    await running.run(undefined, async () => {
      await running.run(undefined, async () => undefined);
    });
    sub.dispose();
    await running.run(undefined, async () => undefined);
    assert.deepEqual(sizes, [1, 2]);
    assert.equal(running.size, 0);
  });

  test('cancelAll aborts the signals of the work that runs', async () => {
    const running = new RunningWork();
    const started = deferred();
    const work = running.run(undefined, (signal) => {
      started.resolve();
      return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('aborted')));
    });
    await started.promise;
    assert.equal(running.cancelAll(), 1);
    assert.equal(await work, 'aborted');
  });
});
