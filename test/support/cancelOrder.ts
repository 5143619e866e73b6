/**
 * "Cancel is prompt", asserted as an order of events rather than a time: the cancelled call
 * settled while the fake server still held its request open, and the server then saw the client
 * close that request (the abort reached it).
 *
 * @module
 */
import assert from 'node:assert/strict';
import type { FakeModelServer, RecordedRequest } from './fakeModelServer';

/**
 * Call right after a cancelled call settled (same continuation, no await in between). `held` is
 * a request the server holds open far longer than the test would wait: a `slow` fault of
 * `HOLD_OPEN_MS`, or a responder that waits. Fails when the server had already answered it —
 * the call waited for the server instead of cancelling — and when the request then ends any other
 * way than `clientClosed` (the abort never reached the server). The client's own request timeout
 * must be longer than the hold, or a cancel that waited could end by timing out and pass.
 *
 * @example
 * ```ts
 * server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS });
 * const pending = client.complete({ ...req, signal: controller.signal });
 * const held = await server.waitForRequest((r) => r.fault === 'slow');
 * controller.abort();
 * await assert.rejects(pending, CancelledError);
 * await assertSettledBeforeAnswer(server, held);
 * ```
 */
export async function assertSettledBeforeAnswer(server: FakeModelServer, held: RecordedRequest, what = 'the cancelled call'): Promise<void> {
  assert.notEqual(held.outcome, 'completed', `${what} settled only after the server answered request ${held.seq}: the cancel waited for the server`);
  const ended = await server.waitForRequest((r) => r.seq === held.seq && r.outcome !== 'pending');
  assert.equal(ended.outcome, 'clientClosed', `request ${held.seq} ended "${ended.outcome}": the abort did not reach the server`);
}
