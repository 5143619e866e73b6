/**
 * The model engine of query understanding (SPEC §5 "Ask the corpus", seed 004): one structured
 * call turns a researcher's question — English, Chinese (simplified or traditional) or Spanish,
 * possibly in another language than the corpus — into a structured intent. The reply is returned
 * as the model gave it (snake_case), cleaned up; merging it into a {@link ParsedQuery} (entity
 * linking, strategy choice) is the caller's job. The offline counterpart is `understandRules.ts`.
 *
 * Prompt: `prompts/ask-understand.<en|zh>.md`, chosen by the question's language.
 *
 * @example
 * ```ts
 * const { reply } = await understandWithModel(client, { question: 'What did he say about latency?', itemId: 'Bro014', session: ['What did the professor think?'] },
 *   { itemTitle: 'Bro014', speakers: ['Professor B', 'PhD A'], knownEntities: ['ICSI'], corpusLanguage: 'en' }, { promptsDir, signal });
 * reply.entities; // ['Professor B']
 * ```
 */
import { z } from 'zod';
import type { ModelClient } from '../llm/client';
import { detectLanguage } from '../llm/langDetect';
import { loadPrompt, type PromptLang } from '../llm/prompts';
import type { Usage } from '../llm/types';
import { INTENTS, type AskInput, type ParsedQuery } from './query';

/** The prompt's name in `prompts/`. */
export const UNDERSTAND_PROMPT = 'ask-understand';

/** Speakers of the item in focus shown to the model, at most. */
export const MAX_HINT_SPEAKERS = 30;
/** Known entity names of the corpus shown to the model, at most. */
export const MAX_HINT_ENTITIES = 40;
/** Earlier questions of the session shown to the model (the most recent ones), at most. */
export const MAX_SESSION_QUESTIONS = 6;
/** Characters of one earlier question shown to the model, at most. */
export const MAX_SESSION_QUESTION_CHARS = 400;
/** Characters of the question itself sent to the model, at most. */
export const MAX_QUESTION_CHARS = 2_000;
/** Characters of the item title, at most. */
export const MAX_TITLE_CHARS = 200;
/** Characters of one speaker label or entity name in the hints, at most (longer ones are left out). */
export const MAX_NAME_CHARS = 80;
/** Entries of each list in the cleaned reply, at most. */
export const MAX_REPLY_LIST = 20;

/**
 * The model's reply, as the model writes it (snake_case). Lenient where a missing field has an
 * obvious meaning (lists default to `[]`, nullable fields to `null`), so a terse reply does not
 * cost a repair round; `confidence` carries its 0..1 bounds into the JSON schema sent to the
 * server but is clamped, not rejected, when a model ignores them. {@link understandWithModel}
 * returns the reply after {@link normalizeModelUnderstanding}.
 */
export const modelUnderstandingSchema = z.object({
  intent: z.enum(INTENTS).describe('what the question wants'),
  entities: z.array(z.string()).default([]).describe('speaker labels exactly as listed; people, organisations, products, places; after resolving pronouns from the session'),
  keywords: z.array(z.string()).default([]).describe('content words to search for, in the language of the question'),
  corpus_keywords: z.array(z.string()).default([]).describe('the keywords in the language of the corpus'),
  time_constraint: z
    .object({ start_s: z.number(), end_s: z.number().nullable() })
    .nullable()
    .default(null)
    .describe('seconds from the start of the item; end_s null = open end; null when the question does not limit time'),
  part: z.enum(['transcript', 'comments']).nullable().default(null),
  citation_numbers: z.array(z.number().int()).default([]).describe('for citation_lookup: the numbers referred to'),
  resolved_query: z.string().default('').describe('the question with pronouns and roles replaced by what they refer to'),
  confidence: z.number().meta({ minimum: 0, maximum: 1 }).default(0.5),
});
/** A (cleaned) model reply; see {@link modelUnderstandingSchema}. */
export type ModelUnderstanding = z.output<typeof modelUnderstandingSchema>;

/** What the model is told besides the question and the session. */
export interface UnderstandingHints {
  /** Title of the item in focus (shown only when `AskInput.itemId` is set). */
  itemTitle?: string;
  /** Speaker labels of the item in focus, exactly as in its transcript (at most {@link MAX_HINT_SPEAKERS} are shown). */
  speakers: string[];
  /** Names known in the corpus: people, organisations, products, places (at most {@link MAX_HINT_ENTITIES} are shown). */
  knownEntities: string[];
  /** The corpus's language: what `corpus_keywords` are translated into. */
  corpusLanguage: 'en' | 'zh' | 'es' | 'other';
  /** Duration of the item in focus in seconds, when known (lets "the last 10 minutes" be converted). */
  durationS?: number;
  /** Whether the corpus has viewer comments, when known (decides between `part: "transcript"` and `null`). */
  hasComments?: boolean;
}

/** Options of {@link understandWithModel}. */
export interface UnderstandWithModelOptions {
  /** Where `ask-understand.<lang>.md` lives. */
  promptsDir: string;
  /** Aborts the call (queued, waiting to retry, or in flight). */
  signal?: AbortSignal;
}

/** What {@link understandWithModel} returns. */
export interface ModelUnderstandingResult {
  /** The validated, cleaned reply. */
  reply: ModelUnderstanding;
  /** Tokens of the call (both rounds when repaired). */
  usage: Usage;
  /** True when the first reply was invalid and the repair round fixed it. */
  repaired: boolean;
  /** The prompt's version (`ask-understand@N`), for cache keys and logs. */
  promptVersion: string;
}

/**
 * Understands `input.question` with one structured model call (plus at most one repair round,
 * and the client's retries). The prompt language follows the question (`zh` for Chinese, else
 * `en`); the hints are capped (see {@link capHints}) so the prompt stays small.
 *
 * @throws Error when the question is empty, or the prompt file is missing or malformed.
 * @throws CancelledError when `options.signal` aborts.
 * @throws LlmError for every model failure (`context-length`, `invalid-reply`, `server`, ...).
 */
export async function understandWithModel(
  client: ModelClient,
  input: AskInput,
  hints: UnderstandingHints,
  options: UnderstandWithModelOptions,
): Promise<ModelUnderstandingResult> {
  if (input.question.trim() === '') throw new Error('ask: the question is empty');
  const prompt = await loadPrompt(options.promptsDir, UNDERSTAND_PROMPT, detectLanguage(input.question));
  const messages = prompt.render(understandingPromptVars(input, hints, prompt.lang));
  const result = await client.complete({
    messages,
    schema: modelUnderstandingSchema,
    schemaName: 'ask_understanding',
    phase: 'ask',
    step: 'understand',
    signal: options.signal,
  });
  return { reply: normalizeModelUnderstanding(result.value, input, hints), usage: result.usage, repaired: result.repaired, promptVersion: prompt.version };
}

// ---- hints ------------------------------------------------------------------------------------

/** The hints as they are shown to the model. */
export interface CappedHints {
  speakers: string[];
  knownEntities: string[];
  /** The most recent earlier questions, oldest first. */
  session: string[];
}

/**
 * Cleans and caps what the prompt shows: names are trimmed, de-duplicated (case-insensitively)
 * and left out when empty or longer than {@link MAX_NAME_CHARS}; known entities that are also
 * speakers are shown once, as speakers. When a list is too long, names the question or the
 * session mention (whole, or one of their words) are kept first; the kept ones stay in their
 * given order. The session keeps its last {@link MAX_SESSION_QUESTIONS} questions, each cut to
 * {@link MAX_SESSION_QUESTION_CHARS} characters.
 */
export function capHints(input: AskInput, hints: Pick<UnderstandingHints, 'speakers' | 'knownEntities'>): CappedHints {
  const session = (input.session ?? [])
    .map((q) => cut(oneLine(q), MAX_SESSION_QUESTION_CHARS))
    .filter((q) => q !== '')
    .slice(-MAX_SESSION_QUESTIONS);
  const context = [input.question, ...session].join('\n').toLowerCase();
  const speakers = pickNames(hints.speakers, context, MAX_HINT_SPEAKERS, new Set());
  const taken = new Set(speakers.map((s) => s.toLowerCase()));
  const knownEntities = pickNames(hints.knownEntities, context, MAX_HINT_ENTITIES, taken);
  return { speakers, knownEntities, session };
}

/**
 * The placeholder values of the `ask-understand` prompt for `input` and `hints`, in the prompt's
 * language `lang`. Values are single-purpose text: names one per line, the session numbered, and
 * the delimiter tags the prompt uses stripped from everything the user or the corpus wrote.
 */
export function understandingPromptVars(input: AskInput, hints: UnderstandingHints, lang: PromptLang): Record<string, string> {
  const words = WORDS[lang];
  const capped = capHints(input, hints);
  const title = hints.itemTitle === undefined ? '' : cut(oneLine(hints.itemTitle), MAX_TITLE_CHARS);
  const item = input.itemId === undefined || input.itemId.trim() === '' ? words.wholeCorpus : `${oneLine(input.itemId)}${title === '' ? '' : ` — "${title}"`}`;
  const list = (names: readonly string[]): string => (names.length === 0 ? words.none : names.map((n) => `- ${n}`).join('\n'));
  return {
    corpus_language: words.language[hints.corpusLanguage],
    item,
    duration: hints.durationS !== undefined && Number.isFinite(hints.durationS) && hints.durationS > 0 ? words.duration(Math.round(hints.durationS)) : words.unknown,
    comments: hints.hasComments === undefined ? words.unknown : hints.hasComments ? words.yes : words.no,
    speakers: list(capped.speakers),
    known_entities: list(capped.knownEntities),
    session: capped.session.length === 0 ? words.none : capped.session.map((q, i) => `${i + 1}. ${q}`).join('\n'),
    question: stripTags(cut(input.question.trim(), MAX_QUESTION_CHARS)),
  };
}

const WORDS: Record<
  PromptLang,
  { language: Record<UnderstandingHints['corpusLanguage'], string>; wholeCorpus: string; none: string; unknown: string; yes: string; no: string; duration: (s: number) => string }
> = {
  en: {
    language: { en: 'English', zh: 'Chinese', es: 'Spanish', other: 'other (not English, Chinese or Spanish)' },
    wholeCorpus: 'none — the question is about the whole corpus',
    none: '(none)',
    unknown: 'unknown',
    yes: 'yes',
    no: 'no',
    duration: (s) => `${Math.floor(s / 60)} min ${s % 60} s (${s} s)`,
  },
  zh: {
    language: { en: '英文', zh: '中文', es: '西班牙文', other: '其他（不是英文、中文或西班牙文）' },
    wholeCorpus: '无——问题针对整个语料',
    none: '（无）',
    unknown: '未知',
    yes: '有',
    no: '没有',
    duration: (s) => `${Math.floor(s / 60)} 分 ${s % 60} 秒（${s} 秒）`,
  },
};

/** Clean, de-duplicated names (not in `exclude`), at most `max`, those `context` mentions first, in their given order. */
function pickNames(names: readonly string[], context: string, max: number, exclude: ReadonlySet<string>): string[] {
  const seen = new Set(exclude);
  const clean: { name: string; index: number; score: number }[] = [];
  for (const raw of names) {
    const name = oneLine(raw);
    const key = name.toLowerCase();
    if (name === '' || name.length > MAX_NAME_CHARS || seen.has(key)) continue;
    seen.add(key);
    clean.push({ name, index: clean.length, score: mentionScore(key, context) });
  }
  if (clean.length <= max) return clean.map((c) => c.name);
  return [...clean]
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((c) => c.name);
}

/** 2 when `context` contains the whole name, 1 when one of its words (3+ letters, or any Han word), else 0. */
function mentionScore(name: string, context: string): number {
  if (context.includes(name)) return 2;
  const parts = name.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 || /\p{Script=Han}{2,}/u.test(w));
  return parts.some((w) => context.includes(w)) ? 1 : 0;
}

// ---- reply ------------------------------------------------------------------------------------

/**
 * Post-validates a reply: strings trimmed (inner whitespace collapsed), empty ones dropped, lists
 * de-duplicated case-insensitively and capped at {@link MAX_REPLY_LIST}; an entity that equals a
 * listed speaker or known name up to case takes the listed spelling; `corpus_keywords` falls back
 * to `keywords` when empty; citation numbers ≤ 0 dropped; the time constraint made non-negative
 * with `start_s ≤ end_s` (swapped when reversed) and `null` when it covers everything
 * (`{0, null}`) or nothing (`{0, 0}`); `resolved_query` falls back to the question; `confidence`
 * clamped to 0..1. The result still validates with {@link modelUnderstandingSchema}.
 */
export function normalizeModelUnderstanding(reply: ModelUnderstanding, input: AskInput, hints?: Pick<UnderstandingHints, 'speakers' | 'knownEntities'>): ModelUnderstanding {
  const canonical = new Map<string, string>();
  for (const name of [...(hints?.speakers ?? []), ...(hints?.knownEntities ?? [])]) {
    const clean = oneLine(name);
    if (clean !== '' && !canonical.has(clean.toLowerCase())) canonical.set(clean.toLowerCase(), clean);
  }
  const entities = cleanList(reply.entities.map((e) => canonical.get(oneLine(e).toLowerCase()) ?? e));
  const keywords = cleanList(reply.keywords);
  const corpusKeywords = cleanList(reply.corpus_keywords);
  const citations = [...new Set(reply.citation_numbers.filter((n) => Number.isInteger(n) && n > 0))].slice(0, MAX_REPLY_LIST);
  const resolved = oneLine(reply.resolved_query);
  return {
    intent: reply.intent,
    entities,
    keywords,
    corpus_keywords: corpusKeywords.length > 0 ? corpusKeywords : [...keywords],
    time_constraint: normalizeTime(reply.time_constraint),
    part: reply.part,
    citation_numbers: citations,
    resolved_query: resolved !== '' ? resolved : oneLine(input.question),
    confidence: clamp01(reply.confidence),
  };
}

/** Convert to the {@link ParsedQuery} time shape (`startS`/`endS`). */
export function toTimeConstraint(time: ModelUnderstanding['time_constraint']): ParsedQuery['timeConstraint'] {
  return time === null ? null : { startS: time.start_s, endS: time.end_s };
}

function normalizeTime(time: ModelUnderstanding['time_constraint']): ModelUnderstanding['time_constraint'] {
  if (time === null) return null;
  let start = Math.max(0, time.start_s);
  let end = time.end_s === null ? null : Math.max(0, time.end_s);
  if (end !== null && end < start) [start, end] = [end, start];
  if (start === 0 && (end === null || end === 0)) return null;
  return { start_s: start, end_s: end };
}

function cleanList(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const clean = oneLine(value);
    const key = clean.toLowerCase();
    if (clean === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(clean);
    if (out.length >= MAX_REPLY_LIST) break;
  }
  return out;
}

function clamp01(n: number): number {
  return Number.isNaN(n) ? 0 : Math.min(1, Math.max(0, n));
}

/** Trimmed, whitespace runs (newlines included) collapsed to one space, delimiter tags removed. */
function oneLine(text: string): string {
  return stripTags(text).replace(/\s+/g, ' ').trim();
}

/** Removes the tags the prompt uses as delimiters, so no value can close or open one. */
function stripTags(text: string): string {
  return text.replace(/<\s*\/?\s*(?:question|session|speakers|names)\s*>/gi, '');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
