import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { webviewToHostSchema } from '../../src/shared/webviewProtocol';

describe('webview → host messages are parsed, not trusted', () => {
  test('accepts the declared messages', () => {
    assert.ok(webviewToHostSchema.safeParse({ type: 'ready' }).success);
    assert.ok(webviewToHostSchema.safeParse({ type: 'openItem', itemId: 'x', part: 'comments' }).success);
  });
  test('rejects unknown types and malformed fields', () => {
    for (const bad of [null, 'ready', { type: 'eval', code: '1' }, { type: 'openItem', itemId: 3, part: 'transcript' }, { type: 'openItem', itemId: 'x', part: '../etc' }, { type: 'openProblem', index: -1 }]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
