/**
 * The engine warms up its Ask path after it opens a large corpus (core's `askWarmUp.ts`): once the
 * search index is open, the offline ask context is built and one question of every kind is asked
 * and thrown away, so the researcher's first questions do not pay the first-question costs (the
 * entity names, the dictionaries, the JavaScript engine compiling each kind of question). On the
 * 100 M-word corpus it takes ~5–7 s after the warm start.
 *
 * It gives way at once: a question (the Ask box, the Chat view) stops it, as do "Marker Research:
 * Cancel" and a reload. Corpora under {@link WARM_MIN_WORDS} words are not warmed up: their
 * questions take milliseconds either way.
 */
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { warmUpAsking, type WarmUpReport } from '../core/ask/askWarmUp';
import type { Corpus } from '../core/corpus/types';
import type { AskResources } from './askResources';
import type { HandlerContext } from './handlerContext';

/** Corpora this large (in words) are warmed up. */
export const WARM_MIN_WORDS = 2_000_000;

/** For tests: the size from which a corpus is warmed up, what is told when a warm-up ends, and a hold before each of its questions. */
export const askWarmingTesting: { minWords: number; onReport?: (report: WarmUpReport) => void; beforeQuestion?: (i: number) => Promise<void> | void } = { minWords: WARM_MIN_WORDS };

/** Starts warming up each corpus the engine loads (see the module comment); disposing stops it. */
export function startAskWarming(c: HandlerContext, resources: AskResources): { dispose(): void } {
  let current: CancellationTokenSource | undefined;
  const stop = (): void => {
    current?.cancel();
    current = undefined;
  };
  const warm = async (corpus: Corpus, source: CancellationTokenSource): Promise<void> => {
    await c.state.searchIndex(corpus);
    if (source.token.isCancellationRequested || c.state.current() !== corpus) return;
    const report = await c.running.run(source.token, async (signal) => warmUpAsking(await resources.offlineContext(corpus), { signal, beforeQuestion: askWarmingTesting.beforeQuestion }));
    const topics = [report.topics.latin, report.topics.han].filter(Boolean).join(', ');
    c.state.log.info(
      `ask: warmed up in ${Math.round(report.ms)} ms: ${report.questions.length} question${report.questions.length === 1 ? '' : 's'} about ${topics || 'no topic word'}` +
        (report.stopped ? ` (stopped: ${report.stopped === 'aborted' ? 'a question came' : 'time budget'})` : '') +
        (report.skippedComments ? `; ${report.skippedComments} about comments left for a real question (the corpus's spam is not decided yet)` : ''),
    );
    askWarmingTesting.onReport?.(report);
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
  const asked = resources.onQuestion(stop);
  return {
    dispose: () => {
      stop();
      loaded.dispose();
      asked.dispose();
    },
  };
}
