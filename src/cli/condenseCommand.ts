/**
 * `marker-research condense <corpusDir> --model NAME [--provider ollama|openai] ...`:
 * the optional local condensation pass (claims, evidence spans, counterpoints, categories).
 */
import { condenseCorpus } from '../core/markers/condense';
import { createMarkerEngine, promptSource } from '../core/markers/engineFactory';
import { DEFAULT_WINDOW_SETTINGS } from '../core/markers/windows';
import { consoleLogger } from '../core/util/log';
import { openExistingCorpus } from './commandCorpus';
import { integerOption, parseCommandArgs, UsageError, type CliContext } from './io';
import { promptsDir, timeoutMsOption } from './markersCommand';

export const CONDENSE_USAGE = `marker-research condense <corpusDir> --model NAME [options]
  --provider P        ollama (default, local) | openai
  --base-url URL      Ollama host (default http://127.0.0.1:11434) or OpenAI-compatible root
  --concurrency N     model calls at once (default 2)
  --parallelism N     items at once (default 8)
  --context-tokens N  the model's context (Ollama num_ctx, default 8192)
  --timeout SECONDS   deadline of one model request (default 120; a timed-out request is retried once)
  --window-words N    words per window (default ${DEFAULT_WINDOW_SETTINGS.windowWords})
  --force             redo cached items
  --json              JSON on stdout`;

export async function condenseCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      provider: { type: 'string', default: 'ollama' }, 'base-url': { type: 'string' }, model: { type: 'string' }, concurrency: { type: 'string' },
      parallelism: { type: 'string' }, 'context-tokens': { type: 'string' }, 'window-words': { type: 'string' }, timeout: { type: 'string' },
      force: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError('condense: expected exactly one corpus folder');
  if (values.provider !== 'ollama' && values.provider !== 'openai') throw new UsageError('--provider expects ollama or openai');
  if (!values.model) throw new UsageError('condense needs --model');
  // Every number is checked before the corpus is read (a bad value is a usage error, exit 2).
  const concurrency = integerOption('concurrency', values.concurrency, 2);
  const parallelism = integerOption('parallelism', values.parallelism, 8);
  const contextTokens = values['context-tokens'] === undefined ? undefined : integerOption('context-tokens', values['context-tokens'], 8192);
  const windowWords = integerOption('window-words', values['window-words'], DEFAULT_WINDOW_SETTINGS.windowWords);
  const timeoutMs = timeoutMsOption(values.timeout);
  const log = consoleLogger(ctx.err, { level: 'warn' });
  const corpus = await openExistingCorpus(ctx, 'condense', positionals[0]!);
  if (!corpus) return 1;
  const { client } = createMarkerEngine(
    {
      provider: values.provider,
      baseUrl: values['base-url'],
      model: values.model,
      concurrency,
      contextTokens,
      timeoutMs,
    },
    { promptsDir: promptsDir(), apiKey: process.env['MARKER_RESEARCH_API_KEY'] ?? process.env['OPENAI_API_KEY'], log },
  );
  const report = await condenseCorpus(corpus, {
    model: client!,
    prompts: promptSource(promptsDir()),
    windows: { ...DEFAULT_WINDOW_SETTINGS, windowWords },
    parallelism,
    force: values.force,
    signal: ctx.signal,
    log,
  });
  for (const f of report.failed) ctx.err.write(`marker-research condense: ${f.itemId}: ${f.error}\n`);
  if (values.json) ctx.out.write(`${JSON.stringify(report, null, 2)}\n`);
  else ctx.out.write(`${report.generated} condensed, ${report.cached} cached, ${report.failed.length} failed; ${report.claims} claims, ${report.grounded} grounded; ${report.usage.calls} model calls, ${report.usage.promptTokens}+${report.usage.completionTokens} tokens\n`);
  return report.failed.length ? 1 : 0;
}
