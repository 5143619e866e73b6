/**
 * Prompts are versioned files in `prompts/`: `<name>.<lang>.md`, a front-matter block with
 * `version: N` (other `key: value` lines are kept as metadata), then the system part, a line
 * `=== user ===`, and the user part. Placeholders are `{{name}}`.
 *
 * ```
 * ---
 * version: 3
 * ---
 * You extract key information ...
 * === user ===
 * Title: {{title}}
 * ```
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ChatMessage } from './types';

/** Languages prompts come in. */
export type PromptLang = 'en' | 'zh';

/** A loaded prompt template. */
export interface Prompt {
  name: string;
  /** The variant actually loaded (`en` when the requested one does not exist). */
  lang: PromptLang;
  /** `${name}@${N}`: part of every cache key. */
  version: string;
  /** sha256 (hex) of the file's bytes; changes with any edit, also one that forgot to bump the version. */
  hash: string;
  /** Front-matter entries other than `version`. */
  meta: Readonly<Record<string, string>>;
  /** The placeholders the template uses, in order of first use. */
  placeholders: readonly string[];
  /**
   * The system and user messages with every placeholder filled in (values are inserted
   * verbatim, never re-scanned for placeholders). The system message is left out when empty.
   * @throws Error naming a placeholder without a value, or a value no placeholder uses.
   */
  render(vars: Readonly<Record<string, string | number>>): ChatMessage[];
}

const USER_SEPARATOR = /^=== user ===[ \t]*$/m;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Loads `<promptsDir>/<name>.<lang>.md`, falling back to `<name>.en.md`.
 *
 * @example
 * ```ts
 * const prompt = await loadPrompt('prompts', 'markers-transcript', detectLanguage(text));
 * const messages = prompt.render({ title, window_label: 'window 1 of 3, words 0–4000', text });
 * ```
 * @throws Error (`llm: prompt ...`) when neither file exists or the file is malformed.
 */
export async function loadPrompt(promptsDir: string, name: string, lang: PromptLang): Promise<Prompt> {
  if (!NAME.test(name)) throw new Error(`llm: prompt name "${name}" may only contain letters, digits, '_' and '-'`);
  const candidates: PromptLang[] = lang === 'en' ? ['en'] : [lang, 'en'];
  for (const candidate of candidates) {
    const file = path.join(promptsDir, `${name}.${candidate}.md`);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    return parsePrompt(name, candidate, bytes, file);
  }
  throw new Error(`llm: prompt "${name}" not found in ${promptsDir} (looked for ${candidates.map((c) => `${name}.${c}.md`).join(', ')})`);
}

/**
 * Parses a prompt file's bytes (see the module comment for the format). `file` only names it
 * in errors.
 * @throws Error when the front matter, its version or the `=== user ===` separator is missing.
 */
export function parsePrompt(name: string, lang: PromptLang, bytes: Buffer | string, file = `${name}.${lang}.md`): Prompt {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const text = (typeof bytes === 'string' ? bytes : bytes.toString('utf8')).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!front) throw new Error(`llm: prompt ${file}: missing front matter (a '---' block with 'version: N')`);
  const meta: Record<string, string> = {};
  let version: number | undefined;
  for (const line of (front[1] ?? '').split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_-]*):\s*(.*)$/.exec(line);
    if (!m) throw new Error(`llm: prompt ${file}: bad front-matter line "${line}"`);
    const [, key = '', value = ''] = m;
    if (key === 'version') {
      if (!/^[1-9]\d*$/.test(value.trim())) throw new Error(`llm: prompt ${file}: version must be a positive integer, got "${value}"`);
      version = Number(value.trim());
    } else {
      meta[key] = value.trim();
    }
  }
  if (version === undefined) throw new Error(`llm: prompt ${file}: front matter has no 'version: N'`);
  const body = text.slice(front[0].length);
  const parts = body.split(USER_SEPARATOR);
  if (parts.length !== 2) {
    throw new Error(`llm: prompt ${file}: needs exactly one '=== user ===' line, found ${parts.length - 1}`);
  }
  const system = (parts[0] ?? '').trim();
  const user = (parts[1] ?? '').trim();
  const placeholders = [...new Set([...`${system}\n${user}`.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
  const known = new Set(placeholders);

  const render = (vars: Readonly<Record<string, string | number>>): ChatMessage[] => {
    const missing = placeholders.filter((p) => !Object.prototype.hasOwnProperty.call(vars, p) || vars[p] === undefined || vars[p] === null);
    if (missing.length > 0) throw new Error(`llm: prompt ${name}: no value for placeholder${missing.length > 1 ? 's' : ''} ${missing.map((p) => `{{${p}}}`).join(', ')}`);
    const unknown = Object.keys(vars).filter((k) => !known.has(k));
    if (unknown.length > 0) throw new Error(`llm: prompt ${name}: unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((p) => `{{${p}}}`).join(', ')} (the template uses ${placeholders.map((p) => `{{${p}}}`).join(', ') || 'none'})`);
    const fill = (template: string): string => template.replace(PLACEHOLDER, (_m, key: string) => String(vars[key]));
    const messages: ChatMessage[] = [];
    const systemText = fill(system);
    if (systemText !== '') messages.push({ role: 'system', content: systemText });
    messages.push({ role: 'user', content: fill(user) });
    return messages;
  };

  return { name, lang, version: `${name}@${version}`, hash, meta, placeholders, render };
}
