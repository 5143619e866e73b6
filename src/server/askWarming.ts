/**
 * The engine warms up its Ask path after it opens a large corpus (core's `askWarmUp.ts`): once the
 * search index is open, the offline ask context is built and one question of every kind is asked
 * and thrown away, so the researcher's first questions do not pay the first-question costs (the
 * entity names, the dictionaries, the JavaScript engine compiling each kind of question). On the
 * 100 M-word corpus it takes ~5–7 s after the warm start.
 *
 * It waits until the engine's other work (the index, markers, research) has been over for a moment,
 * and gives way at once: a request that starts meanwhile (a question in the Ask box or the Chat
 * view, an index, markers) interrupts it until the engine is idle again; "Marker Research: Cancel"
 * and a reload end it. Corpora under {@link WARM_MIN_WORDS} words are not warmed up: their
 * questions take milliseconds either way.
 */
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { warmUpAsking, type WarmUpReport } from '../core/ask/askWarmUp';
import type { Corpus } from '../core/corpus/types';
import type { AskResources } from './askResources';
import type { HandlerContext } from './handlerContext';

/** Corpora this large (in words) are warmed up. */
export const WARM_MIN_WORDS = 2_000_000;

/** The warm-up starts once the engine's other work (an index, markers, research) has been over this long. */
export const WARM_QUIET_MS = 2_000;

/** How many times a warm-up interrupted by requests starts again. */
export const WARM_TRIES = 10;

/** For tests: the size from which a corpus is warmed up, the quiet it waits for, what is told when a warm-up ends, and a hold before each of its questions. */
export const askWarmingTesting: { minWords: number; quietMs: number; onReport?: (report: WarmUpReport) => void; beforeQuestion?: (i: number) => Promise<void> | void } = {
  minWords: WARM_MIN_WORDS,
  quietMs: WARM_QUIET_MS,
};

/** Starts warming up each corpus the engine loads (see the module comment); disposing stops it. */
export function startAskWarming(c: HandlerContext, resources: AskResources): { dispose(): void } {
  let current: CancellationTokenSource | undefined;
  const stop = (): void => {
    current?.cancel();
    current = undefined;
  };
  const warm = async (corpus: Corpus, source: CancellationTokenSource): Promise<void> => {
    await c.state.searchIndex(corpus);
    // Wait for the engine to be idle, then ask. A request that starts meanwhile (a question, an
    // index, markers, research) interrupts it, and it starts again once the engine is idle: its
    // context is kept, so the questions it asked already are quick. Cancel and a reload end it.
    for (let attempt = 1; attempt <= WARM_TRIES; attempt++) {
      if (!(await c.running.whenIdle(askWarmingTesting.quietMs, source.token))) return;
      if (source.token.isCancellationRequested || c.state.current() !== corpus) return;
      let interrupted = false;
      const report = await c.running.run(source.token, async (signal) => {
        const own = new AbortController();
        const abort = (): void => own.abort();
        const interrupt = (): void => {
          interrupted = true;
          own.abort();
        };
        signal.addEventListener('abort', abort);
        if (signal.aborted) abort();
        // A question (the Ask box, the Chat view) is such work too: it runs in `c.running`.
        const started = c.running.onDidStart(interrupt);
        try {
          return await warmUpAsking(await resources.offlineContext(corpus), { signal: own.signal, beforeQuestion: askWarmingTesting.beforeQuestion });
        } finally {
          started.dispose();
          signal.removeEventListener('abort', abort);
        }
      });
      const again = report.stopped === 'aborted' && interrupted && !source.token.isCancellationRequested && attempt < WARM_TRIES;
      const why =
        report.stopped === 'budget' ? 'time budget' : !interrupted ? 'cancelled' : again ? 'a request came; again once the engine is idle' : `a request came; ${WARM_TRIES} tries, no more`;
      const topics = [report.topics.latin, report.topics.han].filter(Boolean).join(', ');
      c.state.log.info(
        `ask: warmed up in ${Math.round(report.ms)} ms: ${report.questions.length} question${report.questions.length === 1 ? '' : 's'} about ${topics || 'no topic word'}` +
          (report.stopped ? ` (stopped: ${why})` : '') +
          (report.skippedComments ? `; ${report.skippedComments} about comments left for a real question (the corpus's spam is not decided yet)` : ''),
      );
      askWarmingTesting.onReport?.(report);
      if (!again) return;
    }
  };
  const loaded = c.state.onDidLoad((corpus) => {
    stop();
    if (corpus.stats.words < askWarmingTesting.minWords) return;
    const source = new CancellationTokenSource();
    current = source;
    warm(corpus, source)
      .catch((e: Error) => c.state.log.warn(`ask: warming up failed: ${e.message}`))
      .finally(() => {
        if (current === source) current = undefined;
        source.dispose();
      });
  });
  return {
    dispose: () => {
      stop();
      loaded.dispose();
    },
  };
}
