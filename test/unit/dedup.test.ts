/**
 * De-duplication (issue 10): findings and markers that say the same thing are merged, and an epic
 * run's duplicate rates are what they claim to be. The duplicates are measured here independently
 * of the de-duplication code: the fixture findings carry the claim they restate (a label), so
 * which findings repeat which is known by construction; the end-to-end run is measured on what it
 * stored and on the report it wrote, by exact text. A duplicate rate hard-coded to 0, or a merge
 * that does not happen, fails here even though the code's own measure would agree with itself.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { claimSimilarity, dedupeMarkers, evidenceFor, makeMarker, markerId, normaliseClaim, partOf } from '../../src/core/markers/build';
import { generateMarkers } from '../../src/core/markers/generate';
import type { Evidence, Marker } from '../../src/core/markers/schema';
import { dedupeFindings, duplicateRate } from '../../src/core/research/citations';
import { DEDUP_THRESHOLD, dedupeEpic, readRun, runResearch } from '../../src/core/research/pipeline';
import type { RunFinding } from '../../src/core/research/schema';
import { tokenize } from '../../src/core/search/tokenize';
import { commentsPart, itemOf, transcriptPart } from '../support/parts';

/** A finding of the fixture and the claim it restates. */
interface Planted extends RunFinding {
  label: string;
}

const planted = (phase: string, label: string, text: string, src: string, confidence = 0.5): Planted => ({ finding_id: src, step_id: `${phase}-step`, phase_name: phase, text, confidence, source_ids: [src], label });

/** Restatements (reordered, re-cased, a word added) of five claims, over four phases. */
const FIXTURE: Planted[] = [
  planted('A', 'range', 'Battery range drops by a third in cold weather', 'S1', 0.6),
  planted('A', 'range', 'In cold weather, battery range drops by a third.', 'S2', 0.9),
  planted('A', 'heat-pump', 'Heat pumps cut the energy used for heating by half', 'S3'),
  planted('B', 'range', 'Battery range drops by about a third in the cold weather', 'S4', 0.7),
  planted('B', 'charging', 'Fast chargers slow down when the battery is cold', 'S5'),
  planted('B', 'charging', 'When the battery is cold, fast chargers slow down', 'S6', 0.8),
  planted('C', 'heat-pump', 'HEAT PUMPS CUT THE ENERGY USED FOR HEATING BY HALF!', 'S7', 0.4),
  planted('C', 'broken', 'Public chargers in Oslo were often broken in January', 'S8'),
  planted('C', 'range', 'battery range drops by a third in cold weather', 'S9', 0.3),
  planted('D', 'tyres', 'Winter tyres add two percent to energy use', 'S10'),
];

/** The rates by the labels: within each phase, then across phases among what is left; claims left. */
function measured(all: readonly Planted[]): { within: number; cross: number; after: number } {
  const phases = [...new Set(all.map((f) => f.phase_name))];
  let within = 0;
  const kept: Planted[] = [];
  for (const p of phases) {
    const seen = new Set<string>();
    for (const f of all.filter((x) => x.phase_name === p)) {
      if (seen.has(f.label)) within++;
      else {
        seen.add(f.label);
        kept.push(f);
      }
    }
  }
  const cross = kept.filter((f, i) => kept.slice(0, i).some((g) => g.label === f.label && g.phase_name !== f.phase_name)).length;
  return { within: within / all.length, cross: cross / kept.length, after: new Set(kept.map((f) => f.label)).size };
}

describe('epic de-duplication, measured by the labels', () => {
  test('the fixture: 2 of 10 repeat within their phase, 3 of the 8 left repeat another phase, 5 claims', () => {
    assert.deepEqual(measured(FIXTURE), { within: 2 / 10, cross: 3 / 8, after: 5 });
  });

  test('dedupeEpic reports the rates the labels give and leaves one finding per claim', () => {
    const m = measured(FIXTURE);
    const { findings, stats } = dedupeEpic(FIXTURE);
    assert.deepEqual(stats, { threshold: DEDUP_THRESHOLD, findings_before: 10, within_phase_rate_before: m.within, cross_phase_rate_before: m.cross, findings_after: m.after, rate_after: 0 });
    // Independently of the code's own rate: no two findings left restate one claim.
    const labelOf = new Map(FIXTURE.map((f) => [f.finding_id, f.label]));
    const labels = findings.map((f) => labelOf.get(f.finding_id));
    assert.equal(new Set(labels).size, findings.length, `one finding per claim: ${labels.join(', ')}`);
    assert.deepEqual(labels, ['range', 'heat-pump', 'charging', 'broken', 'tyres']);
  });

  test('a merged finding keeps the first text and phase, every source of its claim, the highest confidence', () => {
    const { findings } = dedupeEpic(FIXTURE);
    const byLabel = new Map(findings.map((f) => [(f as Planted).label, f]));
    const range = byLabel.get('range')!;
    assert.equal(range.text, 'Battery range drops by a third in cold weather');
    assert.equal(range.phase_name, 'A');
    assert.deepEqual(range.source_ids, ['S1', 'S2', 'S4', 'S9']);
    assert.equal(range.confidence, 0.9);
    assert.deepEqual(byLabel.get('heat-pump')!.source_ids, ['S3', 'S7']);
    assert.equal(byLabel.get('heat-pump')!.confidence, 0.5);
    assert.deepEqual(byLabel.get('charging')!.source_ids, ['S5', 'S6']);
    assert.equal(byLabel.get('charging')!.confidence, 0.8);
    // The input is not changed.
    assert.deepEqual(FIXTURE[0]!.source_ids, ['S1']);
    assert.equal(FIXTURE[0]!.confidence, 0.6);
  });

  test('findings without a phase form one group; no findings, no rates', () => {
    const noPhase = FIXTURE.filter((f) => f.phase_name === 'A').map(({ phase_name: _p, ...f }) => f as Planted);
    const { stats } = dedupeEpic(noPhase);
    assert.equal(stats.within_phase_rate_before, 1 / 3);
    assert.equal(stats.cross_phase_rate_before, 0);
    assert.equal(stats.findings_after, 2);
    assert.deepEqual(dedupeEpic([]).stats, { threshold: DEDUP_THRESHOLD, findings_before: 0, within_phase_rate_before: 0, cross_phase_rate_before: 0, findings_after: 0, rate_after: 0 });
  });

  test('a threshold above any similarity merges nothing', () => {
    const { findings, stats } = dedupeEpic(FIXTURE, 1.01);
    assert.equal(findings.length, FIXTURE.length);
    assert.deepEqual(stats, { threshold: 1.01, findings_before: 10, within_phase_rate_before: 0, cross_phase_rate_before: 0, findings_after: 10, rate_after: 0 });
  });
});

describe('dedupeFindings and duplicateRate', () => {
  const f = (text: string, src: string[], confidence = 0.5, group = 'g'): RunFinding => ({ finding_id: src.join('+'), step_id: group, phase_name: group, text, confidence, source_ids: src });

  test('a finding at exactly the threshold merges; below it does not', () => {
    const a = 'alpha bravo charlie delta';
    const b = 'alpha bravo charlie echo'; // 3 of 5 tokens shared: 0.6
    assert.equal(claimSimilarity(a, b), 0.6);
    assert.equal(dedupeFindings([f(a, ['S1']), f(b, ['S2'])], 0.6).length, 1);
    assert.equal(dedupeFindings([f(a, ['S1']), f(b, ['S2'])], 0.61).length, 2);
    assert.equal(duplicateRate([f(a, ['S1']), f(b, ['S2'])], 0.6), 1 / 2);
    assert.equal(duplicateRate([f(a, ['S1']), f(b, ['S2'])], 0.61), 0);
  });

  test('sources are united without repeats; the default threshold is 0.6', () => {
    const out = dedupeFindings([f('alpha bravo charlie delta', ['S1', 'S2']), f('alpha bravo charlie echo', ['S2', 'S3'], 0.2)]);
    assert.equal(out.length, 1);
    assert.deepEqual(out[0]!.source_ids, ['S1', 'S2', 'S3']);
    assert.equal(out[0]!.confidence, 0.5);
    assert.equal(duplicateRate([f('alpha bravo charlie delta', ['S1']), f('alpha bravo charlie echo', ['S2'])]), 1 / 2);
  });

  test('a repeat counts once, however many earlier findings it repeats; with groups, only repeats of another group', () => {
    const x = 'battery range drops by a third in cold weather';
    assert.equal(duplicateRate([f(x, ['S1']), f(x, ['S2']), f(x, ['S3'])]), 2 / 3);
    assert.equal(duplicateRate([f(x, ['S1'], 0.5, 'A'), f(x, ['S2'], 0.5, 'A'), f(x, ['S3'], 0.5, 'B')], 0.6, (g) => g.phase_name), 1 / 3);
    assert.equal(duplicateRate([f(x, ['S1'], 0.5, 'A'), f(x, ['S2'], 0.5, 'A')], 0.6, (g) => g.phase_name), 0);
    assert.equal(duplicateRate([]), 0);
  });
});

function ev(part: 'transcript' | 'comments', start: number, end: number): Evidence {
  return { quote: 'q', part, start, end, match: 'exact', source: { file: 'f', startLine: 0, startColumn: start, endLine: 0, endColumn: end } };
}

describe('marker de-duplication', () => {
  test('claimSimilarity is the Jaccard index of the search tokens; texts without tokens compare normalised', () => {
    const a = 'The battery lost a third of its range';
    const b = 'Battery range: a third lost';
    const x = new Set(tokenize(a));
    const y = new Set(tokenize(b));
    const inter = [...x].filter((t) => y.has(t)).length;
    assert.equal(claimSimilarity(a, b), inter / (x.size + y.size - inter));
    assert.equal(claimSimilarity(a, 'Snow tyres cost money'), 0);
    assert.equal(claimSimilarity('And so it was!', 'and so, it was'), 1);
    assert.equal(claimSimilarity('And so it was!', 'and it was'), 0);
    assert.equal(claimSimilarity('', 'battery'), 0);
  });

  test('normaliseClaim and marker ids: case, width and punctuation do not change a marker id', () => {
    assert.equal(normaliseClaim('  The ＢＡＴＴＥＲＹ, lost —  a third!! '), 'the battery lost a third');
    const id = markerId('ev', 'FACT', 'The battery lost a third.');
    assert.equal(id, `ev:F:${createHash('sha256').update('the battery lost a third').digest('hex').slice(0, 10)}`);
    assert.equal(markerId('ev', 'FACT', 'the BATTERY lost, a third'), id);
    assert.notEqual(markerId('ev', 'OPINION', 'The battery lost a third.'), id);
    assert.match(markerId('ev', 'OPINION', 'x'), /^ev:O:[0-9a-f]{10}$/);
  });

  test('makeMarker: confidence clamped to [0, 1] and rounded to hundredths; grounded when it has evidence', () => {
    assert.equal(makeMarker('ev', 'FACT', 't', 'x', 1.7, []).confidence, 1);
    assert.equal(makeMarker('ev', 'FACT', 't', 'x', -0.2, []).confidence, 0);
    assert.equal(makeMarker('ev', 'FACT', 't', 'x', 0.456, []).confidence, 0.46);
    assert.equal(makeMarker('ev', 'FACT', 't', 'x', 0.5, []).grounded, false);
    const m = makeMarker('ev', 'DATA', 'Range 300 km', 'range', 0.5, [ev('transcript', 0, 3)], { likes: 4 });
    assert.deepEqual(m, { id: markerId('ev', 'DATA', 'Range 300 km'), kind: 'DATA', text: 'Range 300 km', topic: 'range', confidence: 0.5, evidence: [ev('transcript', 0, 3)], grounded: true, likes: 4 });
  });

  test('markers of one kind that say the same thing merge: evidence united once, highest confidence, likes and replies', () => {
    const a = makeMarker('ev', 'FACT', 'Battery range drops by a third in cold weather', 'range', 0.6, [ev('transcript', 0, 10)]);
    const b = { ...makeMarker('ev', 'FACT', 'In cold weather battery range drops by a third', 'range', 0.9, [ev('transcript', 0, 10), ev('transcript', 20, 30)]), likes: 3, replies: 1 };
    const c = { ...makeMarker('ev', 'FACT', 'battery range drops by about a third in the cold weather', 'range', 0.1, [ev('comments', 0, 10)]), likes: 7 };
    const other = makeMarker('ev', 'OPINION', 'Battery range drops by a third in cold weather', 'range', 0.5, []);
    const out = dedupeMarkers([a, b, c, other]);
    assert.equal(out.length, 2, 'the opinion stays: kinds never merge');
    const [fact, opinion] = out as [Marker, Marker];
    assert.equal(fact.text, a.text);
    assert.equal(fact.confidence, 0.9);
    assert.deepEqual(fact.evidence, [ev('transcript', 0, 10), ev('transcript', 20, 30), ev('comments', 0, 10)]);
    assert.equal(fact.grounded, true);
    assert.equal(fact.likes, 7);
    assert.equal(fact.replies, 1);
    assert.equal(opinion.kind, 'OPINION');
    assert.deepEqual(a.evidence, [ev('transcript', 0, 10)], 'inputs untouched');
  });

  test('an ungrounded marker merged with a grounded one becomes grounded; the same id merges whatever the threshold', () => {
    const a = makeMarker('ev', 'FACT', 'The heat pump helped', 'heat', 0.5, []);
    const b = makeMarker('ev', 'FACT', 'the heat pump, helped!', 'heat', 0.5, [ev('transcript', 5, 9)]);
    assert.equal(a.id, b.id);
    const out = dedupeMarkers([a, b], 1.01);
    assert.equal(out.length, 1);
    assert.equal(out[0]!.grounded, true);
    assert.deepEqual(out[0]!.evidence, [ev('transcript', 5, 9)]);
    assert.equal(dedupeMarkers([a, makeMarker('ev', 'FACT', 'The heat pump helped a lot', 'heat', 0.5, [])], 1.01).length, 2);
    assert.equal(dedupeMarkers([a, makeMarker('ev', 'FACT', 'The heat pump helped a lot', 'heat', 0.5, [])]).length, 2, '3 of 4 tokens: below 0.8');
    assert.equal(dedupeMarkers([a, makeMarker('ev', 'FACT', 'The heat pump helped a lot', 'heat', 0.5, [])], 0.75).length, 1);
  });

  test('evidence is the same only when part, start and end all match', () => {
    const base = makeMarker('ev', 'FACT', 'Battery range drops by a third in cold weather', 'range', 0.5, [ev('transcript', 10, 20)]);
    const other = (e: Evidence): Marker => makeMarker('ev', 'FACT', 'In cold weather battery range drops by a third', 'range', 0.5, [e]);
    for (const e of [ev('comments', 10, 20), ev('transcript', 11, 20), ev('transcript', 10, 21)]) assert.equal(dedupeMarkers([base, other(e)])[0]!.evidence.length, 2, JSON.stringify(e));
    assert.equal(dedupeMarkers([base, other(ev('transcript', 10, 20))])[0]!.evidence.length, 1);
  });

  test('merging ungrounded markers leaves them ungrounded; likes and replies only where given', () => {
    const a = makeMarker('ev', 'OPINION', 'Winter tyres are worth it', 't', 0.5, []);
    const b = makeMarker('ev', 'OPINION', 'winter tyres are worth it!', 't', 0.5, []);
    const [m] = dedupeMarkers([a, b]);
    assert.equal(m!.grounded, false);
    assert.equal('likes' in m!, false);
    assert.equal('replies' in m!, false);
    const [liked] = dedupeMarkers([{ ...a, likes: 5, replies: 2 }, b]);
    assert.equal(liked!.likes, 5);
    assert.equal(liked!.replies, 2);
  });

  test('punctuation separates words in a normalised claim', () => {
    assert.equal(normaliseClaim('range,winter;cold'), 'range winter cold');
    assert.notEqual(markerId('ev', 'FACT', 'range,winter'), markerId('ev', 'FACT', 'rangewinter'));
  });

  test('evidenceFor maps a span to the original file; none for a missing part or an empty span', () => {
    const item = itemOf('ev', { transcript: transcriptPart(['First turn here.', 'The heat pump helped.']) });
    const e = evidenceFor(item, 'transcript', item.transcript!.segments[1]!.offset + 4, item.transcript!.segments[1]!.offset + 14, 'fuzzy');
    assert.deepEqual(e, { quote: 'heat pump ', part: 'transcript', start: 21, end: 31, match: 'fuzzy', source: { file: 't.json', startLine: 1, startColumn: 4, endLine: 1, endColumn: 14 } });
    assert.equal(evidenceFor(item, 'comments', 0, 5, 'exact'), undefined);
    assert.equal(evidenceFor(item, 'transcript', 5, 5, 'exact'), undefined);
    const withComments = itemOf('c', { comments: commentsPart(['nice', 'great video']) });
    assert.equal(partOf(withComments, 'comments'), withComments.comments);
    assert.equal(partOf(withComments, 'transcript'), undefined);
    assert.deepEqual(evidenceFor(withComments, 'comments', 5, 10, 'exact')?.source, { file: 'c.jsonl', startLine: 1, startColumn: 0, endLine: 1, endColumn: 5, commentIds: ['2'], speakers: ['user2'] });
  });
});

describe('an epic run, measured on what it stored and wrote', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-dedup-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** Lower case, words only, without an offline report line's "who · where: “…”" label: two findings with the same words say the same thing. */
  const norm = (t: string): string => t.toLowerCase().replace(/^[^“«]*[“«]/, '').replace(/^[^:]{1,20}:\s*/, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

  test('the shared claim repeats across phases before, once after; the reported rates are the measured ones', async () => {
    const shared = 'Everyone agrees that cold weather cuts the battery range of electric cars by about a third.';
    const own = [
      ['The ferry to Bergen left two hours late because of ice.', 'Snow tyres squeal on dry asphalt in the city.'],
      ['A heat pump saved forty percent of heating energy.', 'Our charger app crashed twice at the motorway stop.'],
      ['Preconditioning the cabin while plugged in helps a lot.', 'The dashboard estimate was far too optimistic.'],
      ['Rural chargers were slower than the urban ones.', 'The seat heaters draw less power than cabin heating.'],
      ['Tyre pressure dropped overnight in the frost.', 'Regenerative braking was limited with a cold pack.'],
      ['The test drive ended with twelve percent battery left.', 'Parking in a garage kept the battery warmer.'],
    ];
    const dir = path.join(work, 'epic');
    for (const [k, month] of ['01', '03', '05', '07', '09', '11'].entries()) {
      const d = path.join(dir, `ep${k + 1}`);
      await mkdir(d, { recursive: true });
      await writeFile(path.join(d, 'meta.json'), JSON.stringify({ title: `Episode ${k + 1}`, published_at: `2024-${month}-10T00:00:00Z` }));
      await writeFile(path.join(d, 'transcript.txt'), `Host: ${shared}\nGuest: ${own[k]![0]}\nHost: ${own[k]![1]}\nGuest: ${shared}\n`);
    }
    const corpus = await loadCorpus(dir);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    // Three phases of two episodes each, two threads (steps) per phase; every episode repeats the shared claim.
    const phases = [['ep1', 'ep2'], ['ep3', 'ep4'], ['ep5', 'ep6']].map((ids, k) => ({ name: `Phase ${k + 1}`, description: `episodes ${ids.join(', ')}`, item_ids: ids }));
    const plan = {
      goal: 'battery range in cold weather',
      complexity: 'epic',
      phases,
      steps: phases.flatMap((p, k) =>
        ['battery range in cold weather', 'what the cold does to electric cars'].map((thread, t) => ({
          step_id: `p${k + 1}-t${t + 1}`,
          goal: `What do the episodes say about ${thread}? (${p.name})`,
          required_content_items: p.item_ids,
          required_data: 'transcript',
          marker_relevance: [],
          retrieval_strategy: 'selective_by_markers',
          phase_name: p.name,
        })),
      ),
    };
    const result = await runResearch({ corpus, engine: 'extractive', promptsDir: path.join(__dirname, '..', '..', 'prompts') }, { plan });
    assert.equal(result.manifest.status, 'done');
    const run = await readRun(corpus.root, result.runId);
    assert.equal(run.plan?.phases?.length, 3);

    // Before: every stored finding of every step, with its phase.
    const before: { text: string; phase: string }[] = [];
    for (const st of run.plan!.steps) for (const f of run.steps.get(st.step_id)?.findings ?? []) before.push({ text: norm(f.text), phase: st.phase_name ?? '' });
    const withShared = new Set(before.filter((f) => f.text === norm(shared)).map((f) => f.phase));
    assert.ok(withShared.size >= 2, `the shared claim is found in ${withShared.size} phases`);
    // The same measure as the labels: exact repeats within a phase, then across phases among what is left.
    let within = 0;
    const kept: { text: string; phase: string }[] = [];
    for (const p of [...new Set(before.map((f) => f.phase))]) {
      const seen = new Set<string>();
      for (const f of before.filter((x) => x.phase === p)) {
        if (seen.has(f.text)) within++;
        else {
          seen.add(f.text);
          kept.push(f);
        }
      }
    }
    const cross = kept.filter((f, i) => kept.slice(0, i).some((g) => g.text === f.text && g.phase !== f.phase)).length;
    const dedup = result.manifest.dedup!;
    // Offline steps of a run never quote the same span twice (a phase's second thread quotes the next best), so repeats within a phase may be none; the fixture tests above measure them.
    assert.ok(cross > 0, `the run has repeats across phases (${cross}; within: ${within})`);
    assert.equal(dedup.findings_before, before.length);
    assert.equal(dedup.within_phase_rate_before, within / before.length);
    assert.equal(dedup.cross_phase_rate_before, cross / kept.length);

    // After: the report lists each claim once.
    const report = await readFile(result.reportPath!, 'utf8');
    const bullets = report.split('\n').filter((l) => l.startsWith('- ')).map((l) => norm(l.slice(2).replace(/(\s*\[\d+\])+\s*$/, '')));
    assert.equal(bullets.length, dedup.findings_after);
    assert.equal(bullets.filter((b) => b === norm(shared)).length, 1, 'the shared claim once');
    assert.equal(new Set(bullets).size, bullets.length, `no claim twice in the report:\n${bullets.join('\n')}`);
    assert.equal(dedup.rate_after, 0);
  });
});

describe('findings with different numbers are different findings', () => {
  test('"40 km at minus 3" and "54 km at minus 5" are not merged; the same numbers in other words are', () => {
    const a = { finding_id: 'a', text: 'In episode 1 the car lost range: 40 km at minus 3 degrees.', confidence: 0.7, source_ids: ['S1'] };
    const b = { finding_id: 'b', text: 'In episode 3 the car lost range: 54 km at minus 5 degrees.', confidence: 0.7, source_ids: ['S2'] };
    const c = { finding_id: 'c', text: 'In episode 1 the car lost range, 40 km at minus 3 degrees!', confidence: 0.9, source_ids: ['S3'] };
    const out = dedupeFindings([a, b, c]);
    assert.deepEqual(out.map((f) => f.finding_id), ['a', 'b']);
    assert.deepEqual(out[0]!.source_ids, ['S1', 'S3'], 'the restatement with the same numbers merges');
    assert.deepEqual(out[1]!.source_ids, ['S2'], "episode 3's span never cites episode 1's numbers");
  });
});
