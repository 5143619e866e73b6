/**
 * The fake model server's count of requests in flight (what the concurrency checks of the
 * integration tests assert instead of speed-ups in seconds): `inFlight`, `maxInFlight`,
 * `waitForInFlight` and the responder gate built on them, with generated numbers of concurrent
 * requests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultResponder, inFlightGate, startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { rng } from '../support/testing';

function chat(server: FakeModelServer, content: string): Promise<Response> {
  return fetch(`${server.openaiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content }] }),
  });
}

describe('fake model server: requests in flight', () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer({ responderTimeoutMs: 120_000 });
  });
  after(() => server.close());

  test('a gate of k holds the first requests until k are in flight: maxInFlight is k, generated k and request counts', async () => {
    const random = rng(0x8f11);
    for (let round = 0; round < 12; round++) {
      const k = 1 + Math.floor(random() * 6);
      const n = k + Math.floor(random() * 6);
      server.reset();
      assert.equal(server.maxInFlight, 0);
      const gate = inFlightGate(server, k);
      server.setResponder(async (req) => {
        await gate();
        return defaultResponder(req);
      });
      // k requests at once, the rest one after another once the gate has opened.
      const first = await Promise.all(Array.from({ length: k }, (_, i) => chat(server, `first ${i}`).then((r) => r.json() as Promise<unknown>)));
      assert.equal(first.length, k);
      for (let i = k; i < n; i++) assert.equal((await chat(server, `then ${i}`)).status, 200);
      assert.equal(server.maxInFlight, k, `round ${round}: ${k} at once, then ${n - k} one by one`);
      assert.equal(server.chatRequests().length, n);
      assert.ok(server.chatRequests().every((r) => r.outcome === 'completed'));
      await server.waitForRequest(() => server.inFlight === 0);
    }
  });

  test('reset starts the count again from the requests still in flight; waitForInFlight fails naming the most seen', async () => {
    server.reset();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.setResponder(async (req) => {
      await released;
      return defaultResponder(req);
    });
    const pending = [chat(server, 'a'), chat(server, 'b')];
    await server.waitForInFlight(2);
    assert.equal(server.inFlight, 2);
    server.reset();
    assert.equal(server.maxInFlight, 2, 'the two held requests still count after a reset');
    await assert.rejects(server.waitForInFlight(3, 20), /never 3 requests in flight at once within 20 ms \(at most 2\)/);
    release();
    for (const r of await Promise.all(pending)) assert.equal(r.status, 200);
  });
});
