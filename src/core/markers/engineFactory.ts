/**
 * Turns settings into a marker engine: the extractive engine (no model, the
 * default) or a model client (OpenAI-compatible or Ollama) with its prompts.
 */
import { createModelClient, type ModelClient } from '../llm/client';
import { loadPrompt, type Prompt } from '../llm/prompts';
import type { Semaphore } from '../llm/semaphore';
import type { UsageLedger } from '../llm/usage';
import type { Logger } from '../util/log';
import type { MarkerEngine } from './generate';
import type { PromptSource } from './modelEngine';

export interface EngineSettings {
  provider: 'extractive' | 'openai' | 'ollama';
  baseUrl?: string;
  model?: string;
  contextTokens?: number;
  concurrency?: number;
  timeoutMs?: number;
  /** The extractive engine's transcript markers per 1,000 words (default 3). */
  density?: number;
}

export interface EngineDeps {
  promptsDir: string;
  apiKey?: string;
  log?: Logger;
  semaphore?: Semaphore;
  ledger?: UsageLedger;
}

/** Loads prompts from `promptsDir` once per name and language. */
export function promptSource(promptsDir: string): PromptSource {
  const cache = new Map<string, Promise<Prompt>>();
  return (name, lang) => {
    const key = `${name}.${lang}`;
    let p = cache.get(key);
    if (!p) cache.set(key, (p = loadPrompt(promptsDir, name, lang)));
    // Languages share a version number, so the file hash goes into the cache key too.
    return p.then((prompt) => ({ version: `${prompt.version}.${prompt.lang}#${prompt.hash.slice(0, 8)}`, render: (vars) => prompt.render(vars) }));
  };
}

/** Default base URLs when none is set. */
export const DEFAULT_BASE_URLS = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;

/**
 * The engine for `settings`. Throws an `LlmError('config')` that names the missing or bad setting.
 */
export function createMarkerEngine(settings: EngineSettings, deps: EngineDeps): { engine: MarkerEngine; client?: ModelClient } {
  if (settings.provider === 'extractive') return { engine: { kind: 'extractive', ...(settings.density !== undefined ? { density: settings.density } : {}) } };
  const client = createModelClient(
    {
      provider: settings.provider,
      baseUrl: settings.baseUrl || DEFAULT_BASE_URLS[settings.provider],
      model: settings.model ?? '',
      apiKey: deps.apiKey,
      contextTokens: settings.contextTokens,
      concurrency: settings.concurrency,
      timeoutMs: settings.timeoutMs,
    },
    { semaphore: deps.semaphore, ledger: deps.ledger, log: deps.log },
  );
  return { engine: { kind: 'model', model: client, prompts: promptSource(deps.promptsDir) }, client };
}
