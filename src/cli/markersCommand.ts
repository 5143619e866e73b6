/**
 * `marker-research markers <corpusDir> [--provider extractive|openai|ollama] ...`:
 * Phase 0 markers for every item, cached; prints counts, coverage, grounding, tokens and time.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { formatProblem } from '../core/corpus/types';
import { createMarkerEngine } from '../core/markers/engineFactory';
import { generateMarkers, type GenerateReport } from '../core/markers/generate';
import { DEFAULT_WINDOW_SETTINGS } from '../core/markers/windows';
import { consoleLogger } from '../core/util/log';
import { openExistingCorpus } from './commandCorpus';
import { integerOption, numberOption, parseCommandArgs, table, UsageError, type CliContext } from './io';
import { writeStatus } from './terminalText';

/** The `--timeout SECONDS` of every command that calls a model, as the model config's `timeoutMs` (undefined: the default). */
export function timeoutMsOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout expects a positive number of seconds, got "${value}"`);
  return Math.max(1, Math.round(seconds * 1000));
}

/**
 * A whole-number option in `[min, max]` (max optional).
 * @throws UsageError naming the flag and the accepted range.
 */
export function intOption(name: string, value: string, range: { min: number; max?: number }): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isInteger(n) || n < range.min || (range.max !== undefined && n > range.max)) {
    const want = range.max !== undefined ? `a whole number from ${range.min} to ${range.max}` : `a whole number of at least ${range.min}`;
    throw new UsageError(`--${name} must be ${want}, got "${value}"`);
  }
  return n;
}

/** `--concurrency N`: model calls at once, 1–64 like `markerResearch.concurrency` (undefined: the default). */
export function concurrencyOption(value: string | undefined): number | undefined {
  return value === undefined ? undefined : intOption('concurrency', value, { min: 1, max: 64 });
}

export const MARKERS_USAGE = `marker-research markers <corpusDir> [options]
  --provider P        extractive (default, no model) | openai | ollama
  --base-url URL      OpenAI-compatible API root (…/v1) or Ollama host
  --model NAME        model name
  --concurrency N     model calls at once, 1–64 (default 4)
  --context-tokens N  the model's context size (default 8192; Ollama num_ctx)
  --timeout SECONDS   deadline of one model request (default 120; a timed-out request is retried once)
  --window-words N    words per window (default ${DEFAULT_WINDOW_SETTINGS.windowWords})
  --overlap-words N   overlap between windows (default ${DEFAULT_WINDOW_SETTINGS.overlapWords})
  --window-limit N    windows per part, at most N (larger windows, every word still read);
                      0 = as many as needed (default 0)
  --density N         extractive engine: transcript markers per 1,000 words, 0.5–20 (default 3)
  --force             regenerate even when cached
  --json              JSON on stdout
  API key: MARKER_RESEARCH_API_KEY or OPENAI_API_KEY.`;

/** Where the prompt files are: next to the bundle (dist/../prompts), or at the repository root when run from src/cli. */
export function promptsDir(): string {
  const beside = path.join(__dirname, '..', 'prompts');
  return existsSync(beside) ? beside : path.join(__dirname, '..', '..', 'prompts');
}

export async function markersCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      provider: { type: 'string', default: 'extractive' }, 'base-url': { type: 'string' }, model: { type: 'string' }, concurrency: { type: 'string' },
      'context-tokens': { type: 'string' }, 'window-words': { type: 'string' }, 'overlap-words': { type: 'string' }, 'window-limit': { type: 'string' }, timeout: { type: 'string' }, density: { type: 'string' },
      force: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError('markers: expected exactly one corpus folder');
  const provider = values.provider;
  if (provider !== 'extractive' && provider !== 'openai' && provider !== 'ollama') throw new UsageError('--provider expects extractive, openai or ollama');
  if (provider !== 'extractive' && !values.model) throw new UsageError(`--provider ${provider} needs --model`);
  // Every option is checked before the corpus is read (a bad value is a usage error, exit 2).
  const concurrency = concurrencyOption(values.concurrency);
  const contextTokens = values['context-tokens'] === undefined ? undefined : integerOption('context-tokens', values['context-tokens'], 8192);
  const timeoutMs = timeoutMsOption(values.timeout);
  const density = values.density === undefined ? undefined : numberOption('density', values.density, 3);
  if (density !== undefined && (density < 0.5 || density > 20)) throw new UsageError(`--density expects markers per 1,000 words from 0.5 to 20, got "${values.density}"`);
  const windows = {
    windowWords: integerOption('window-words', values['window-words'], DEFAULT_WINDOW_SETTINGS.windowWords),
    overlapWords: integerOption('overlap-words', values['overlap-words'], DEFAULT_WINDOW_SETTINGS.overlapWords, 0),
    windowLimit: values['window-limit'] === undefined ? DEFAULT_WINDOW_SETTINGS.windowLimit : intOption('window-limit', values['window-limit'], { min: 0 }),
  };
  const log = consoleLogger(ctx.err, { level: values.verbose ? 'debug' : 'warn' });
  const corpus = await openExistingCorpus(ctx, 'markers', positionals[0]!);
  if (!corpus) return 1;
  for (const p of corpus.problems) if (p.severity !== 'info') ctx.err.write(`${formatProblem(p)}\n`);
  const { engine, client } = createMarkerEngine(
    {
      provider,
      baseUrl: values['base-url'],
      model: values.model,
      concurrency,
      contextTokens,
      timeoutMs,
      ...(density !== undefined ? { density } : {}),
    },
    { promptsDir: promptsDir(), apiKey: process.env['MARKER_RESEARCH_API_KEY'] ?? process.env['OPENAI_API_KEY'], log },
  );
  const report = await generateMarkers(corpus, {
    engine,
    windows,
    force: values.force,
    signal: ctx.signal,
    log,
    onProgress: ({ done, total, message }) => {
      const tokens = client ? `, ${client.ledger.total().promptTokens + client.ledger.total().completionTokens} tokens` : '';
      writeStatus(ctx.err, `${done}/${total} items${tokens} — ${message ?? ''}`);
    },
  });
  writeStatus(ctx.err);
  for (const r of report.items) if (r.status === 'failed') ctx.err.write(`marker-research markers: ${r.itemId}: ${r.error}\n`);
  if (values.json) ctx.out.write(`${JSON.stringify({ ...report, usageByPhase: client?.ledger.toJSON() ?? null }, null, 2)}\n`);
  else ctx.out.write(render(report));
  return report.failed ? 1 : 0;
}

function render(r: GenerateReport): string {
  const rows = r.items.map((i) => {
    const cov = [i.coverage?.transcript, i.coverage?.comments].filter((c) => c);
    const coverage = cov.length ? cov.map((c) => `${Math.round((c!.wordsSeen / Math.max(1, c!.totalWords)) * 100)}% ×${c!.duplicationRatio}`).join(' / ') : '-';
    return [
      i.itemId, i.status, String(i.markers), i.markers ? `${Math.round((i.grounded / i.markers) * 100)}%` : '-', coverage,
      String(i.usage.promptTokens + i.usage.completionTokens), `${i.ms} ms`,
    ];
  });
  const engine = r.engine === 'extractive' ? 'extractive (no model)' : `${r.engine} ${r.model}`;
  return [
    table(['item', 'status', 'markers', 'grounded', 'coverage', 'tokens', 'time'], rows),
    '',
    `engine: ${engine}; ${r.generated} generated, ${r.cached} cached, ${r.failed} failed; ${r.usage.calls} model calls${r.usage.failedCalls ? ` succeeded, ${r.usage.failedCalls} failed after their retries` : ''}, ${r.usage.promptTokens} prompt + ${r.usage.completionTokens} completion tokens; ${r.ms} ms`,
    '',
  ].join('\n');
}
