/**
 * Research pipeline units: the marker overview (layout, cap, fallback), the retrieval handler
 * (validation, deferral, chunking, source ids), citation resolution and finding de-duplication,
 * plan validation.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { extractItem } from '../../src/core/markers/extractive';
import { TopicStats, topicCandidates } from '../../src/core/markers/keyphrases';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { allMarkers } from '../../src/core/markers/store';
import { citedNumbers, dedupeFindings, duplicateRate, resolveCitations } from '../../src/core/research/citations';
import { badId, RetrievalHandler, SourceRegistry } from '../../src/core/research/handler';
import { formatMarkerOverview, overviewLanguage } from '../../src/core/research/overview';
import { dedupeEpic } from '../../src/core/research/pipeline';
import { validatePlan } from '../../src/core/research/plan';
import { failureCause, runOutcome } from '../../src/core/research/failures';
import { researchConfigSchema, runManifestSchema, type SourceSpan, type StepResult } from '../../src/core/research/schema';
import { LlmError } from '../../src/core/llm/types';
import { exitCodeFor } from '../../src/cli/researchCommand';
import { openSession } from '../../src/core/research/session';
import { recordingLogger } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
let corpus: Corpus;
let markers: Map<string, ItemMarkers>;

function handler(config: Partial<ReturnType<typeof researchConfigSchema.parse>> = {}): RetrievalHandler {
  return new RetrievalHandler(corpus, markers, researchConfigSchema.parse(config), new SourceRegistry());
}

describe('research', () => {
  before(async () => {
    corpus = await loadCorpus(DEMO);
    const stats = new TopicStats();
    for (const item of corpus.items) stats.addDocument(topicCandidates(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`));
    markers = new Map(
      corpus.items.map((item) => [
        item.id,
        { item_id: item.id, title: item.title, content_hash: item.contentHash, engine: 'extractive', model: null, prompt_version: null, cache_key: 'k', generated_at: '', ...extractItem(item, stats), usage: { promptTokens: 0, completionTokens: 0, calls: 0 } } satisfies ItemMarkers,
      ]),
    );
  });

  describe('marker overview', () => {
    test('the run language is the language of most items (one vote per item, not pooled characters)', () => {
      const inputs = corpus.items.map((item) => ({ item, markers: markers.get(item.id) }));
      const zhItems = inputs.filter((x) => /[\u4e00-\u9fff]/.test(x.item.title));
      const enItems = inputs.filter((x) => !/[\u4e00-\u9fff]/.test(x.item.title));
      assert.ok(zhItems.length === 2 && enItems.length === 3);
      assert.equal(overviewLanguage(inputs), 'en', '3 English items, 2 Chinese');
      assert.equal(overviewLanguage([...zhItems, enItems[0]!]), 'zh', '2 Chinese items, 1 English');
    });

    test('seed layout: per item source, title, counts, markers with ids, topics, comment sentiment and themes', () => {
      const inputs = corpus.items.map((item) => ({ item, markers: markers.get(item.id) }));
      const ov = formatMarkerOverview(inputs, { lang: 'en' });
      assert.match(ov.text, /^\*\*Marker overview of the available content items\*\*/);
      assert.match(ov.text, /\*\*Item 1: [^*]+\*\*\nSource: \w+ \| Title: /);
      assert.match(ov.text, /Words: \d+ \| Comments: \d+/);
      assert.match(ov.text, /- Key facts \(\d+\):\n {2}• \[[^\]]+:F:[0-9a-f]{10}\] FACT: /);
      assert.match(ov.text, /- Overall sentiment: (mostly_positive|mixed|mostly_negative)/);
      assert.match(ov.text, /- Topics: /);
      const some = allMarkers(markers.get('remote-work-panel')!)[0]!;
      assert.ok(ov.text.includes(`[${some.id}]`));
      const zh = formatMarkerOverview(inputs, { lang: 'zh' });
      assert.match(zh.text, /\*\*内容项 1: /);
      assert.match(zh.text, /关键事实 \(\d+\)/);
    });

    test('caps at the most relevant items and says what it left out', () => {
      const inputs = corpus.items.map((item) => ({ item, markers: markers.get(item.id) }));
      const ov = formatMarkerOverview(inputs, { goal: 'remote work office days hybrid', maxItems: 2, lang: 'en' });
      assert.equal(ov.itemIds.length, 2);
      assert.equal(ov.itemIds[0], 'remote-work-panel');
      assert.equal(ov.omitted.length, corpus.items.length - 2);
      assert.match(ov.text, /showing the 2 most relevant/);
      assert.match(ov.text, new RegExp(`Left out as less relevant \\(${ov.omitted.length}\\): ${ov.omitted[0]}`));
    });

    test('an item without markers gets a short abstract and a logged warning', () => {
      const log = recordingLogger();
      const item = corpus.items.find((i) => i.id === 'coffee-market-report')!;
      const ov = formatMarkerOverview([{ item, markers: undefined }], { lang: 'en', log });
      assert.deepEqual(ov.fallback, ['coffee-market-report']);
      assert.match(ov.text, /No markers yet; abstract \(first words\): \S+/);
      const abstract = /abstract \(first words\): (.*)/.exec(ov.text)![1]!;
      assert.ok(abstract.split(/\s+/).length <= 62, abstract);
      assert.ok(log.lines.some((l) => l.startsWith('warn research: coffee-market-report has no markers')));
    });
  });

  describe('retrieval handler', () => {
    test('rejects unknown, path-like and malformed requests with a message; serves known ones with source ids', () => {
      const h = handler();
      const m = allMarkers(markers.get('ev-winter-range')!)[0]!;
      const turn = h.serveTurn(
        [
          { type: 'full_content_item', item_id: '../secrets' },
          { type: 'full_content_item', item_id: 'C:\\Windows' },
          { type: 'full_content_item', item_id: 'nope' },
          { type: 'by_marker', marker_id: 'x:F:0123456789' },
          { type: 'selective_markers', item_id: 'ev-winter-range', kinds: ['NONSENSE'] },
          { kind: 'by_topic' },
          { type: 'by_marker', marker_id: m.id },
        ],
        { used: 0 },
        { stepId: 's1', round: 1 },
      );
      assert.equal(turn.rejected, 6);
      assert.deepEqual(turn.entries.map((e) => e.status), ['rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'served']);
      assert.match(turn.text, /Request 1: full_content_item \.\.\/secrets — rejected: .*looks like a path/);
      assert.match(turn.text, /unknown item id "nope"/);
      assert.match(turn.text, /malformed request/);
      assert.match(turn.text, /Evidence \[S1\]: "/);
      assert.equal(h.registry.get('S1')!.marker_id, m.id);
      assert.equal(badId('a/b') !== undefined && badId('..') !== undefined && badId('ok-id') === undefined, true);
    });

    test('whole items that do not fit are deferred, never cut, with a message asking to prioritise', () => {
      const h = handler({ context_window_limit: 1500, max_content_items_per_turn: 5 });
      const reqs = corpus.items.map((i) => ({ type: 'full_content_item', item_id: i.id }));
      const turn = h.serveTurn(reqs, { used: 200 }, { stepId: 's1', round: 1, itemScores: new Map([['ev-winter-range', 5]]) });
      assert.ok(turn.deferred.length > 0);
      assert.match(turn.text, /### Deferred \(context budget\)\nNot sent — items are never cut: .*Please prioritise/);
      // The most relevant item went first; every served item is whole.
      assert.equal(turn.entries.find((e) => (e.request as { item_id: string }).item_id === 'ev-winter-range')!.status, 'served');
      for (const e of turn.entries.filter((x) => x.status === 'served')) {
        const item = corpus.items.find((i) => i.id === e.served[0]!.item_id)!;
        const parts = new Set(e.served.map((x) => x.part));
        for (const p of parts) assert.equal(Math.max(...e.served.filter((x) => x.part === p).map((x) => x.end)), (p === 'transcript' ? item.transcript : item.comments)!.text.length);
      }
      assert.ok(turn.tokens <= 1300);
    });

    test('at most max_content_items_per_turn items are served a turn', () => {
      const h = handler({ max_content_items_per_turn: 2 });
      const turn = h.serveTurn(corpus.items.map((i) => ({ type: 'selective_markers', item_id: i.id, kinds: ['FACT'] })), { used: 0 }, { stepId: 's1', round: 1 });
      assert.equal(turn.entries.filter((e) => e.status === 'served').length, 2);
      assert.ok(turn.entries.filter((e) => e.status === 'deferred').every((e) => /max_content_items_per_turn/.test(e.reason ?? '')));
    });

    test('an item larger than the whole budget is paged in labelled chunks that cover it', () => {
      const item = corpus.items.find((i) => i.id === 'city-cycling-podcast')!;
      const h = handler({ context_window_limit: 250 });
      const first = h.serveTurn([{ type: 'full_content_item', item_id: item.id, part: 'transcript' }], { used: 0 }, { stepId: 's1', round: 1 });
      const n = Number(/chunk 1 of (\d+)/.exec(first.text)![1]);
      assert.ok(n >= 2);
      assert.equal(first.chunked, 1);
      assert.match(first.text, /Next: \{"type":"full_content_item","item_id":"city-cycling-podcast","part":"transcript","chunk":2\}/);
      let covered = Math.max(...first.sources.map((s) => s.end));
      for (let k = 2; k <= n; k++) {
        const t = h.serveTurn([{ type: 'full_content_item', item_id: item.id, part: 'transcript', chunk: k }], { used: 0 }, { stepId: 's1', round: k });
        assert.match(t.text, new RegExp(`chunk ${k} of ${n}`));
        assert.equal(Math.min(...t.sources.map((s) => s.start)) > 0, true);
        covered = Math.max(covered, ...t.sources.map((s) => s.end));
      }
      assert.equal(covered, item.transcript!.text.length);
    });

    test('by_topic serves retrieval passages with mapped spans', () => {
      const h = handler();
      const t = h.serveTurn([{ type: 'by_topic', topic: 'coffee prices freight', max_results: 2 }], { used: 0 }, { stepId: 's1', round: 1 });
      assert.equal(t.entries[0]!.status, 'served');
      assert.ok(t.sources.length >= 1 && t.sources.every((s) => s.source.file.length > 0));
    });
  });

  describe('citations', () => {
    const span = (id: string, start: number): SourceSpan => ({ source_id: id, item_id: 'a', part: 'transcript', start, end: start + 5, source: { file: 'a/transcript.json', startLine: 1, startColumn: 0, endLine: 1, endColumn: 5 } });
    const spans = new Map([['S1', span('S1', 0)], ['S2', span('S2', 10)], ['S3', span('S1', 0)]]);

    test('source ids become numbers in order of first use; unknown ids and bare numbers are removed and logged', () => {
      const log = recordingLogger();
      const r = resolveCitations('A [S2][S1]. B [S1, S9]. C [7]. A [link](http://x) and [note] stay. Dup [S3].', (id) => spans.get(id), log);
      assert.equal(r.markdown, 'A [1][2]. B [2]. C. A [link](http://x) and [note] stay. Dup [2].');
      assert.deepEqual(r.removed, ['S9', '7']);
      assert.deepEqual(r.sources.citations.map((c) => c.number), [1, 2]);
      assert.equal(r.sources.citations[0]!.span.start, 10);
      assert.ok(log.lines.some((l) => l.includes('[S9]')));
      const numbers = new Set(r.sources.citations.map((c) => c.number));
      assert.ok(citedNumbers(r.markdown).every((n) => numbers.has(n)), 'no dangling number');
    });
  });

  describe('de-duplication', () => {
    test('similar findings merge their sources; duplicate rate before and after, within and across phases', () => {
      const f = (text: string, phase: string, src: string) => ({ finding_id: src, step_id: phase, text, confidence: 0.5, source_ids: [src], phase_name: phase });
      const all = [
        f('Battery range drops by a third in cold weather', 'A', 'S1'),
        f('Battery range drops by a third in the cold weather', 'A', 'S2'),
        f('Coffee prices rose because of freight costs', 'B', 'S3'),
        f('Battery range drops by a third in cold weather', 'B', 'S4'),
        f('Hybrid work needs planned office days', 'C', 'S5'),
      ];
      assert.equal(dedupeFindings(all, 0.6).length, 3);
      assert.deepEqual(dedupeFindings(all, 0.6)[0]!.source_ids, ['S1', 'S2', 'S4']);
      assert.equal(duplicateRate(all, 0.6), 2 / 5);
      const { findings, stats } = dedupeEpic(all);
      assert.equal(findings.length, 3);
      assert.equal(stats.within_phase_rate_before, 1 / 5);
      assert.equal(stats.cross_phase_rate_before, 1 / 4);
      assert.equal(stats.rate_after, 0);
    });
  });

  describe('plan validation', () => {
    test('an edited plan with unknown or path-like item ids is rejected; unknown marker ids are dropped', async () => {
      const log = recordingLogger();
      const s = await openSession({ corpus, engine: 'extractive', promptsDir: 'prompts', markers, log });
      const step = { step_id: 's1', goal: 'g', required_content_items: ['ev-winter-range'], required_data: 'transcript', marker_relevance: ['bogus:F:0000000000'], retrieval_strategy: 'markers_only' };
      const ok = validatePlan(s, { goal: 'g', complexity: 'light', steps: [step] });
      assert.deepEqual(ok.steps[0]!.marker_relevance, []);
      assert.throws(() => validatePlan(s, { goal: 'g', complexity: 'light', steps: [{ ...step, required_content_items: ['../../x'] }] }), /research: plan: unknown item ids: \.\.\/\.\.\/x/);
      assert.throws(() => validatePlan(s, { goal: 'g', complexity: 'light', steps: [{ ...step, step_id: '../evil' }] }), /step id/);
      assert.throws(() => validatePlan(s, { goal: 'g', steps: [] }), /research: plan: /);
    });
  });

  describe('run status tells the truth (issue 10, class 1)', () => {
    const step = (id: string, status: StepResult['status'], cause?: string): StepResult => ({ step_id: id, status, rounds: 1, findings: [], insights: [], confidence: 0, sources: [], deferred: [], ...(cause ? { error: `llm: ${cause}`, cause } : {}) });

    test('the cause of a model failure is named from the LlmError reason and status', () => {
      assert.equal(failureCause(new LlmError('auth', 'not authorised: 401 Incorrect API key provided.', { status: 401 })), 'the model server rejected the API key (401)');
      assert.match(failureCause(new LlmError('rate-limited', 'rate limited: 429', { status: 429 })), /rate-limiting .*\(429\)/);
      assert.match(failureCause(new LlmError('server', 'server error: 500', { status: 500 })), /server error \(HTTP 500\)/);
      assert.match(failureCause(new LlmError('server', 'unparsable response from server: Unexpected token <')), /not JSON \(e\.g\. an HTML page\)/);
      assert.match(failureCause(new LlmError('context-length', "prompt exceeds the model's context: 400")), /context window \(context-length error\)/);
      assert.match(failureCause(new LlmError('network', 'connection failed: ECONNREFUSED')), /could not be reached.*ECONNREFUSED/);
      assert.match(failureCause(new LlmError('timeout', 'request timed out')), /did not answer in time/);
      assert.match(failureCause(new LlmError('invalid-reply', 'still invalid', { issues: ['findings: expected array'] })), /invalid even after a repair round \(findings: expected array\)/);
      assert.equal(failureCause(new Error('research: something broke')), 'something broke');
    });

    test('done only when every step did and the report is not a fallback; else failed or partial with the count', () => {
      const ids = ['s1', 's2', 's3'];
      const all = (st: StepResult['status']) => new Map(ids.map((id) => [id, step(id, st, st === 'failed' ? 'the model server rejected the API key (401)' : undefined)]));
      assert.deepEqual(runOutcome(ids, all('done')), { status: 'done' });
      const failed = runOutcome(ids, all('failed'));
      assert.equal(failed.status, 'failed');
      assert.deepEqual(failed.failed_steps, { failed: 3, total: 3 });
      assert.equal(failed.error, '3 of 3 steps failed (s1, s2, s3): the model server rejected the API key (401)');
      assert.deepEqual(failed.causes, ['the model server rejected the API key (401)']);
      const mixed = new Map([['s1', step('s1', 'done')], ['s2', step('s2', 'failed', 'the prompt is too long')], ['s3', step('s3', 'failed', 'timeout')]]);
      const partial = runOutcome(ids, mixed);
      assert.equal(partial.status, 'partial');
      assert.equal(partial.error, '2 of 3 steps failed (s2, s3): the prompt is too long; timeout');
      // A step without a result (never ran) counts as failed.
      assert.equal(runOutcome(ids, new Map([['s1', step('s1', 'done')]])).status, 'partial');
      // Every step done but the model could not write the report: partial, and said.
      const fb = runOutcome(ids, all('done'), 'the model could not write the report: timeout');
      assert.equal(fb.status, 'partial');
      assert.equal(fb.failed_steps, undefined);
      assert.match(fb.error ?? '', /the report is a fallback: the model could not write the report: timeout/);
    });

    test('run.json: old manifests stay readable; the new statuses and fields validate', () => {
      const old = { run_id: 'r1', created_at: '2025-01-01T00:00:00Z', corpus: '/c', goal: 'g', complexity: 'medium', engine: 'openai', model: 'm', status: 'done', steps: { s1: 'done' }, report: 'report.md' };
      assert.ok(runManifestSchema.safeParse(old).success);
      assert.ok(runManifestSchema.safeParse({ ...old, status: 'failed', error: 'boom' }).success);
      const partial = runManifestSchema.safeParse({ ...old, status: 'partial', steps: { s1: 'done', s2: 'failed' }, error: '1 of 2 steps failed (s2): x', failed_steps: { failed: 1, total: 2 }, causes: ['x'], fallback_report: 'why' });
      assert.ok(partial.success);
      assert.equal(runManifestSchema.safeParse({ ...old, status: 'half-done' }).success, false);
    });

    test('the CLI exit code is 0 only for done (and planned) runs', () => {
      assert.equal(exitCodeFor({ status: 'done' }), 0);
      assert.equal(exitCodeFor({ status: 'planned' }), 0);
      for (const st of ['partial', 'failed', 'cancelled'] as const) assert.equal(exitCodeFor({ status: st }), 1, st);
    });
  });
});
