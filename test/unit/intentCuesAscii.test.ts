/**
 * The Latin cues of an intent list are not looked for in a folded text without a letter a–z (a
 * Chinese question): exact, because every Latin cue holds such a letter once folded and no folded
 * character but a–z matches one case-insensitively. Checked over every code point, over every cue
 * list, and over generated questions (the matches equal those found with the expression run).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as cues from '../../src/core/ask/intentCues';
import { rng as seeded } from '../support/testing';

const LISTS = Object.entries(cues).filter((e): e is [string, cues.CueList] => typeof e[1] === 'object' && e[1] !== null && 'latin' in e[1] && 'cjk' in e[1]);

test('the cue lists are found (the checks below run over all of them)', () => {
  assert.ok(LISTS.length >= 15, `${LISTS.length} lists`);
});

test('every Latin cue holds a letter a–z once folded, so a folded text without one cannot match it', () => {
  for (const [name, list] of LISTS) for (const c of list.latin) assert.match(cues.fold(c), /[a-z]/, `${name}: ${c}`);
});

test('no code point folds to a text without a–z that still matches a–z case-insensitively (Kelvin sign, long s and the like fold to ASCII)', () => {
  const ci = /[a-z]/iu;
  let checked = 0;
  let folding = 0;
  for (let cp = 0; cp <= 0x2ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const f = cues.fold(String.fromCodePoint(cp));
    checked++;
    if (/[a-z]/.test(f)) {
      if (!/[a-zA-Z]/.test(String.fromCodePoint(cp))) folding++;
      continue;
    }
    assert.ok(!ci.test(f), `U+${cp.toString(16)} folds to ${JSON.stringify(f)}, which matches a–z case-insensitively`);
  }
  assert.ok(checked > 190_000);
  // Characters that only fold to ASCII letters (É, ｆ, 𝐚, ⓐ, K, ſ …) are many: the fold, not the expression, makes them a–z.
  assert.ok(folding > 1_000, `${folding}`);
});

/** Pieces of questions: Chinese and other scripts without a–z, Latin cues, and characters that fold to a–z. */
function pieces(): string[] {
  const out = ['这些视频里', '关于', '电池价格', '的讨论', '有哪些', '？', '。', '，', ' ', '  ', '\n', '12', '３０分钟', 'Ωμέγα', 'Привет', 'שלום', 'مرحبا', '😀', '🔥', '—', '…', '¿', '¡', '«', '»'];
  for (const [, list] of LISTS) {
    out.push(...list.cjk.slice(0, 6));
    out.push(...list.latin.slice(0, 6).map((c) => c.replace(/\*$/, 'ing')));
  }
  // Capitals, accents, full-width, mathematical and circled letters, the Kelvin sign and the long s: all fold to a–z.
  out.push('SUMMARY', 'Résumé', 'ＳＵＭＭＡＲＹ', '𝐬𝐮𝐦𝐦𝐚𝐫𝐲', 'ⓢⓤⓜ', 'K', 'ſum up', 'Ｃｌｉｐ');
  return out;
}

test('generated questions: the matches with the guard equal those found with the expression run, for every list', () => {
  const rng = seeded(2026);
  const parts = pieces();
  let skipped = 0;
  for (let n = 0; n < 4_000; n++) {
    let q = '';
    const k = 1 + Math.floor(rng() * 6);
    for (let i = 0; i < k; i++) q += parts[Math.floor(rng() * parts.length)]!;
    const folded = cues.fold(q);
    // The same question with an ASCII word after a space: the expression runs, and the word adds no match inside the question.
    const forced = `${q} zzqx`;
    const forcedFolded = cues.fold(forced);
    if (!/[a-z]/.test(folded)) skipped++;
    for (const [name, list] of LISTS) {
      const got = cues.cueMatchesIn(q, folded, list);
      const want = cues.cueMatchesIn(forced, forcedFolded, list).filter((m) => m.range[1] <= Math.max(q.length, folded.length));
      assert.deepEqual(got, want, `${name}: ${JSON.stringify(q)}`);
      assert.equal(cues.cueIn(q, folded, list), want.length > 0, `${name}: ${JSON.stringify(q)}`);
    }
  }
  assert.ok(skipped > 200, `${skipped} questions without a–z`);
});
