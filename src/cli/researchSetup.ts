/**
 * What the research commands (`research`, `goals`) share, in one place: their common options
 * (engine, scope, overview size, output), the research limits, and a corpus made ready for
 * research — loaded, its errors said, the scope checked, missing markers generated with the same
 * engine — as a {@link ResearchContext}.
 */
import { formatProblem, type Corpus } from '../core/corpus/types';
import type { EngineSettings } from '../core/markers/engineFactory';
import { loadSavedCorpusSpam } from '../core/markers/spamStore';
import { createMarkerEngine } from '../core/markers/engineFactory';
import { generateMarkers } from '../core/markers/generate';
import type { ResearchContext, ResearchEvent } from '../core/research/pipeline';
import { researchConfigSchema, type ResearchConfigInput } from '../core/research/schema';
import type { Logger } from '../core/util/log';
import { openExistingCorpus } from './commandCorpus';
import { UsageError, type CliContext } from './io';
import { checkItemScope } from './itemScope';
import { concurrencyOption, intOption, promptsDir, timeoutMsOption } from './markersCommand';

/** Defaults of the research limits (the extension's `markerResearch.*` settings have the same). */
export const RESEARCH_DEFAULTS = researchConfigSchema.parse({});

/** The `parseArgs` options `research` and `goals` both take. */
export const SHARED_RESEARCH_OPTIONS = {
  provider: { type: 'string', default: 'extractive' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  'overview-max-items': { type: 'string' },
  items: { type: 'string' },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
} as const;

/** Usage lines of the engine options (`--provider` … `--timeout`). */
export const ENGINE_USAGE = `  --provider P        extractive (default, no model) | openai | ollama
  --base-url URL      OpenAI-compatible API root (…/v1) or Ollama host
  --model NAME        model name
  --concurrency N     model calls at once, 1–64 (default 4)
  --timeout SECONDS   deadline of one model request (default 120; a timed-out request is retried once)`;

/** Usage lines of `--items`. */
export const ITEMS_USAGE = `  --items ID[,ID…]|@FILE
                      only these items (ids as \`index\` lists them; @FILE: one id a line);
                      an id the corpus does not have is refused (exit 2) with the ids it looks like`;

/** Usage lines of `--overview-max-items`. */
export const OVERVIEW_USAGE = `  --overview-max-items N
                      items in the marker overview (the most relevant), ≥ 1 (default ${RESEARCH_DEFAULTS.marker_overview_max_items})`;

/** The engine options' values as `parseArgs` gives them. */
export interface EngineOptionValues {
  provider: string;
  'base-url'?: string | undefined;
  model?: string | undefined;
  concurrency?: string | undefined;
  timeout?: string | undefined;
}

/**
 * The engine the options choose, checked before anything is read.
 * @throws UsageError for an unknown provider, a model provider without `--model`, or a bad number.
 */
export function engineOptions(values: EngineOptionValues): EngineSettings {
  const provider = values.provider;
  if (provider !== 'extractive' && provider !== 'openai' && provider !== 'ollama') throw new UsageError('--provider expects extractive, openai or ollama');
  if (provider !== 'extractive' && !values.model) throw new UsageError(`--provider ${provider} needs --model`);
  return { provider, baseUrl: values['base-url'], model: values.model, concurrency: concurrencyOption(values.concurrency), timeoutMs: timeoutMsOption(values.timeout) };
}

/**
 * The research limits given on the command line (`--max-followups`, `--max-items-per-turn`,
 * `--context-window-limit`, `--overview-max-items`, `--max-steps`), checked against the ranges of the
 * extension's settings; a flag not given keeps the default.
 * @throws UsageError naming the flag when a value is not a whole number in range.
 */
export function researchConfigOptions(values: Partial<Record<'max-followups' | 'max-items-per-turn' | 'context-window-limit' | 'overview-max-items' | 'max-steps', string>>): ResearchConfigInput {
  const config: ResearchConfigInput = {};
  const v = (k: keyof typeof values): string | undefined => values[k];
  if (v('max-followups') !== undefined) config.max_followups_per_step = intOption('max-followups', v('max-followups')!, { min: 0, max: 20 });
  if (v('max-items-per-turn') !== undefined) config.max_content_items_per_turn = intOption('max-items-per-turn', v('max-items-per-turn')!, { min: 1, max: 50 });
  if (v('context-window-limit') !== undefined) config.context_window_limit = intOption('context-window-limit', v('context-window-limit')!, { min: 200 });
  if (v('overview-max-items') !== undefined) config.marker_overview_max_items = intOption('overview-max-items', v('overview-max-items')!, { min: 1 });
  if (v('max-steps') !== undefined) config.max_plan_steps = intOption('max-steps', v('max-steps')!, { min: 1, max: 1000 });
  return config;
}

/** What {@link prepareResearch} needs besides the command's context. */
export interface PrepareOptions {
  /** The command's name, for its messages (`research`, `goals`). */
  command: string;
  /** The corpus folder as given. */
  dir: string;
  engine: EngineSettings;
  config: ResearchConfigInput;
  /** `--items`: the run's scope (checked against the corpus: unknown ids are a usage error). */
  scope?: readonly string[];
  /** `--json`: corpus errors are not printed (the JSON is the output). */
  json: boolean;
  log: Logger;
  /** Runs once the corpus is loaded, before markers are generated (checks of run ids). */
  check?: (corpus: Corpus) => Promise<void>;
  onEvent?: (event: ResearchEvent) => void;
}

/**
 * Loads the corpus, checks the scope (and `check`), prints the corpus's errors, and generates the
 * missing markers of the items in scope with the chosen engine (the same engine then researches).
 * Returns undefined after saying so on stderr when the folder does not exist (exit 1).
 * @throws UsageError when `--items` names ids the corpus does not have.
 */
export async function prepareResearch(ctx: CliContext, opts: PrepareOptions): Promise<ResearchContext | undefined> {
  const corpus = await openExistingCorpus(ctx, opts.command, opts.dir);
  if (!corpus) return undefined;
  if (opts.scope) checkItemScope(corpus, opts.scope);
  await opts.check?.(corpus);
  for (const p of corpus.problems) if (p.severity === 'error' && !opts.json) ctx.err.write(`${formatProblem(p)}\n`);
  const { engine, client } = createMarkerEngine(opts.engine, { promptsDir: promptsDir(), apiKey: process.env['MARKER_RESEARCH_API_KEY'] ?? process.env['OPENAI_API_KEY'], log: opts.log });
  // Only the items in scope are researched: only theirs are generated (a model is paid per item).
  const wanted = opts.scope ? new Set(opts.scope) : undefined;
  const toMark = wanted ? { ...corpus, items: corpus.items.filter((i) => wanted.has(i.id)) } : corpus;
  const markers = await generateMarkers(toMark, { engine, spamCorpus: corpus, signal: ctx.signal, log: opts.log });
  if (markers.generated) ctx.err.write(`markers: ${markers.generated} generated, ${markers.cached} cached, ${markers.failed} failed\n`);
  // The corpus's saved spam decision (when every marker was cached, generation never read it): research reads comments
  // through it instead of deciding spam again (every item with comments parsed).
  await loadSavedCorpusSpam(corpus);
  return {
    corpus,
    engine: client ?? 'extractive',
    promptsDir: promptsDir(),
    log: opts.log,
    signal: ctx.signal,
    config: opts.config,
    ...(opts.scope ? { scope: opts.scope } : {}),
    ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
  };
}
