/**
 * The index files' checksum (src/core/search/bodyChecksum.ts): a small body is
 * hashed whole (any changed byte changes it), a large one by sample — a
 * change in a sampled block, in the last block or in the length changes it, a
 * change between the samples does not (what the readers' structural checks
 * are left to catch) — and the same bytes split into parts any way give the
 * same checksum; the salt makes two saves of equal bytes differ.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BLOCK, bodyChecksum, newSalt, SAMPLES } from '../../src/core/search/bodyChecksum';

function body(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) b[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return b;
}

/** `b` cut into parts at generated places (empty parts included). */
function split(b: Uint8Array, seed: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let at = 0;
  let x = seed;
  while (at < b.length) {
    x = (Math.imul(x, 69069) + 1) >>> 0;
    const n = x % 5 === 0 ? 0 : 1 + (x % (3 * BLOCK));
    parts.push(b.subarray(at, Math.min(b.length, at + n)));
    at += n;
  }
  return parts;
}

describe('body checksum', () => {
  test('a small body: every changed byte changes the checksum; parts do not matter', () => {
    const b = body(50_000, 1);
    const sum = bodyChecksum([b], 's');
    assert.equal(bodyChecksum(split(b, 3), 's'), sum);
    for (let i = 0; i < 40; i++) {
      const at = Math.floor((i / 40) * b.length);
      const d = Uint8Array.from(b);
      d[at]! ^= 1;
      assert.notEqual(bodyChecksum([d], 's'), sum, `byte ${at}`);
    }
    assert.notEqual(bodyChecksum([b.subarray(0, b.length - 1)], 's'), sum);
    assert.notEqual(bodyChecksum([b], 't'), sum, 'the salt counts');
    assert.notEqual(newSalt(), newSalt());
  });

  test('a large body (threshold lowered): sampled blocks, the last block and the length count, bytes between samples do not', () => {
    const wholeUpTo = 1 << 20;
    for (const [n, seed] of [[SAMPLES * BLOCK * 3 + 12_345, 2], [wholeUpTo + 1, 3], [SAMPLES * BLOCK + 7, 4]] as const) {
      const b = body(n, seed);
      const sum = bodyChecksum([b], 's', wholeUpTo);
      for (const s of [5, 11, 17]) assert.equal(bodyChecksum(split(b, s), 's', wholeUpTo), sum, `${n} bytes in parts (${s})`);
      const stride = Math.floor((n - BLOCK) / (SAMPLES - 1));
      const flipped = (at: number): string => {
        const d = Uint8Array.from(b);
        d[at]! ^= 0x10;
        return bodyChecksum([d], 's', wholeUpTo);
      };
      for (const at of [0, BLOCK - 1, stride, stride * 7 + 100, stride * (SAMPLES - 1), n - 1, n - BLOCK]) assert.notEqual(flipped(at), sum, `${n} bytes: byte ${at} is sampled`);
      // Between two samples (when the stride leaves a gap): not seen.
      if (stride > BLOCK) assert.equal(flipped(BLOCK + Math.floor((stride - BLOCK) / 2)), sum, `${n} bytes: a byte between samples`);
      assert.notEqual(bodyChecksum([b.subarray(0, n - 1)], 's', wholeUpTo), sum, `${n} bytes: one byte shorter`);
    }
  });
});
