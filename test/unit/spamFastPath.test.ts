/**
 * The spam detector's fast path decides exactly as the per-string one did. Each comment is read
 * once (readForSpam) for its cues, its template words and the model; the model hashes its
 * features as it makes them (spamFeatureHashes.ts) instead of writing them out (spamFeatures, the
 * definition, kept as the reference here); normalisation skips a step whose hint is absent;
 * near-duplicate grouping keeps exact buckets with numeric keys and meets a repeated text once; the
 * corpus decision (corpusSpam) reads one item's comments at a time and keeps only what it needs.
 *
 * Compared on composed comments (test/support/spamCases.ts: genuine and spam × disguises × links,
 * emoji, numbers, letters beyond the BMP, blank and over-long texts, features whose hashes collide),
 * the demo corpus and, when present, the dev corpora of labelled spam and Spanish comments.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { CommentRecord, CommentsPart, CorpusItem } from '../../src/core/corpus/types';
import { nearDuplicateGroups } from '../../src/core/markers/nearDuplicates';
import { detectSpam, scoreComment, spamInputOf, type SpamInput } from '../../src/core/markers/spam';
import { featureKey, featureWords, spamFeatures } from '../../src/core/markers/spamFeatures';
import { corpusSpam } from '../../src/core/markers/spamFree';
import { shippedSpamModel, SpamModel, type SpamModelScore } from '../../src/core/markers/spamModel';
import { CJK, linksOf, normaliseForSpam, readForSpam, scanned, SPAM_TEXT_HINTS, URL_RE, WORD_RUN } from '../../src/core/markers/spamText';
import { mulberry32 } from '../../src/core/util/seededRandom';
import { spamCaseCorpus, spamCaseTexts } from '../support/spamCases';

const ROOT = path.join(__dirname, '..', '..');
const CORPORA = process.env['MARKER_RESEARCH_CORPORA'] || path.join(ROOT, '..', 'shared', 'corpora');
/** Dev corpora read when present: labelled English spam, Spanish podcast comments. */
const DEV_CORPORA = ['yt-spam-en-dev', 'yt-podcast-es-dev'];

/** Comment texts of a corpus folder, or none when it is absent. */
async function folderTexts(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const corpus = await loadCorpus(dir);
  return corpus.items.flatMap((i) => i.comments?.comments.map((c) => c.text) ?? []);
}

let texts: string[] | undefined;
/** Every text compared: the composed cases (two seeds), the demo corpus, the dev corpora present. */
async function allTexts(): Promise<string[]> {
  if (texts) return texts;
  const found = [...spamCaseTexts(7), ...spamCaseTexts(8), ...(await folderTexts(path.join(ROOT, 'samples', 'demo-corpus')))];
  for (const name of DEV_CORPORA) found.push(...(await folderTexts(path.join(CORPORA, name))));
  return (texts = found);
}

/** The model's score as it was computed before the fast path: over spamFeatures' map, weights looked up by key. */
const weightsOf = new WeakMap<SpamModel, Map<string, number>>();
function referenceScore(model: SpamModel, text: string): SpamModelScore {
  let weights = weightsOf.get(model);
  if (!weights) weightsOf.set(model, (weights = new Map(Object.entries(model.data.weights))));
  const features = spamFeatures(text);
  let z = model.data.bias;
  let known = 0;
  for (const [f, v] of features) {
    const w = weights.get(f);
    if (w === undefined) continue;
    z += w * v;
    known++;
  }
  return { logOdds: z, known: features.size ? known / features.size : 0 };
}

/** Feature texts whose FNV-1a hashes are equal (found by search): two words, a word and a 3-gram, a word and a 4-gram. */
const COLLISIONS: readonly (readonly [string, string])[] = [
  ['w:tpebuu', 'w:gvzcvo'],
  ['w:sfreii', 'c:ava'],
  ['w:zpfuge', 'c:xvwj'],
];

describe('spam fast path: the model', () => {
  test('the collisions are real: one hash, two features, each counted (1/√n over the distinct texts)', () => {
    for (const [a, b] of COLLISIONS) assert.equal(featureKey(a), featureKey(b), `${a} / ${b}`);
    // 'tpebuu gvzcvo': the two words share a key, so the map has one entry fewer than the features it values.
    const f = spamFeatures('tpebuu gvzcvo');
    const value = [...f.values()][0]!;
    assert.notEqual(value, 1 / Math.sqrt(f.size));
    assert.equal(value, 1 / Math.sqrt(f.size + 1));
  });

  test('log-odds and known share are those of spamFeatures, to the last bit (shipped weights, and weights on colliding features)', async () => {
    const shipped = shippedSpamModel();
    const weights = { ...shipped.data.weights };
    for (const [k, [a]] of COLLISIONS.entries()) weights[featureKey(a)] = [2.5, -1.25, 0.75][k]!;
    // Keys no feature has: a leading zero, capitals, beyond 32 bits.
    Object.assign(weights, { '0abc': 3, ABC: 3, zzzzzzzz: 3 });
    const colliding = new SpamModel({ ...shipped.data, weights });
    const all = await allTexts();
    // The composed cases and the demo corpus give 870 texts; the dev corpora add theirs when they are there (not in a clean clone).
    assert.ok(all.length >= 850, `${all.length} texts`);
    let differing = 0;
    for (const text of all) {
      for (const model of [shipped, colliding]) {
        const fast = model.score(text);
        const ref = referenceScore(model, text);
        if (fast.logOdds !== ref.logOdds || fast.known !== ref.known) {
          differing++;
          assert.deepEqual(fast, ref, JSON.stringify(text).slice(0, 200));
        }
      }
    }
    assert.equal(differing, 0);
    // The colliding weights were read: the comment with both words of a pair scores otherwise under them.
    assert.notEqual(colliding.score('tpebuu gvzcvo sfreii java').logOdds, shipped.score('tpebuu gvzcvo sfreii java').logOdds);
  });
});

describe('spam fast path: reading a comment once', () => {
  test('the reading is the per-string one: normalised text, links, text without links, words', async () => {
    for (const text of await allTexts()) {
      const r = readForSpam(text);
      const n = normaliseForSpam(scanned(text));
      assert.deepEqual(r.n, n);
      assert.equal(r.raw, scanned(text));
      assert.deepEqual(r.links, [...n.cased.matchAll(URL_RE)].map((m) => m[0].trim()));
      assert.deepEqual(r.links, linksOf(n.cased));
      assert.equal(r.bare, n.cased.replace(URL_RE, ' '));
      assert.deepEqual(r.words, n.text.replace(URL_RE, ' ').match(WORD_RUN) ?? []);
      if (!r.cjk) assert.ok(!r.words.some((w) => CJK.test(w)), text);
      assert.deepEqual(featureWords(r.words, r.cjk), featureWords(r.words));
    }
  });

  test('a step skipped for want of its hint would have found nothing: every text a pattern matches, its hint matches', async () => {
    const crafted = [
      'a\u200Bb',
      '\uFEFFx',
      'you[tube] chan(nel) sub{scribe}',
      'w w w . site . com',
      'W-W-W dot site',
      'site . com',
      'site(dot)com',
      'SITE DOT NET',
      'site [.] io',
      'FASTFANS.COM',
      'A.B.COM now',
      'SUBSCRIBEEEE',
      'ooo',
      '𐌰𐌰𐌰',
      'http://x',
      'www.Site',
      'bit.ly/x',
      'watch?v=abcdefghijk',
      'word.Es',
      'lo.es/x',
    ];
    const all = [...(await allTexts()), ...crafted];
    // The patterns meet intermediate texts too: read the normalised forms as well.
    const forms = all.flatMap((t) => {
      const n = normaliseForSpam(t);
      return [t, t.normalize('NFKC'), n.cased, n.text, ...(n.alternative ? [n.alternative] : [])];
    });
    for (const { hint, pattern } of SPAM_TEXT_HINTS) {
      const once = new RegExp(pattern.source, pattern.flags.replace('g', ''));
      let matched = 0;
      for (const t of forms) {
        if (!once.test(t)) continue;
        matched++;
        assert.ok(hint.test(t), `${pattern.source.slice(0, 60)} matches ${JSON.stringify(t).slice(0, 120)}, its hint does not`);
      }
      assert.ok(matched > 0, `no text matched ${pattern.source.slice(0, 60)}`);
    }
  });
});

/** The near-duplicate grouping as it was written before (string bucket keys, a signature per text, every copy signed): the reference. */
function referenceGroups(texts: readonly string[]): number[] {
  const HASHES = 24;
  const ROWS = 3;
  const fnv = (s: string): number => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  };
  const mix = (x: number, seed: number): number => {
    let h = (x ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  };
  const signature = (text: string): Uint32Array => {
    const sig = new Uint32Array(HASHES).fill(0xffffffff);
    const shingles = new Set<number>();
    if (text.length <= 5) shingles.add(fnv(text));
    else for (let i = 0; i + 5 <= text.length; i++) shingles.add(fnv(text.slice(i, i + 5)));
    for (const s of shingles)
      for (let k = 0; k < HASHES; k++) {
        const h = mix(s, k + 1);
        if (h < sig[k]!) sig[k] = h;
      }
    return sig;
  };
  const parent = texts.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const buckets = new Map<string, number>();
  const sigs: (Uint32Array | undefined)[] = [];
  texts.forEach((t, i) => {
    if (!t) return void sigs.push(undefined);
    const sig = signature(t);
    sigs.push(sig);
    for (let b = 0; b < HASHES / ROWS; b++) {
      const key = `${b}:${Array.prototype.join.call(sig.subarray(b * ROWS, (b + 1) * ROWS), ',')}`;
      const first = buckets.get(key);
      if (first === undefined) buckets.set(key, i);
      else {
        let same = 0;
        for (let k = 0; k < HASHES; k++) if (sig[k] === sigs[first]![k]) same++;
        if (same / HASHES >= 0.6) {
          const x = find(i);
          const y = find(first);
          if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
        }
      }
    }
  });
  return texts.map((_, i) => find(i));
}

describe('spam fast path: near duplicates', () => {
  test('groups are those of the reference MinHash, with copies, near copies, short and empty texts in any order', async () => {
    const r = mulberry32(3);
    const words = (await allTexts()).map((t) => (normaliseForSpam(t).text.match(WORD_RUN) ?? []).join(' '));
    const edit = (t: string): string => {
      const w = t.split(' ');
      if (w.length > 3) w.splice(Math.floor(r() * w.length), 1);
      return r() < 0.5 ? w.join(' ') : `${w.join(' ')} ${['ok', 'yes', 'lol'][Math.floor(r() * 3)]}`;
    };
    const base = words.slice(0, 1500);
    const lists = [
      base,
      [...base, ...base.slice(0, 300).map(edit), ...base.slice(0, 200), '', 'a', 'ab', 'abcde', 'abcdef', '', 'a'],
      [...base].sort(() => r() - 0.5).flatMap((t) => (r() < 0.2 ? [t, t] : r() < 0.1 ? [t, edit(t)] : [t])),
    ];
    for (const list of lists) assert.deepEqual(nearDuplicateGroups(list), referenceGroups(list));
  });
});

describe('spam fast path: the decision', () => {
  /**
   * sha-256 of the decisions on the composed corpus and of each case's own score, as the per-string
   * detector made them (commit f7fd656, before the fast path; SPAM_RULES_VERSION 1, model v1). A
   * change of the rules or the model changes it: bump SPAM_RULES_VERSION and record the new value.
   */
  const PINNED = 'f07f4a33d59cd998ed1f17296f8838a8f0f6418db3584e3a2a18258bbe162b93';

  test('decisions (ids, reasons, scores) and own scores on the composed corpus are the per-string detector’s', () => {
    const corpus = spamCaseCorpus();
    const spam = detectSpam(corpus);
    const decisions = [...spam].map(([k, d]) => [k, [...d.ids], [...d.reasons], [...d.scores]]);
    const own = spamCaseTexts().map((t) => scoreComment(t, { videoId: 'CevxZvSJLk8' }));
    const flagged = [...spam.values()].reduce((a, d) => a + d.ids.size, 0);
    const suspect = [...spam.values()].reduce((a, d) => a + d.scores.size, 0) - flagged;
    const comments = corpus.reduce((a, i) => a + i.comments.length, 0);
    // Every outcome is there: spam, suspect, nothing.
    assert.ok(flagged >= 100 && suspect >= 30 && comments - flagged - suspect >= 30, `${flagged} flagged, ${suspect} suspect of ${comments}`);
    assert.equal(createHash('sha256').update(JSON.stringify({ decisions, own })).digest('hex'), PINNED);
  });

  test('inputs given one at a time (a generator) are decided as an array of them', () => {
    const corpus = spamCaseCorpus(11);
    const one = function* (): Generator<SpamInput> {
      yield* corpus;
    };
    assert.deepEqual(detectSpam(one()), detectSpam(corpus));
  });

  test("corpusSpam on the demo corpus and the dev corpora is detectSpam over the items' inputs", async () => {
    for (const dir of [path.join(ROOT, 'samples', 'demo-corpus'), ...DEV_CORPORA.map((n) => path.join(CORPORA, n))]) {
      if (!existsSync(dir)) continue;
      const corpus = await loadCorpus(dir);
      assert.deepEqual(corpusSpam({ items: [...corpus.items] }), detectSpam(corpus.items.flatMap((i) => spamInputOf(i) ?? [])), dir);
    }
  });
});

describe('spam fast path: memory', () => {
  test("corpusSpam holds one item's parsed comments at a time, not the corpus's", () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const ITEMS = 24;
    const PER_ITEM = 150;
    // Comments of punctuation only: no words, no cue, so what is kept of them is next to nothing.
    const part = (k: number): CommentsPart => {
      const comments = Array.from({ length: PER_ITEM }, (_, i): CommentRecord => {
        const text = [`${k}:${i}`, ...Array.from({ length: 400 }, (_, j) => '?!.,;-'[(i + j) % 6]!.repeat(4))].join(' ');
        return { index: i, id: `m${k}-${i}`, text, offset: 0, source: { file: 'comments.jsonl', startLine: i, endLine: i } as unknown as CommentRecord['source'], pieces: [] };
      });
      return { kind: 'comments', file: { path: `/x/m${k}/comments.jsonl`, relPath: `m${k}/comments.jsonl` }, format: 'jsonl', comments, text: '', wordCount: 0, emptyCount: 0 };
    };
    const partBytes = PER_ITEM * 2000;
    let base = 0;
    let peak = 0;
    let parsed = 0;
    // An item parses its comments each time they are asked for (a part store that keeps none); before each parse, what is still held is measured.
    const items = Array.from({ length: ITEMS }, (_, k) => {
      const item = { id: `m${k}`, contentHash: `h${k}`, meta: {}, title: `m${k}` } as unknown as CorpusItem;
      Object.defineProperty(item, 'comments', {
        enumerable: true,
        get: () => {
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed - base);
          parsed++;
          return part(k);
        },
      });
      return item;
    });
    // Warm: the model and the cues' patterns are loaded before the baseline.
    detectSpam([{ itemId: 'warm', comments: [{ id: 'w', text: 'check out my channel https://bit.ly/x ?!' }] }]);
    gc();
    base = process.memoryUsage().heapUsed;
    const spam = corpusSpam({ items });
    assert.equal(spam.size, ITEMS);
    assert.ok(parsed >= ITEMS);
    // Before: every item's comments held until the last was parsed (≈ ITEMS parts); now at most a few.
    assert.ok(peak < 4 * partBytes, `peak ${Math.round(peak / 1e3)} kB held while parsing, one item's comments ≈ ${Math.round(partBytes / 1e3)} kB`);
  });
});
