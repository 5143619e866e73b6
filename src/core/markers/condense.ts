/**
 * Local condensation (seed 001, option B): an optional pass, meant for a local
 * Ollama model, that condenses each item into claims with grounded evidence
 * spans, counterpoints, categories, confidence and coverage accounting. Every
 * window is read; replies are validated and repaired once by the model client;
 * results are cached per item by content hash + model + prompt version + windows
 * and persisted under `<corpus>/.marker-research/condensed/` with an index. A window
 * rejected for context length is split as in marker generation (0.75×, or to the limit
 * the server states), and the smaller size is kept for every later window and item of
 * the pass (one {@link ContextLimit} shared by the whole pass).
 *
 * Research reads these files (src/core/research/condensedSource.ts) and serves them in
 * Phase 3 as `condensed_claims`, a level between markers and full content.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import { STORAGE_DIR } from '../corpus/loader';
import type { Corpus, CorpusItem } from '../corpus/types';
import { detectLanguage } from '../llm/langDetect';
import { writeFileAtomic } from '../storage/atomic';
import { readStateJson } from '../storage/readStateJson';
import { CancelledError, mapLimit, type ProgressSink } from '../util/abort';
import { claimSimilarity, evidenceFor } from './build';
import { alignerFor, ContextLimit, readPart, type MarkerModel, type PromptSource } from './modelEngine';
import { spamFreeComments, type SpamCorpus } from './spamFree';
import { persistedCorpusSpam } from './spamStore';
import { coverageSchema, evidenceSchema } from './schema';
import { markerFileName, type ReadResult } from './store';
import { DEFAULT_WINDOW_SETTINGS, type WindowSettings } from './windows';

/** What the model returns for one window. */
export const condenseWindowReplySchema = z.object({
  claims: z.array(
    z.object({
      text: z.string().describe('a key claim or argument, one sentence'),
      quote: z.string().describe('a short verbatim quote from the window supporting it'),
      category: z.string().describe('one or two words: what kind of claim (e.g. safety, cost, opinion of X)'),
      confidence: z.number().min(0).max(1),
      counterpoints: z.array(z.string()).describe('objections, caveats or contrary views raised in the window'),
    }),
  ),
  categories: z.array(z.string()),
});
export type CondenseWindowReply = z.infer<typeof condenseWindowReplySchema>;

export const condensedClaimSchema = z.object({
  claim_id: z.string(),
  part: z.enum(['transcript', 'comments']),
  text: z.string(),
  category: z.string(),
  confidence: z.number().min(0).max(1),
  counterpoints: z.array(z.string()),
  evidence: z.array(evidenceSchema),
  grounded: z.boolean(),
});
export type CondensedClaim = z.infer<typeof condensedClaimSchema>;

export const condensedItemSchema = z.object({
  item_id: z.string(),
  title: z.string(),
  content_hash: z.string(),
  model: z.string(),
  prompt_version: z.string(),
  cache_key: z.string(),
  generated_at: z.string(),
  claims: z.array(condensedClaimSchema),
  categories: z.array(z.string()),
  coverage: z.object({ transcript: coverageSchema.nullable(), comments: coverageSchema.nullable() }),
  usage: z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), calls: z.number().int().nonnegative() }),
});
export type CondensedItem = z.infer<typeof condensedItemSchema>;

export function condensedDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'condensed');
}

/** The file of an item's condensation. */
export function condensedFile(root: string, itemId: string): string {
  return path.join(condensedDir(root), markerFileName(itemId));
}

/**
 * Reads an item's condensation (through the shared read pool); only a file that does not exist is
 * `missing`, one that cannot be read is `unreadable` and an invalid one says why; one that is not a
 * real file inside the corpus (a symbolic link, …) is refused unread, saying what to do.
 */
export async function readCondensedItem(root: string, itemId: string): Promise<ReadResult<CondensedItem>> {
  return (await readStateJson(condensedFile(root, itemId), condensedItemSchema)).result;
}

export interface CondenseOptions {
  model: MarkerModel;
  prompts: PromptSource;
  windows?: WindowSettings;
  /** Items condensed at once; model calls are limited by the client's semaphore. */
  parallelism?: number;
  force?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: { info(m: string): void; warn(m: string): void };
  /** The corpus spam is decided over when `corpus` is a part of it (see generateMarkers' option). Default: `corpus`. */
  spamCorpus?: SpamCorpus & { root: string };
}

export interface CondenseReport {
  generated: number;
  cached: number;
  failed: { itemId: string; error: string }[];
  claims: number;
  grounded: number;
  usage: { promptTokens: number; completionTokens: number; calls: number };
}

async function condenseItem(item: CorpusItem, opts: CondenseOptions, key: string, version: string, context: ContextLimit): Promise<CondensedItem> {
  const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
  const model: MarkerModel = {
    provider: opts.model.provider,
    model: opts.model.model,
    complete: async (req) => {
      const r = await opts.model.complete(req);
      usage.promptTokens += r.usage.promptTokens;
      usage.completionTokens += r.usage.completionTokens;
      usage.calls += r.attempts;
      return r;
    },
  };
  const lang = detectLanguage(`${item.title}\n${(item.transcript?.text ?? item.comments?.text ?? '').slice(0, 4000)}`) === 'zh' ? 'zh' : 'en';
  const engineOpts = {
    model,
    prompts: opts.prompts,
    windows: opts.windows ?? DEFAULT_WINDOW_SETTINGS,
    signal: opts.signal,
    lang,
    context,
    log: (m: string) => opts.log?.info(m.replace(/^markers:/, 'condense:')),
  } as const;
  const claims: CondensedItem['claims'] = [];
  const categories = new Map<string, number>();
  const coverage: CondensedItem['coverage'] = { transcript: null, comments: null };
  // The model never reads spam: the comments without it (`spamFree.ts`; the corpus's decision, made in condenseCorpus).
  for (const part of [item.transcript, spamFreeComments(item)]) {
    if (!part || part.wordCount === 0) continue;
    const { outcomes, coverage: cov } = await readPart(item, part, engineOpts, 'condense', condenseWindowReplySchema, 'condense');
    if (!cov.complete) throw new Error(`condense: coverage check failed for ${item.id} ${part.kind}: read ${cov.wordsSeen} of ${cov.totalWords} words`);
    coverage[part.kind] = cov;
    for (const o of outcomes) {
      for (const c of o.reply.categories) categories.set(c.trim(), (categories.get(c.trim()) ?? 0) + 1);
      for (const c of o.reply.claims) {
        const same = claims.find((x) => x.part === part.kind && claimSimilarity(x.text, c.text) >= 0.8);
        const a = alignerFor(part, o.window).align(c.quote, c.text);
        const ev = a ? evidenceFor(item, part.kind, a.start, a.end, a.match) : undefined;
        if (same) {
          if (ev && !same.evidence.some((e) => e.start === ev.start && e.end === ev.end)) same.evidence.push(ev);
          same.counterpoints = [...new Set([...same.counterpoints, ...c.counterpoints])];
          same.confidence = Math.max(same.confidence, c.confidence);
          same.grounded = same.evidence.length > 0;
          continue;
        }
        const id = `${item.id}:C:${createHash('sha256').update(c.text).digest('hex').slice(0, 10)}`;
        claims.push({
          // The same text in the other part gets its own id.
          claim_id: claims.some((x) => x.claim_id === id) ? `${id}:${part.kind[0]}` : id,
          part: part.kind,
          text: c.text,
          category: c.category,
          confidence: c.confidence,
          counterpoints: c.counterpoints,
          evidence: ev ? [ev] : [],
          grounded: !!ev,
        });
      }
    }
  }
  return {
    item_id: item.id,
    title: item.title,
    content_hash: item.contentHash,
    model: opts.model.model,
    prompt_version: version,
    cache_key: key,
    generated_at: new Date().toISOString(),
    claims,
    categories: [...categories].sort((a, b) => b[1] - a[1]).map(([c]) => c).slice(0, 12),
    coverage,
    usage,
  };
}

/**
 * Condenses every item (cached), persisting `condensed/<item>.json` and `condensed/index.json`.
 * One item failing never loses another item's result.
 */
export async function condenseCorpus(corpus: Corpus, opts: CondenseOptions): Promise<CondenseReport> {
  const versions = [...new Set(await Promise.all((['en', 'zh'] as const).map(async (l) => (await opts.prompts('condense', l)).version)))].sort().join(',');
  const windows = opts.windows ?? DEFAULT_WINDOW_SETTINGS;
  const report: CondenseReport = { generated: 0, cached: 0, failed: [], claims: 0, grounded: 0, usage: { promptTokens: 0, completionTokens: 0, calls: 0 } };
  const index: Record<string, { file: string; cache_key: string; claims: number; grounded: number }> = {};
  let done = 0;
  // What the pass learns about the model's context carries to every later window and item.
  const context = new ContextLimit();
  // Spam is decided over the corpus (templates across items), before the first item is condensed: the saved decision
  // when it was made for this content (spamStore.ts: nothing parsed), else decided and saved. A pass with every item
  // cached needs none.
  let spamReady: Promise<unknown> | undefined;
  const decideSpam = (): Promise<unknown> =>
    (spamReady ??= persistedCorpusSpam(opts.spamCorpus ?? corpus).then(({ saveError }) => {
      if (saveError) opts.log?.warn(`condense: the spam decision was not saved (${saveError})`);
    }));

  await mapLimit(
    corpus.items,
    opts.parallelism ?? 8,
    async (item) => {
      const key = createHash('sha256').update(JSON.stringify({ h: item.contentHash, m: opts.model.model, p: opts.model.provider, versions, windows })).digest('hex').slice(0, 24);
      const read = await readCondensedItem(corpus.root, item.id);
      if (!read.ok && !read.missing) opts.log?.warn(`condense: ${read.error ?? item.id}`);
      const previous = read.ok ? read.value : undefined;
      let result = opts.force ? undefined : previous;
      if (result && result.cache_key === key) {
        report.cached++;
      } else {
        try {
          await decideSpam();
          result = await condenseItem(item, opts, key, versions, context);
          await writeFileAtomic(condensedFile(corpus.root, item.id), `${JSON.stringify(condensedItemSchema.parse(result), null, 1)}\n`);
          report.generated++;
          for (const k of ['promptTokens', 'completionTokens', 'calls'] as const) report.usage[k] += result.usage[k];
        } catch (e) {
          if (e instanceof CancelledError || opts.signal?.aborted) throw e instanceof CancelledError ? e : new CancelledError();
          opts.log?.warn(`condense: ${item.id} failed: ${(e as Error).message}`);
          report.failed.push({ itemId: item.id, error: (e as Error).message });
          // The earlier result (if any) stays on disk and in the index, marked by its old cache key.
          result = previous;
        }
      }
      if (result) {
        index[item.id] = { file: markerFileName(item.id), cache_key: result.cache_key, claims: result.claims.length, grounded: result.claims.filter((c) => c.grounded).length };
        report.claims += result.claims.length;
        report.grounded += index[item.id]!.grounded;
      }
      opts.onProgress?.({ done: ++done, total: corpus.items.length, message: item.id });
    },
    opts.signal,
  ).finally(() => writeFileAtomic(path.join(condensedDir(corpus.root), 'index.json'), `${JSON.stringify({ version: 1, items: index }, null, 1)}\n`).catch(() => undefined));
  return report;
}
