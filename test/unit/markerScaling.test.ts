/**
 * Issue 19, class 3: every per-item algorithm of the extractive engine is near-linear in the
 * item's size, with a hard bound per sentence. No clock: the engine counts the operations of its
 * inner loops (src/core/markers/workMeter.ts) and each count at size 2n must stay within 2.2× the
 * count at size n — a quadratic loop gives about 4×. Inputs are generated from seeded parts:
 * meetings with topic drift, one-word caption turns, comment threads from a small vocabulary.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CorpusItem } from '../../src/core/corpus/types';
import { dedupeMarkers, makeMarker } from '../../src/core/markers/build';
import { lexRank } from '../../src/core/markers/centrality';
import { extractItem } from '../../src/core/markers/extractive';
import { commentThemes, extractComments } from '../../src/core/markers/extractiveComments';
import { extractTranscript } from '../../src/core/markers/extractiveTranscript';
import { TopicStats, topicCandidates } from '../../src/core/markers/keyphrases';
import type { Marker } from '../../src/core/markers/schema';
import { splitSections, type SectionUnit } from '../../src/core/markers/sections';
import { measureWork, type WorkCounts, type WorkKind } from '../../src/core/markers/workMeter';
import { commentsPart, itemOf, transcriptPart, type Turn } from '../support/parts';
import { rng } from '../support/testing';

/** The largest accepted growth of a count when the input doubles. */
const MAX_RATIO = 2.2;

/** Asserts every named count grows at most {@link MAX_RATIO}× from `small` to `large` (a count that stays 0 is fine). */
function assertLinear(what: string, small: WorkCounts, large: WorkCounts, kinds: readonly WorkKind[]): void {
  for (const k of kinds) {
    assert.ok(small[k] > 0 || large[k] === 0, `${what}: no ${k} work counted at size n, ${large[k]} at 2n`);
    const ratio = large[k] / Math.max(1, small[k]);
    assert.ok(ratio <= MAX_RATIO, `${what}: ${k} work grew ${ratio.toFixed(2)}× when the input doubled (${small[k]} → ${large[k]}); near-linear allows ≤ ${MAX_RATIO}×`);
  }
}

const TOPICS = [
  'battery charge range winter heater kilometres charger cells voltage temperature',
  'coffee harvest freight brazil price arabica roast beans export weather',
  'office rent remote hybrid commute desk city lease employee contract',
  'river flood levee rainfall pump sandbag gauge basin bridge shelter',
  'school teacher pupil exam library timetable uniform playground lesson grade',
].map((t) => t.split(' '));
const SPEAKERS = ['Host', 'Guest', 'Alex', 'Jordan'];

/** A meeting of about `words` words whose topic drifts every ~1,500 words: facts, data and opinions, 1–3 sentences a turn. */
function meeting(words: number, seed: number): Turn[] {
  const r = rng(seed);
  const turns: Turn[] = [];
  let count = 0;
  while (count < words) {
    const vocab = TOPICS[Math.floor(count / 1500) % TOPICS.length]!;
    const w = (): string => vocab[Math.floor(r() * vocab.length)]!;
    const sentences: string[] = [];
    for (let s = 0, n = 1 + Math.floor(r() * 3); s < n; s++) {
      const kind = Math.floor(r() * 4);
      if (kind === 0) sentences.push(`The ${w()} ${w()} went up by ${2 + Math.floor(r() * 90)} percent in the last ${2 + Math.floor(r() * 9)} months for the ${w()}.`);
      else if (kind === 1) sentences.push(`I think the ${w()} is really important for the ${w()} and we should look at the ${w()} again.`);
      else sentences.push(`So the ${w()} and the ${w()} depend on the ${w()} of the ${w()} ${w()} and the ${w()} ${w()}.`);
    }
    const text = sentences.join(' ');
    count += text.split(' ').length;
    turns.push({ speaker: SPEAKERS[turns.length % SPEAKERS.length]!, text });
  }
  return turns;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'de', 'po', 'ga', 'le', 'ro', 'fi', 'tu', 'ben', 'sar', 'mol'];
/** Made-up words of two and three syllables (5,832 + 324 of them), in a fixed order. */
const MADE_UP = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => [`${a}${b}`, ...SYLLABLES.map((c) => `${a}${b}${c}`)]));

/**
 * `n` one-word caption turns (word-level auto-captions: no punctuation, 0.3 s a word) from the
 * first `vocab` made-up words, early ones drawn far more often (a Zipf-like skew).
 */
function wordCaptions(n: number, vocab: number, seed: number): Turn[] {
  const r = rng(seed);
  const words = MADE_UP.slice(0, vocab);
  return Array.from({ length: n }, (_, i) => ({ text: words[Math.floor(r() ** 2 * words.length)]!, start: i * 0.3, end: i * 0.3 + 0.3 }));
}

/** `n` comments in threads of `sentences` sentences each from a small vocabulary (so the same phrases recur), every fourth a reply. */
function thread(n: number, seed: number, sentences = 1): CorpusItem {
  const r = rng(seed);
  const vocab = TOPICS.slice(0, 2).flat();
  const w = (): string => vocab[Math.floor(r() * vocab.length)]!;
  const openers = ['Great point about the', 'I disagree, the', 'Does anyone know if the', 'The', 'Loved the part on the'];
  const sentence = (): string => `${openers[Math.floor(r() * openers.length)]} ${w()} ${w()} and the ${w()} ${w()}${r() < 0.3 ? `, it cost ${1 + Math.floor(r() * 99)} dollars` : ''}.`;
  const texts = Array.from({ length: n }, () => Array.from({ length: sentences }, sentence).join(' '));
  const part = commentsPart(texts);
  part.comments.forEach((c, i) => {
    c.likes = Math.floor(r() * 20);
    if (i > 0 && i % 4 === 0) c.parentId = part.comments[Math.floor(r() * i)]!.id;
  });
  return itemOf(`comments-${seed}-${n}`, { comments: part });
}

function statsOf(item: CorpusItem): TopicStats {
  const stats = new TopicStats();
  stats.addDocument(topicCandidates(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`));
  return stats;
}

/** Every marker has evidence whose quote is exactly its span of the part's text. */
function assertGrounded(item: CorpusItem, markers: readonly Marker[]): void {
  for (const m of markers) {
    assert.ok(m.grounded && m.evidence.length > 0, `${m.id} is not grounded`);
    for (const ev of m.evidence) {
      const part = ev.part === 'transcript' ? item.transcript! : item.comments!;
      assert.ok(ev.start < ev.end && ev.end <= part.text.length, `${m.id}: span ${ev.start}-${ev.end} outside the part`);
      assert.equal(ev.quote, part.text.slice(ev.start, ev.end), `${m.id}: quote is not its span`);
    }
  }
}

describe('marker scaling: LexRank compares a bounded neighbourhood', () => {
  test('one long section of short sentences from a small vocabulary: similarity work grows linearly', () => {
    for (const seed of [1, 2]) {
      const r = rng(seed);
      const vocab = TOPICS.flat();
      const sentences = (n: number): string[][] => Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => vocab[Math.floor(r() * vocab.length)]!));
      const idf = (): number => 1;
      const small = measureWork(() => lexRank(sentences(3000), idf));
      const large = measureWork(() => lexRank(sentences(6000), idf));
      assertLinear(`lexRank seed ${seed}`, small.work, large.work, ['centrality']);
      const sum = large.result.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-6, `scores sum to ${sum}`);
    }
  });
});

describe('marker scaling: sections', () => {
  test('uniform text (every cohesion equal) and drifting topics: the topic-shift search grows linearly', () => {
    const uniform = (n: number): SectionUnit[] => Array.from({ length: n }, () => ({ words: 10, terms: ['battery', 'range', 'winter'] }));
    const drifting = (n: number): SectionUnit[] => {
      const r = rng(n);
      return Array.from({ length: n }, (_, i) => {
        const vocab = TOPICS[Math.floor(i / 40) % TOPICS.length]!;
        return { words: 10, terms: Array.from({ length: 8 }, () => vocab[Math.floor(r() * vocab.length)]!) };
      });
    };
    for (const [name, make] of [['uniform', uniform], ['drifting', drifting]] as const) {
      for (const targetWords of [100, 1000]) {
        const small = measureWork(() => splitSections(make(4000), { targetWords }));
        const large = measureWork(() => splitSections(make(8000), { targetWords }));
        assertLinear(`${name} text, ${targetWords} words a section`, small.work, large.work, ['sections']);
        assert.ok(large.result.length >= Math.round(80_000 / targetWords) / 2, `${name}: only ${large.result.length} sections`);
      }
    }
  });
});

describe('marker scaling: the transcript pass', () => {
  test('meetings of n and 2n words at a high density: near-duplicate checks, sections and centrality grow linearly', () => {
    for (const seed of [3, 4]) {
      const run = (words: number): { work: WorkCounts; item: CorpusItem; markers: Marker[] } => {
        const item = itemOf(`m${seed}-${words}`, { transcript: transcriptPart(meeting(words, seed)) });
        const stats = statsOf(item);
        const { result, work } = measureWork(() => extractTranscript(item, stats, { density: 20 }));
        const s = result!.summary;
        return { work, item, markers: [...s.key_facts, ...s.key_opinions, ...s.key_datapoints] };
      };
      const small = run(40_000);
      const large = run(80_000);
      assertLinear(`meeting seed ${seed}`, small.work, large.work, ['centrality', 'clash', 'sections']);
      assert.ok(large.markers.length > small.markers.length, 'more text, more markers');
      assertGrounded(large.item, large.markers);
    }
  });

  test('200,000 one-word caption turns finish with every marker grounded', () => {
    const item = itemOf('captions', { transcript: transcriptPart(wordCaptions(200_000, 3000, 5)) });
    const r = extractItem(item, statsOf(item));
    const s = r.transcript_summary!;
    const markers = [...s.key_facts, ...s.key_opinions, ...s.key_datapoints];
    assert.ok(markers.length >= 200, `only ${markers.length} markers for 200,000 words`);
    assertGrounded(item, markers);
    assert.equal(r.coverage.transcript?.complete, true);
  });

  test('one-word turns that are each a sentence ("word."): centrality work stays linear', () => {
    const dotted = (n: number): CorpusItem => itemOf(`dots-${n}`, { transcript: transcriptPart(wordCaptions(n, 5, 6).map((t) => ({ text: `${(t as { text: string }).text}.` }))) });
    const small = dotted(20_000);
    const large = dotted(40_000);
    const a = measureWork(() => extractTranscript(small, statsOf(small)));
    const b = measureWork(() => extractTranscript(large, statsOf(large)));
    assertLinear('one-word sentences', a.work, b.work, ['centrality', 'sections']);
  });
});

describe('marker scaling: de-duplication', () => {
  test('n and 2n markers, many alike: comparisons grow linearly and alike markers still merge', () => {
    const markers = (n: number, seed: number): Marker[] => {
      const r = rng(seed);
      const vocab = TOPICS.flat();
      return Array.from({ length: n }, (_, i) => {
        const text = Array.from({ length: 6 }, () => vocab[Math.floor(r() * 12)]!).join(' ') + (r() < 0.5 ? ` ${i}` : '');
        return makeMarker('item', 'FACT', text, 'topic', 0.5, []);
      });
    };
    for (const seed of [7, 8]) {
      const small = measureWork(() => dedupeMarkers(markers(2000, seed)));
      const large = measureWork(() => dedupeMarkers(markers(4000, seed)));
      assertLinear(`dedupe seed ${seed}`, small.work, large.work, ['dedupe']);
      assert.ok(large.result.length < 4000, 'alike markers merge');
    }
  });
});

describe('marker scaling: comments', () => {
  test('themes of n and 2n comments from a small vocabulary: grouping grows linearly (no list copied per append)', () => {
    for (const seed of [9, 10]) {
      const texts = (n: number): string[] => thread(n, seed).comments!.comments.map((c) => c.text);
      const stats = new TopicStats();
      const small = measureWork(() => commentThemes(texts(5000), stats));
      const large = measureWork(() => commentThemes(texts(10_000), stats));
      assertLinear(`themes seed ${seed}`, small.work, large.work, ['themes']);
      assert.ok(large.result.length > 0, 'the comments have themes');
    }
  });

  test('the comments pass of n and 2n comments grows linearly and every marker is grounded', () => {
    const small = thread(4000, 11);
    const large = thread(8000, 11);
    const a = measureWork(() => extractComments(small, statsOf(small)));
    const b = measureWork(() => extractComments(large, statsOf(large)));
    assertLinear('comments pass', a.work, b.work, ['themes', 'dedupe']);
    const s = b.result!.summary;
    const markers = [...s.key_facts_from_comments, ...s.key_opinions_from_comments, ...s.key_datapoints_from_comments, ...s.top_engagement_markers];
    assert.ok(markers.length > 0);
    assertGrounded(large, markers);
  });

  test('80,000 comments of two sentences: the pass finishes (no argument list as long as the sentences)', () => {
    const item = thread(80_000, 12, 2);
    const r = extractComments(item, statsOf(item));
    const s = r!.summary;
    assert.equal(s.total_comments, 80_000);
    assertGrounded(item, [...s.key_facts_from_comments, ...s.key_opinions_from_comments, ...s.key_datapoints_from_comments, ...s.top_engagement_markers]);
  });
});
