/**
 * What every phase of a research run shares: the corpus and its markers, the engine (extractive
 * or a model client), prompts, limits, token accounting per phase and step, and the event stream
 * the extension shows as live status.
 */
import type { Corpus, CorpusItem } from '../corpus/types';
import type { ModelClient } from '../llm/client';
import { loadPrompt, type Prompt } from '../llm/prompts';
import type { ChatMessage, StructuredResult } from '../llm/types';
import type { ItemMarkers } from '../markers/schema';
import { readItemMarkers } from '../markers/store';
import { CorpusIndex } from '../search/corpusIndex';
import type { ProgressSink } from '../util/abort';
import { nullLogger, type Logger } from '../util/log';
import type { z } from 'zod';
import { overviewLanguage, type OverviewInput } from './overview';
import { researchConfigSchema, type RequestLogEntry, type ResearchConfig, type ResearchConfigInput, type RunManifest, type RunUsage, type StepStatus } from './schema';

/** The engine of a run: `'extractive'` (no model, offline) or a model client. */
export type ResearchEngine = 'extractive' | ModelClient;

/** Live status of a run, for the sidebar (and the CLI's progress line). */
export type ResearchEvent =
  | { type: 'run'; run_id: string; run_dir: string; status: RunManifest['status'] }
  | { type: 'phase'; phase: 'goals' | 'plan' | 'execute' | 'synthesis'; status: 'running' | 'done' }
  | { type: 'step'; step_id: string; status: StepStatus; phase_name?: string; round?: number; error?: string }
  | { type: 'request'; step_id: string; round: number; request_type: string; status: RequestLogEntry['status']; reason?: string }
  | { type: 'report'; path: string }
  /** Planning fell short of what was asked (a failed model call and its extractive stand-in, an epic run with one phase): also in the plan's `notes` and the report. */
  | { type: 'notice'; phase: 'goals' | 'plan'; message: string };

/**
 * What every entry point of the pipeline takes.
 *
 * - `corpus`: the loaded corpus (`loadCorpus`); markers are read from its `.marker-research/markers/`
 *   unless `markers` is given (generate missing ones first with `generateMarkers`).
 * - `index`: the search index for `by_topic` requests (built in memory on first use when absent).
 * - `engine`: `'extractive'` or a {@link ModelClient} (`createModelClient`; its semaphore is the
 *   one global concurrency limit of every call of the run).
 * - `promptsDir`: the folder of `research-*.{en,zh}.md`.
 * - `log`, `signal` (aborts model calls and stops the run; it can be resumed), `onEvent` (live
 *   status), `onProgress` (steps done / total), `config` (limits, see `researchConfigSchema`).
 */
export interface ResearchContext {
  corpus: Corpus;
  index?: CorpusIndex;
  engine: ResearchEngine;
  promptsDir: string;
  log?: Logger;
  signal?: AbortSignal;
  onEvent?: (event: ResearchEvent) => void;
  onProgress?: ProgressSink;
  config?: ResearchConfigInput;
  /** Markers by item id (default: read from the corpus's marker store). */
  markers?: ReadonlyMap<string, ItemMarkers>;
  /**
   * The items a run may research (ids of the corpus; default every item): goals, plans and the
   * "Not covered" list are about these only. Citations still resolve into the whole corpus.
   * Unknown ids are refused ({@link ScopeError}).
   */
  scope?: readonly string[];
}

/** A scope (`--items`) that names items the corpus does not have. */
export class ScopeError extends Error {
  constructor(
    readonly unknown: readonly string[],
    message: string,
  ) {
    super(message);
    this.name = 'ScopeError';
  }
}

/**
 * The corpus's items a scope keeps, in corpus order (every item without a scope).
 * @throws ScopeError naming the ids the corpus does not have.
 */
export function scopedItems(items: readonly CorpusItem[], scope: readonly string[] | undefined): CorpusItem[] {
  if (!scope) return [...items];
  const known = new Set(items.map((i) => i.id));
  const unknown = [...new Set(scope.filter((id) => !known.has(id)))];
  if (unknown.length) throw new ScopeError(unknown, `research: the scope names ${unknown.length} item id${unknown.length === 1 ? '' : 's'} the corpus does not have: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`);
  const wanted = new Set(scope);
  return items.filter((i) => wanted.has(i.id));
}

/** Token accounting of a run by phase and by `execute/<step_id>`. */
export class UsageTracker {
  readonly data: RunUsage;
  constructor(initial?: RunUsage) {
    this.data = initial ? structuredClone(initial) : { byPhase: {}, byStep: {} };
  }
  add(phase: string, step: string | undefined, u: { promptTokens: number; completionTokens: number }, calls = 1): void {
    const bump = (rec: Record<string, { promptTokens: number; completionTokens: number; calls: number }>, key: string): void => {
      const t = (rec[key] ??= { promptTokens: 0, completionTokens: 0, calls: 0 });
      t.promptTokens += u.promptTokens;
      t.completionTokens += u.completionTokens;
      t.calls += calls;
    };
    bump(this.data.byPhase, phase);
    if (step !== undefined) bump(this.data.byStep, `${phase}/${step}`);
  }
  /** Drops a step's accounting (a step that is run again on resume). */
  resetStep(phase: string, step: string): void {
    const key = `${phase}/${step}`;
    const t = this.data.byStep[key];
    const p = this.data.byPhase[phase];
    if (t && p) {
      p.promptTokens -= t.promptTokens;
      p.completionTokens -= t.completionTokens;
      p.calls -= t.calls;
    }
    delete this.data.byStep[key];
  }
}

/** The shared state of one run. */
export interface Session {
  corpus: Corpus;
  items: Map<string, CorpusItem>;
  markers: ReadonlyMap<string, ItemMarkers>;
  /** The items in scope ({@link ResearchContext.scope}; every item by default) with their markers. */
  inputs: OverviewInput[];
  config: ResearchConfig;
  engine: ResearchEngine;
  log: Logger;
  signal: AbortSignal | undefined;
  lang: 'en' | 'zh';
  usage: UsageTracker;
  emit: (e: ResearchEvent) => void;
  /** What planning fell short of so far (see {@link Session.notice}); the plan carries them as `notes`. */
  notes: string[];
  /** Says out loud that planning fell short of what was asked: logged, emitted as a `notice` event, and kept for the plan and report. */
  notice(phase: 'goals' | 'plan', message: string): void;
  ctx: ResearchContext;
  /** The search index of the corpus: the context's, or built in memory on first use (once per session). */
  searchIndex(): CorpusIndex;
  /** The index if the context gave one or {@link Session.searchIndex} built it; undefined otherwise. */
  builtIndex(): CorpusIndex | undefined;
  prompt(name: string): Promise<Prompt>;
  /** One structured model call, accounted under `phase` / `step`. */
  call<T>(args: { messages: readonly ChatMessage[]; schema: z.ZodType<T>; schemaName: string; phase: string; step?: string }): Promise<StructuredResult<T>>;
}

/**
 * The markers of every item that has them, read through the shared read pool. A file that does not
 * validate is logged and skipped; one that exists but cannot be read (after the pool's retries) is
 * listed in `unreadable` with its reason, naming the file — never taken for "no markers".
 */
export async function readMarkerMap(corpus: Corpus, log: Logger = nullLogger): Promise<{ markers: Map<string, ItemMarkers>; unreadable: string[] }> {
  const markers = new Map<string, ItemMarkers>();
  const unreadable: string[] = [];
  await Promise.all(
    corpus.items.map(async (item) => {
      const r = await readItemMarkers(corpus.root, item.id);
      if (r.ok) markers.set(item.id, r.value);
      else if (r.unreadable) unreadable.push(r.error ?? `${item.id}: marker file unreadable`);
      else if (!r.missing) log.warn(`research: ${r.error ?? item.id}`);
    }),
  );
  unreadable.sort();
  for (const e of unreadable) log.error(`research: ${e}`);
  return { markers, unreadable };
}

/** {@link readMarkerMap}'s markers (unreadable files are logged as errors). */
export async function loadMarkerMap(corpus: Corpus, log: Logger = nullLogger): Promise<Map<string, ItemMarkers>> {
  return (await readMarkerMap(corpus, log)).markers;
}

/** Builds the session of a run from its context. */
export async function openSession(ctx: ResearchContext, usage?: RunUsage): Promise<Session> {
  const log = ctx.log ?? nullLogger;
  const scoped = scopedItems(ctx.corpus.items, ctx.scope);
  const read = ctx.markers ? { markers: ctx.markers, unreadable: [] } : await readMarkerMap(ctx.corpus, log);
  const markers = read.markers;
  const inputs = scoped.map((item) => ({ item, markers: markers.get(item.id) }));
  const config = researchConfigSchema.parse(ctx.config ?? {});
  const tracker = new UsageTracker(usage);
  const prompts = new Map<string, Promise<Prompt>>();
  const lang = overviewLanguage(inputs);
  let index = ctx.index;
  const session: Session = {
    corpus: ctx.corpus,
    items: new Map(ctx.corpus.items.map((i) => [i.id, i])),
    markers,
    inputs,
    config,
    engine: ctx.engine,
    log,
    signal: ctx.signal,
    lang,
    usage: tracker,
    ctx,
    emit: (e) => {
      try {
        ctx.onEvent?.(e);
      } catch (error) {
        log.warn(`research: event listener failed: ${(error as Error).message}`);
      }
    },
    notes: [],
    searchIndex: () => (index ??= CorpusIndex.build(ctx.corpus)),
    builtIndex: () => index,
    notice(phase, message) {
      log.warn(`research: ${message}`);
      if (!this.notes.includes(message)) this.notes.push(message);
      this.emit({ type: 'notice', phase, message });
    },
    prompt(name) {
      let p = prompts.get(name);
      if (!p) prompts.set(name, (p = loadPrompt(ctx.promptsDir, name, lang)));
      return p;
    },
    async call(args) {
      if (ctx.engine === 'extractive') throw new Error('research: no model (extractive engine)');
      try {
        const r = await ctx.engine.complete({ ...args, signal: ctx.signal });
        tracker.add(args.phase, args.step, r.usage, r.attempts);
        return r;
      } catch (error) {
        const u = (error as { usage?: { promptTokens: number; completionTokens: number } }).usage;
        if (u) tracker.add(args.phase, args.step, u);
        throw error;
      }
    },
  };
  if (read.unreadable.length) {
    // Said in the plan and the report: these items are researched without the markers they have.
    const n = read.unreadable.length;
    session.notice('goals', `the marker files of ${n} item${n === 1 ? '' : 's'} could not be read, so ${n === 1 ? 'it is' : 'they are'} researched without ${n === 1 ? 'its' : 'their'} markers: ${read.unreadable.slice(0, 3).join('; ')}${n > 3 ? `; and ${n - 3} more` : ''}`);
  }
  return session;
}
