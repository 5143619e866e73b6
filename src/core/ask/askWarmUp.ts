/**
 * Warming up the Ask path of a large corpus before its first question (issue 25).
 *
 * A process that has just opened a corpus answers its first questions of each kind slowly: the
 * one-time costs of a first question (the entity index's name lookup, the Chinese tagger's and
 * the cross-language dictionaries, `warmUp`), and the JavaScript engine compiling the code of each
 * kind of question (understanding, every retrieval strategy, the hits' focus, the answer) the first
 * times it runs. On the 100 M-word corpus a question of a kind not asked yet in the process took
 * ~25 % longer on average, and its compilation competed for the CPU with the question itself.
 *
 * {@link warmUpAsking} pays those costs ahead: it asks one question of every kind, in English,
 * Chinese and Spanish, corpus-wide and within one item, about words of the corpus itself (sampled
 * from the texts the search index kept, nothing parsed for it), and throws the answers away. It
 * stops at once when `signal` aborts (the engine aborts it when a real question comes) and when
 * its time budget is spent. It never reads comments before the corpus's spam decision is known:
 * deciding it is minutes of work at 100 M words that a real question should ask for. Until then it
 * leaves out its questions about comments and asks the others within the transcripts (a question
 * such as "What was said about … in the first 5 minutes?" is read as one about the audience in a
 * corpus with comments, and any corpus-wide question may find comments).
 *
 * @example
 * const report = await warmUpAsking(ctx, { signal, budgetMs: 20_000 });
 * report.questions.length // 24 on the 100 M-word corpus
 */
import { knownCorpusSpam } from '../markers/spamFree';
import { tokenize } from '../search/tokenize';
import { zhSegmenter } from '../text/contentFree';
import { isStopword } from '../text/stopwords';
import { throwIfAborted } from '../util/abort';
import { askCorpus } from './ask';
import { warmUp } from './askContext';
import type { AskContext } from './types';

/** Questions of every kind; `{t}` is a topic word of the corpus, `{s}` a speaker label. */
const TEMPLATES: readonly { lang: 'en' | 'zh' | 'es'; text: string; comments?: true; speaker?: true }[] = [
  { lang: 'en', text: 'What was said about {t} in the first 5 minutes?' },
  { lang: 'en', text: 'Summarize the discussion about {t}' },
  { lang: 'en', text: 'Which themes about {t} come up again and again?' },
  { lang: 'en', text: 'What do viewers think about the {t}?', comments: true },
  { lang: 'en', text: 'Which moments about {t} would make good clips?' },
  { lang: 'en', text: 'What did {s} say about {t} after the 10-minute mark?', speaker: true },
  { lang: 'en', text: 'How do the speakers compare on {t}?' },
  { lang: 'en', text: 'Why did they change the {t}?' },
  { lang: 'zh', text: '关于{t}的讨论有哪些？' },
  { lang: 'zh', text: '观众对{t}有什么看法？', comments: true },
  { lang: 'es', text: '¿Qué opinan los espectadores sobre {t}?', comments: true },
  { lang: 'es', text: '¿Qué se dijo sobre {t} en los primeros 5 minutos?' },
];

/** Windows whose kept text is read for topic words. */
const SAMPLED_WINDOWS = 60;
const HAN = /\p{Script=Han}/u;

export interface WarmUpOptions {
  signal?: AbortSignal;
  /** Stops asking once this much time has passed (default {@link DEFAULT_WARM_UP_BUDGET_MS}). */
  budgetMs?: number;
  /** Awaited before question `i` (0-based) is asked: a caller pacing the warm-up (a test holding it). */
  beforeQuestion?: (i: number) => Promise<void> | void;
}

export const DEFAULT_WARM_UP_BUDGET_MS = 30_000;

export interface WarmUpReport {
  /** Questions asked, in order. */
  questions: string[];
  /** The topic words they asked about (Latin, Chinese). */
  topics: { latin?: string; han?: string };
  ms: number;
  /** Why it stopped before asking them all; absent when it asked every one. */
  stopped?: 'aborted' | 'budget';
  /** Questions about comments left out because the corpus's spam decision is not known yet. */
  skippedComments: number;
}

/**
 * Two topic words of the corpus, one in Latin script and one Chinese (when it has Chinese): the
 * words its windows use most that are neither function words nor in more than 3 % of its windows,
 * from {@link SAMPLED_WINDOWS} windows spread over the index (their kept texts: nothing parsed).
 */
export function warmUpTopics(ctx: AskContext): { latin?: string; han?: string } {
  const { index } = ctx;
  const n = index.documentCount;
  const counts = new Map<string, number>();
  const step = Math.max(1, Math.floor(n / SAMPLED_WINDOWS));
  for (let id = 0, seen = 0; id < n && seen < SAMPLED_WINDOWS; id += step) {
    const text = index.storedChunkText(id);
    if (text === undefined) continue;
    seen++;
    for (const m of text.toLowerCase().matchAll(/\p{Script=Latin}{5,}|\p{Script=Han}{2,}/gu)) {
      if (!HAN.test(m[0])) {
        counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
        continue;
      }
      // A Han run gives its words of two characters or more (ICU's word segmenter).
      for (const s of zhSegmenter().segment(m[0])) {
        if (s.isWordLike && s.segment.length >= 2) counts.set(s.segment, (counts.get(s.segment) ?? 0) + 1);
      }
    }
  }
  const maxDf = Math.max(2, n * 0.03);
  const usable = (w: string): boolean => {
    if (isStopword(w, 'en') || isStopword(w, 'es') || isStopword(w, 'zh')) return false;
    const tokens = tokenize(w);
    return tokens.length > 0 && tokens.every((t) => index.documentFrequency(t) <= maxDf);
  };
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const latin = ranked.find((w) => !HAN.test(w) && usable(w));
  const han = ranked.find((w) => HAN.test(w) && usable(w));
  return { ...(latin ? { latin } : {}), ...(han ? { han } : {}) };
}

/** The warm-up questions for `ctx` (see the module comment), and how many about comments were left out. */
export function warmUpQuestions(ctx: AskContext): { questions: { question: string; itemId?: string }[]; topics: { latin?: string; han?: string }; skippedComments: number } {
  const topics = warmUpTopics(ctx);
  const speaker = ctx.entities.speakers()[0];
  const commentsKnown = knownCorpusSpam(ctx.corpus) !== undefined;
  const itemId = ctx.corpus.items.find((i) => i.facts?.segments)?.id ?? ctx.corpus.items[0]?.id;
  const out: { question: string; itemId?: string }[] = [];
  let skippedComments = 0;
  for (const t of TEMPLATES) {
    const topic = t.lang === 'zh' ? (topics.han ?? topics.latin) : topics.latin;
    if (!topic || (t.speaker && !speaker)) continue;
    if (t.comments && !commentsKnown) {
      skippedComments++;
      continue;
    }
    const question = t.text.replace('{t}', topic).replace('{s}', speaker ?? '');
    out.push({ question });
    if (itemId) out.push({ question, itemId });
  }
  return { questions: out, topics, skippedComments };
}

/**
 * Pays the first questions' costs ahead of them (see the module comment): the context's one-time
 * lookups, then each warm-up question once, until done, aborted or out of budget. Never throws
 * for a question that fails (it is only a warm-up); an abort ends it with `stopped: 'aborted'`.
 */
export async function warmUpAsking(ctx: AskContext, options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const started = performance.now();
  const budget = options.budgetMs ?? DEFAULT_WARM_UP_BUDGET_MS;
  const asked: string[] = [];
  let plan: ReturnType<typeof warmUpQuestions> = { questions: [], topics: {}, skippedComments: 0 };
  const finish = (stopped?: WarmUpReport['stopped']): WarmUpReport => ({ questions: asked, topics: plan.topics, ms: performance.now() - started, skippedComments: plan.skippedComments, ...(stopped ? { stopped } : {}) });
  try {
    throwIfAborted(options.signal);
    warmUp(ctx);
    plan = warmUpQuestions(ctx);
    for (const q of plan.questions) {
      throwIfAborted(options.signal);
      if (performance.now() - started > budget) return finish('budget');
      // Between questions the process answers whatever else came in (a warm-up never holds it for more than one question).
      await new Promise<void>((resolve) => setImmediate(resolve));
      await options.beforeQuestion?.(asked.length);
      throwIfAborted(options.signal);
      try {
        // Before the corpus's spam is decided, within the transcripts: a question that reads comments would decide it.
        await askCorpus(ctx, q, { signal: options.signal, ...(knownCorpusSpam(ctx.corpus) ? {} : { part: 'transcript' as const }) });
      } catch (e) {
        if (options.signal?.aborted) throw e;
      }
      asked.push(q.itemId ? `${q.question} (${q.itemId})` : q.question);
    }
  } catch (e) {
    if (options.signal?.aborted) return finish('aborted');
    throw e;
  }
  return finish();
}
