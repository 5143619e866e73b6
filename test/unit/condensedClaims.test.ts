/**
 * Condensed claims as a research level (no model): what research makes of a stored condensation
 * (fresh, stale, tampered spans, a symlinked file), how the retrieval handler serves
 * `condensed_claims` (filters, deferral, chunks, refusals), and the extractive engine preferring
 * condensed claims for the items that have them.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import { evidenceFor } from '../../src/core/markers/build';
import { condenseCorpus, condensedFile, condensedItemSchema, readCondensedItem, type CondensedItem } from '../../src/core/markers/condense';
import { generateMarkers } from '../../src/core/markers/generate';
import type { MarkerModel, PromptSource } from '../../src/core/markers/modelEngine';
import { writeFileAtomic } from '../../src/core/storage/atomic';
import { CondensedClaims, condensedState, describeCondensed, loadCondensedClaims } from '../../src/core/research/condensedSource';
import { RetrievalHandler, SourceRegistry } from '../../src/core/research/handler';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import { researchConfigSchema, type Plan } from '../../src/core/research/schema';
import { recordingLogger } from '../support/testing';

const SECRET = 'TOP-SECRET-CONTENT-OUTSIDE-THE-CORPUS';
const LINES = [
  'The budget for the remote control is twelve euros and fifty cents per unit.',
  'Marketing found that younger customers want a fancy look and feel.',
  'The industrial designer proposed a curved case made of rubber.',
  'Speech recognition was judged too expensive for this price target.',
  'The team agreed to use a kinetic battery instead of solar cells.',
  'A scroll wheel was rejected because it confused the test users.',
];

let work: string;

/** A corpus of two items (`a`, `b`) whose transcripts are {@link LINES}. */
async function twoItems(name: string): Promise<Corpus> {
  const dir = path.join(work, name);
  for (const id of ['a', 'b']) {
    await mkdir(path.join(dir, id), { recursive: true });
    await writeFile(path.join(dir, id, 'transcript.txt'), `${LINES.join('\n')}\n`);
  }
  return loadCorpus(dir);
}

/** A condensation of `item`: one grounded claim per line (its first six words quoted), and one claim without evidence. */
function condensationOf(item: CorpusItem): CondensedItem {
  const text = item.transcript!.text;
  const claims = LINES.map((line, i) => {
    const start = text.indexOf(line);
    const quote = line.split(' ').slice(0, 6).join(' ');
    const ev = evidenceFor(item, 'transcript', start, start + quote.length, 'exact')!;
    return { claim_id: `${item.id}:C:${i}`, part: 'transcript' as const, text: `Claim ${i}: ${line}`, category: i % 2 ? 'design' : 'budget', confidence: 0.8, counterpoints: i === 0 ? ['the price may rise'] : [], evidence: [ev], grounded: true };
  });
  claims.push({ claim_id: `${item.id}:C:x`, part: 'transcript', text: 'An invented claim with no evidence', category: 'budget', confidence: 0.3, counterpoints: [], evidence: [], grounded: false });
  return condensedItemSchema.parse({
    item_id: item.id, title: item.title, content_hash: item.contentHash, model: 'qwen-local', prompt_version: 'condense@1', cache_key: 'k', generated_at: '2024-01-01T00:00:00.000Z',
    claims, categories: ['budget', 'design'], coverage: { transcript: null, comments: null }, usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  });
}

const config = (c: Partial<ReturnType<typeof researchConfigSchema.parse>> = {}) => researchConfigSchema.parse(c);

describe('condensed claims in research', () => {
  let corpus: Corpus;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-condensed-unit-'));
    corpus = await twoItems('plain');
  });
  after(async () => rm(work, { recursive: true, force: true }));

  test('a fresh condensation: every evidence span verified against the item; a stale one is refused with the reason', () => {
    const a = corpus.items.find((i) => i.id === 'a')!;
    const fresh = condensedState(a, condensationOf(a));
    assert.equal(fresh.status, 'fresh');
    assert.equal(fresh.status === 'fresh' && fresh.claims.filter((c) => c.grounded).length, LINES.length);
    const stale = condensedState(a, { ...condensationOf(a), content_hash: 'f'.repeat(64) });
    assert.equal(stale.status, 'stale');
    assert.match(stale.status === 'stale' ? stale.reason : '', /stale: the item changed after it was condensed .*not served\. Request full_content_item instead/);
    // A span that no longer reads as its quote is not evidence: the claim is not grounded.
    const tampered = condensationOf(a);
    tampered.claims[0]!.evidence[0]!.quote = 'something else entirely';
    const t = condensedState(a, tampered);
    assert.ok(t.status === 'fresh' && !t.claims[0]!.grounded && t.claims[1]!.grounded);
  });

  test('the handler serves condensed claims with their evidence spans as sources; filters; refuses what it must', () => {
    const [a, b] = [corpus.items.find((i) => i.id === 'a')!, corpus.items.find((i) => i.id === 'b')!];
    const condensed = new CondensedClaims([condensedState(a, condensationOf(a)), condensedState(b, { ...condensationOf(b), content_hash: 'old' })]);
    const h = new RetrievalHandler(corpus, new Map(), config(), new SourceRegistry(), undefined, condensed);
    const turn = h.serveTurn(
      [
        { type: 'condensed_claims', item_id: 'a' },
        { type: 'condensed_claims', item_id: 'b' },
        { type: 'condensed_claims', item_id: 'nope' },
      ],
      { used: 0 },
      { stepId: 's1', round: 1 },
    );
    const [served, stale, unknown] = turn.entries;
    assert.equal(served!.status, 'served');
    assert.equal(served!.served.length, LINES.length);
    for (const sv of served!.served) {
      const claim = condensed.claim(sv.claim_id!)!;
      assert.equal(a.transcript!.text.slice(sv.start, sv.end), claim.evidence[0]!.quote);
      assert.deepEqual(h.registry.get(sv.source_id)!.source, claim.evidence[0]!.source);
    }
    assert.match(turn.text, /^1\. \[S1\] budget: Claim 0: The budget .*\(confidence 0\.8\)\n {3}Evidence \[S1\] \(transcript\): "The budget for the remote control"\n {3}Counterpoints: the price may rise$/m);
    assert.match(turn.text, /^7\. \(NOT GROUNDED — [^)]*do not cite\) budget: An invented claim/m);
    assert.equal(stale!.status, 'rejected');
    assert.match(stale!.reason ?? '', /stale/);
    assert.match(turn.text, /condensed_claims b — rejected: the condensation of "b" is stale.*Request full_content_item/);
    assert.equal(unknown!.status, 'rejected');
    assert.match(unknown!.reason ?? '', /unknown item id/);

    // Categories filter; a category with no claims says which exist.
    const h2 = new RetrievalHandler(corpus, new Map(), config(), new SourceRegistry(), undefined, condensed);
    const design = h2.serveTurn([{ type: 'condensed_claims', item_id: 'a', categories: ['DESIGN'] }], { used: 0 }, { stepId: 's1', round: 1 });
    assert.equal(design.entries[0]!.served.length, 3);
    assert.doesNotMatch(design.text, /budget: Claim/);
    const none = h2.serveTurn([{ type: 'condensed_claims', item_id: 'a', categories: ['weather'] }], { used: 0 }, { stepId: 's1', round: 2 });
    assert.match(none.text, /No claims in those categories; this item's categories: budget, design/);
    // Not condensed at all (no condensations handed over): refused, saying what to do instead.
    const h3 = new RetrievalHandler(corpus, new Map(), config(), new SourceRegistry());
    const missing = h3.serveTurn([{ type: 'condensed_claims', item_id: 'a' }], { used: 0 }, { stepId: 's1', round: 1 });
    assert.match(missing.entries[0]!.reason ?? '', /has no condensed claims/);
    assert.match(missing.text, /Request full_content_item/);
  });

  test('over the budget: deferred when it would fit later, paged in labelled chunks when larger than the whole budget', () => {
    const a = corpus.items.find((i) => i.id === 'a')!;
    const condensed = new CondensedClaims([condensedState(a, condensationOf(a))]);
    const h = new RetrievalHandler(corpus, new Map(), config({ context_window_limit: 2000 }), new SourceRegistry(), undefined, condensed);
    const deferred = h.serveTurn([{ type: 'condensed_claims', item_id: 'a' }], { used: 1950 }, { stepId: 's1', round: 1 });
    assert.equal(deferred.entries[0]!.status, 'deferred');
    assert.match(deferred.text, /Deferred \(context budget\)/);
    const small = new RetrievalHandler(corpus, new Map(), config({ context_window_limit: 200 }), new SourceRegistry(), undefined, condensed);
    const first = small.serveTurn([{ type: 'condensed_claims', item_id: 'a' }], { used: 0 }, { stepId: 's1', round: 1 });
    assert.equal(first.entries[0]!.status, 'chunked');
    const n = Number(/Chunk 1 of (\d+)/.exec(first.text)?.[1]);
    assert.ok(n >= 2, first.text);
    const seen = new Set(first.entries[0]!.served.map((s) => s.claim_id));
    for (let k = 2; k <= n; k++) {
      const next = small.serveTurn([{ type: 'condensed_claims', item_id: 'a', chunk: k }], { used: 0 }, { stepId: 's1', round: k });
      for (const s of next.entries[0]!.served) seen.add(s.claim_id);
      if (k === n) assert.match(next.text, /This is the last chunk/);
    }
    assert.equal(seen.size, LINES.length, 'every grounded claim over the chunks');
  });

  test('the overview note lists the step\'s items with condensed claims, and stale ones as not served', () => {
    const [a, b] = [corpus.items.find((i) => i.id === 'a')!, corpus.items.find((i) => i.id === 'b')!];
    const condensed = new CondensedClaims([condensedState(a, condensationOf(a)), condensedState(b, { ...condensationOf(b), content_hash: 'old' })]);
    const note = describeCondensed(condensed, ['a', 'b'], 'en');
    assert.match(note, /^\*\*Condensed claims\*\*/);
    assert.match(note, /^- a: 7 claims \(6 grounded\); categories: budget, design$/m);
    assert.match(note, /^- b: condensation stale .* not served; use full_content_item$/m);
    assert.equal(describeCondensed(condensed, ['c'], 'en'), '');
    assert.equal(describeCondensed(new CondensedClaims(), ['a'], 'en'), '');
    assert.match(describeCondensed(condensed, ['a'], 'zh'), /^\*\*浓缩论点\*\*/);
  });

  test('a symlinked condensation is never read: research refuses it with the reason, condense says so', async () => {
    const c = await twoItems('symlinked');
    const outside = await mkdtemp(path.join(tmpdir(), 'mr-condensed-outside-'));
    try {
      const target = path.join(outside, 'victim.json');
      await writeFile(target, JSON.stringify({ ...condensationOf(c.items[0]!), title: SECRET }));
      const file = condensedFile(c.root, 'a');
      await mkdir(path.dirname(file), { recursive: true });
      await symlink(target, file);
      const read = await readCondensedItem(c.root, 'a');
      assert.ok(!read.ok && !read.missing && /symbolic link/.test(read.error ?? ''), JSON.stringify(read));
      assert.ok(!JSON.stringify(read).includes(SECRET));
      const log = recordingLogger();
      const loaded = await loadCondensedClaims(c, log);
      const st = loaded.get('a');
      assert.equal(st?.status, 'invalid');
      assert.match(st?.status === 'invalid' ? st.reason : '', /symbolic link/);
      const h = new RetrievalHandler(c, new Map(), config(), new SourceRegistry(), undefined, loaded);
      const turn = h.serveTurn([{ type: 'condensed_claims', item_id: 'a' }], { used: 0 }, { stepId: 's1', round: 1 });
      assert.equal(turn.entries[0]!.status, 'rejected');
      assert.doesNotMatch(turn.text, new RegExp(SECRET));
      // The condensation pass reads its previous result through the same check: refused, logged, never followed.
      const model: MarkerModel = { provider: 'ollama', model: 'm', complete: () => Promise.reject(new Error('no model in this test')) };
      const prompts: PromptSource = () => Promise.resolve({ version: 'condense@1', render: () => [] });
      const clog = recordingLogger();
      const report = await condenseCorpus(c, { model, prompts, log: clog });
      assert.ok(clog.lines.some((l) => /^warn condense: .*symbolic link/.test(l)), clog.lines.join('\n'));
      assert.equal(report.cached, 0);
      assert.ok(!clog.lines.join('\n').includes(SECRET));
      assert.equal(JSON.parse(await readFile(target, 'utf8')).title, SECRET, 'the target is untouched');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  test('the extractive engine prefers condensed claims for the items that have them; findings cite their evidence', async () => {
    const c = await twoItems('extractive');
    await generateMarkers(c, { engine: { kind: 'extractive' } });
    const a = c.items.find((i) => i.id === 'a')!;
    await writeFileAtomic(condensedFile(c.root, 'a'), JSON.stringify(condensationOf(a)));
    const plan: Plan = {
      goal: 'budget and battery',
      complexity: 'light',
      steps: [{ step_id: 's1', goal: 'What was decided about the budget and the kinetic battery?', required_content_items: ['a', 'b'], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'full_content' }],
    };
    const result = await runResearch({ corpus: c, engine: 'extractive', promptsDir: path.join(__dirname, '..', '..', 'prompts') }, { plan });
    assert.equal(result.manifest.status, 'done');
    const run = await readRun(c.root, result.runId);
    const types = run.requests.map((e) => `${(e.request as { type: string; item_id?: string; item_ids?: string[] }).type}:${(e.request as { item_id?: string }).item_id ?? (e.request as { item_ids?: string[] }).item_ids?.join('+')}`);
    assert.ok(types.includes('condensed_claims:a'), types.join(', '));
    // full_content reads the item without a condensation in full (offline steps follow the plan's strategy).
    assert.ok(types.includes('full_content_item:b'), `full content only for the item without a condensation: ${types.join(', ')}`);
    assert.ok(!types.some((t) => t.startsWith('full_content_item:a')), types.join(', '));
    const entry = run.requests.find((e) => (e.request as { type: string }).type === 'condensed_claims')!;
    const s1 = run.steps.get('s1')!;
    const claimFindings = s1.findings.filter((f) => f.source_ids.some((id) => entry.served.some((x) => x.source_id === id)));
    assert.ok(claimFindings.some((f) => /budget/.test(f.text)) && claimFindings.some((f) => /kinetic battery/.test(f.text)), JSON.stringify(s1.findings));
    assert.ok(!s1.findings.some((f) => /invented/.test(f.text)));
    assert.ok(s1.insights.some((i) => /condensed claims/.test(i)));
  });
});
