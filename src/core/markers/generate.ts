/**
 * Phase 0: markers for every item of a corpus, cached by content hash +
 * engine + model + prompt versions + settings. Items run in parallel; model
 * calls are throttled by the model client's global semaphore. One item failing
 * never loses another item's finished markers.
 */
import { createHash } from 'node:crypto';
import type { Corpus, CorpusItem } from '../corpus/types';
import { detectLanguage } from '../llm/langDetect';
import type { StructuredRequest, StructuredResult } from '../llm/types';
import { sweepStaleLocks } from '../storage/fileLock';
import { MISSING_VERSION } from '../storage/readStateJson';
import { CancelledError, mapLimit, throwIfAborted, type ProgressSink } from '../util/abort';
import { extractItem } from './extractive';
import { DEFAULT_DENSITY } from './extractiveTranscript';
import type { SpamDecision } from './spam';
import { spamFreeComments, type SpamCorpus } from './spamFree';
import { persistedCorpusSpam } from './spamStore';
import { storedTopics, TopicStats, topicCounts } from './keyphrases';
import { ContextLimit, modelMarkersForItem, type MarkerModel, type PromptSource } from './modelEngine';
import type { EngineName, ItemMarkers, MarkersIndex } from './schema';
import { allMarkers, markerFileName, markersDir, readItemMarkersVersioned, readMarkersIndex, updateMarkersIndex, writeItemMarkers } from './store';
import { DEFAULT_WINDOW_SETTINGS, type WindowSettings } from './windows';

/** Bumped when the extractive engine's output changes: part of its cache key. */
export const EXTRACTIVE_VERSION = 'extractive@5';

/** `density`: the extractive engine's transcript markers per 1,000 words (default 3). */
export type MarkerEngine = { kind: 'extractive'; density?: number } | { kind: 'model'; model: MarkerModel; prompts: PromptSource };

export interface GenerateOptions {
  engine: MarkerEngine;
  windows?: WindowSettings;
  /** Items processed at once (model calls are limited separately by the client). */
  itemConcurrency?: number;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Regenerate even when the cache is valid. */
  force?: boolean;
  log?: { info(m: string): void; warn(m: string): void };
  /**
   * The corpus spam is decided over, when `corpus` is a part of it (the items of a run that makes
   * only the missing markers, or those of a scope): spam is decided over the whole corpus (a template
   * repeated under other items counts), and the decision saved for it is the one read. Default: `corpus`.
   */
  spamCorpus?: SpamCorpus & { root: string };
}

export interface ItemReport {
  itemId: string;
  status: 'cached' | 'generated' | 'failed';
  markers: number;
  grounded: number;
  coverage: ItemMarkers['coverage'] | null;
  usage: ItemMarkers['usage'];
  ms: number;
  error?: string;
}

export interface GenerateReport {
  engine: EngineName;
  model: string | null;
  items: ItemReport[];
  cached: number;
  generated: number;
  failed: number;
  /** Tokens and successful calls of the items generated now; `failedCalls`: model calls that failed after their retries. */
  usage: { promptTokens: number; completionTokens: number; calls: number; failedCalls: number };
  ms: number;
}

function engineName(e: MarkerEngine): EngineName {
  return e.kind === 'extractive' ? 'extractive' : e.model.provider;
}

async function promptVersions(e: MarkerEngine): Promise<string[]> {
  if (e.kind === 'extractive') return [e.density !== undefined && e.density !== DEFAULT_DENSITY ? `${EXTRACTIVE_VERSION}/density=${e.density}` : EXTRACTIVE_VERSION];
  const out: string[] = [];
  for (const name of ['markers-transcript', 'markers-comments'] as const) for (const lang of ['en', 'zh'] as const) out.push((await e.prompts(name, lang)).version);
  return [...new Set(out)].sort();
}

/** The cache key of an item's markers. */
export function cacheKey(item: CorpusItem, engine: EngineName, model: string | null, versions: readonly string[], windows: WindowSettings, spamIds?: readonly string[]): string {
  // Spam is judged over the whole corpus (a template repeated under other videos counts): the item's verdict is part of the key.
  // As a set: the verdict stored with the markers lists a comment once per record (an id can repeat), the detector once.
  const ids = spamIds?.length ? [...new Set(spamIds)].sort() : [];
  const spam = ids.length ? createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 16) : undefined;
  return createHash('sha256').update(JSON.stringify({ h: item.contentHash, engine, model, versions, windows: engine === 'extractive' ? null : windows, ...(spam ? { spam } : {}) })).digest('hex').slice(0, 24);
}

function itemLanguage(item: CorpusItem): 'en' | 'zh' {
  return detectLanguage(`${item.title}\n${(item.transcript?.text ?? item.comments?.text ?? '').slice(0, 4000)}`) === 'zh' ? 'zh' : 'en';
}

/** Counts the usage of every call an item makes. */
function meteredModel(model: MarkerModel, usage: ItemMarkers['usage'], failures: { calls: number }): MarkerModel {
  return {
    provider: model.provider,
    model: model.model,
    async complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
      let r: StructuredResult<T>;
      try {
        r = await model.complete(req);
      } catch (e) {
        // A call that failed (after its retries) is counted too: the summary never says "0 model calls" after failures.
        failures.calls++;
        throw e;
      }
      usage.promptTokens += r.usage.promptTokens;
      usage.completionTokens += r.usage.completionTokens;
      usage.calls += r.attempts;
      return r;
    },
  };
}

/**
 * Generates (or reuses) markers for every item and persists them.
 *
 * @example
 * const report = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
 */
export async function generateMarkers(corpus: Corpus, opts: GenerateOptions): Promise<GenerateReport> {
  const started = Date.now();
  const engine = engineName(opts.engine);
  const model = opts.engine.kind === 'model' ? opts.engine.model.model : null;
  const windows = opts.windows ?? DEFAULT_WINDOW_SETTINGS;
  const versions = await promptVersions(opts.engine);
  // The locks a killed run left beside marker files it never finished writing: removed before this run takes its own.
  const sweptLocks = await sweepStaleLocks(markersDir(corpus.root));
  if (sweptLocks.length) opts.log?.info(`markers: removed ${sweptLocks.length} lock file${sweptLocks.length === 1 ? '' : 's'} left by processes that no longer exist`);
  const index = await readMarkersIndex(corpus.root);

  // Which items need work. Every marker file is read (through the shared read pool), also with
  // `force`: its version is what the write later compares with (another writer's file is never
  // silently replaced). A file that exists but cannot be read fails its item — it is never taken
  // for missing and generated again.
  const existing = new Map<string, ItemMarkers>();
  const fileVersions = new Map<string, string>();
  const unreadable = new Map<string, string>();
  await Promise.all(
    corpus.items.map(async (item) => {
      const { result: r, version } = await readItemMarkersVersioned(corpus.root, item.id);
      if (version !== undefined) fileVersions.set(item.id, version);
      if (r.ok) {
        if (!opts.force) existing.set(item.id, r.value);
      } else if (r.unreadable) unreadable.set(item.id, r.error ?? `${markerFileName(item.id)}: could not be read`);
      else if (!r.missing) opts.log?.warn(`markers: ${r.error}; regenerating`);
    }),
  );
  // Spam is decided over the whole corpus (a template repeated under several videos counts), so an item's verdict is
  // part of its cache key. When no item was added, removed or changed since the last run, the verdicts stored with the
  // markers are still the verdicts: the detection (work over every comment) runs only when something changed. Otherwise
  // the corpus's saved decision is read when it was made for its current content (spamStore.ts: nothing parsed), else
  // it is decided (every item with comments parsed) and saved for the next run and for Ask.
  let spamRead: Promise<Map<string, SpamDecision>> | undefined;
  const spamOf = (): Promise<Map<string, SpamDecision>> =>
    (spamRead ??= persistedCorpusSpam(opts.spamCorpus ?? corpus).then(({ spam, saveError }) => {
      if (saveError) opts.log?.warn(`markers: the spam decision was not saved (${saveError}); the next run decides it again`);
      return spam;
    }));
  const unchanged =
    Object.keys(index.items).length === corpus.items.length &&
    corpus.items.every((item) => index.items[item.id] !== undefined && existing.get(item.id)?.content_hash === item.contentHash);
  // Both engines read the comments without spam (a model is never sent spam), so the verdict is part of both keys.
  const spamIds = async (item: CorpusItem): Promise<string[]> => {
    const stored = existing.get(item.id);
    if (unchanged && stored?.engine === engine && (stored.comments_summary?.spam || !stored.comments_summary)) return stored.comments_summary?.spam?.comment_ids ?? [];
    return [...((await spamOf()).get(item.id)?.ids ?? [])];
  };
  const plan: { item: CorpusItem; key: string; cached: ItemMarkers | undefined }[] = [];
  for (const item of corpus.items) {
    const key = cacheKey(item, engine, model, versions, windows, await spamIds(item));
    const cached = existing.get(item.id);
    plan.push({ item, key, cached: cached && cached.cache_key === key ? cached : undefined });
  }
  let stats: TopicStats | undefined;
  if (opts.engine.kind === 'extractive' && plan.some((p) => !p.cached)) {
    stats = new TopicStats();
    for (const item of corpus.items) stats.addDocument(topicCounts(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`).keys());
    // Topics are chosen against this table (never one common to nearly every item); it is not part of the cache key, so a
    // new item leaves the others cached, except an item whose stored topics have become common since: it is made again.
    for (const p of plan) if (p.cached?.engine === 'extractive' && storedTopics(p.cached).some((t) => stats!.common(t))) p.cached = undefined;
  }

  let done = 0;
  const total = plan.length;
  const indexed: MarkersIndex['items'] = {};
  // What the run learns about the model's context carries to every later item and window.
  const context = new ContextLimit();
  const failures = { calls: 0 };
  const reports = await mapLimit(
    plan,
    opts.itemConcurrency ?? 16,
    async ({ item, key, cached }): Promise<ItemReport> => {
      const t0 = Date.now();
      const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
      const unread = unreadable.get(item.id);
      if (unread !== undefined) {
        opts.log?.warn(`markers: ${item.id} failed: ${unread}`);
        opts.onProgress?.({ done: ++done, total, message: `${item.id} failed` });
        return { itemId: item.id, status: 'failed', markers: 0, grounded: 0, coverage: null, usage, ms: 0, error: unread };
      }
      if (cached) {
        const ms = allMarkers(cached);
        opts.onProgress?.({ done: ++done, total, message: `${item.id} (cached)` });
        return { itemId: item.id, status: 'cached', markers: ms.length, grounded: ms.filter((m) => m.grounded).length, coverage: cached.coverage, usage: cached.usage, ms: 0 };
      }
      try {
        throwIfAborted(opts.signal);
        let result: Pick<ItemMarkers, 'transcript_summary' | 'comments_summary' | 'coverage'>;
        const itemSpam = (await spamOf()).get(item.id);
        if (opts.engine.kind === 'extractive') {
          result = extractItem(item, stats!, { ...(opts.engine.density !== undefined ? { density: opts.engine.density } : {}), ...(itemSpam ? { spam: itemSpam } : {}) });
        } else {
          result = await modelMarkersForItem(item, { model: meteredModel(opts.engine.model, usage, failures), prompts: opts.engine.prompts, windows, signal: opts.signal, lang: itemLanguage(item), context, log: (m) => opts.log?.info(m), comments: spamFreeComments(item, opts.spamCorpus ?? corpus) });
        }
        for (const [part, cov] of Object.entries(result.coverage)) {
          if (cov && !cov.complete) throw new Error(`markers: coverage check failed for ${item.id} ${part}: read ${cov.wordsSeen} of ${cov.totalWords} words${cov.missingRanges?.length ? `; words never sent: ${cov.missingRanges.map(([a, b]) => `${a}–${b}`).join(', ')}` : ''}`);
          if (cov) opts.log?.info(`markers: ${item.id} ${part}: ${cov.windows} windows, ${cov.wordsSeen}/${cov.totalWords} words, duplication ${cov.duplicationRatio}${cov.shrunkWindows ? `, ${cov.shrunkWindows} shrunk` : ''}`);
        }
        const record: ItemMarkers = {
          item_id: item.id,
          title: item.title,
          content_hash: item.contentHash,
          engine,
          model,
          prompt_version: versions.join(','),
          cache_key: key,
          generated_at: new Date().toISOString(),
          ...result,
          usage,
        };
        await writeItemMarkers(corpus.root, record, { expected: fileVersions.get(item.id) ?? MISSING_VERSION });
        const ms = allMarkers(record);
        indexed[item.id] = { file: markerFileName(item.id), cache_key: key, engine, total_markers: ms.length, grounded: ms.filter((m) => m.grounded).length };
        opts.onProgress?.({ done: ++done, total, message: item.id });
        return { itemId: item.id, status: 'generated', markers: ms.length, grounded: ms.filter((m) => m.grounded).length, coverage: record.coverage, usage, ms: Date.now() - t0 };
      } catch (e) {
        if (e instanceof CancelledError || opts.signal?.aborted) throw e instanceof CancelledError ? e : new CancelledError();
        opts.log?.warn(`markers: ${item.id} failed: ${(e as Error).message}`);
        opts.onProgress?.({ done: ++done, total, message: `${item.id} failed` });
        return { itemId: item.id, status: 'failed', markers: 0, grounded: 0, coverage: null, usage, ms: Date.now() - t0, error: (e as Error).message };
      }
    },
    opts.signal,
  ).finally(async () => {
    // Whatever finished is indexed, even when the run was cancelled (merged into the index as it is now).
    await updateMarkersIndex(corpus.root, indexed).catch(() => undefined);
  });
  // Calls of failed items count too (their successful windows cost tokens as well).
  const sum = (k: 'promptTokens' | 'completionTokens' | 'calls'): number => reports.filter((r) => r.status !== 'cached').reduce((a, r) => a + r.usage[k], 0);
  return {
    engine,
    model,
    items: reports,
    cached: reports.filter((r) => r.status === 'cached').length,
    generated: reports.filter((r) => r.status === 'generated').length,
    failed: reports.filter((r) => r.status === 'failed').length,
    usage: { promptTokens: sum('promptTokens'), completionTokens: sum('completionTokens'), calls: sum('calls'), failedCalls: failures.calls },
    ms: Date.now() - started,
  };
}
