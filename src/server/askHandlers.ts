/**
 * The ask requests of the engine (see src/shared/lspProtocol.ts): a
 * question of the Ask box answered by core's `askCorpus` over the shared ask
 * context (`askResources.ts`) — limited to the item in focus, earlier
 * questions resolving pronouns, "[3]" citing the newest report — as the view
 * the sidebar shows, with where each hit opens; where a hit opens on its own;
 * dropping the cached context; stopping the embedding.
 */
import * as l10n from '@vscode/l10n';
import { askCorpus, forgetAnswers } from '../core/ask/ask';
import { writtenAnswer } from '../core/ask/writtenAnswer';
import { referentsOf } from '../core/ask/referents';
import { findCitationNumbers } from '../core/ask/citationForms';
import { readReportCitations } from '../core/ask/reportCitations';
import { mapSpan } from '../core/corpus/spans';
import { CancelledError } from '../core/util/abort';
import { askInvalidateNotification, askRequest, hitPlaceRequest, vectorCancelNotification, type AskParams, type AskResponse, type HitPlaceParams, type SpanPlace } from '../shared/lspProtocol';
import { parseAsk, parseHitPlace } from './askParams';
import { askResources } from './askResources';
import { startAskWarming } from './askWarming';
import { askResultView } from './askViews';
import { EngineError } from './engineState';
import type { HandlerContext } from './handlerContext';
import { spanPlace } from './spanPlaces';
import { guarded, toResponseError } from './work';

/** Hits asked for. */
const HITS = 10;

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function registerAskHandlers(ctx: HandlerContext): void {
  const resources = askResources(ctx);
  const { log } = ctx.state;
  // A large corpus's Ask path is warmed up after it loads, until the first question.
  startAskWarming(ctx, resources);

  async function ask(p: AskParams, signal: AbortSignal): Promise<AskResponse> {
    const { askId } = p;
    const question = p.question.trim();
    const started = Date.now();
    try {
      if (!question) throw new EngineError('bad-request', l10n.t('the question is empty.'));
      const corpus = ctx.state.requireCorpus();
      const notes: string[] = [];
      let itemId = p.itemId ?? undefined;
      const item = itemId ? ctx.state.item(itemId) : undefined;
      if (itemId && !item) {
        notes.push(l10n.t('The item "{0}" is not in the corpus any more: asked the whole corpus.', itemId));
        itemId = undefined;
      }
      const { result, index, written } = await resources.withKey(p.apiKey, async () => {
        const askCtx = await resources.contextFor(corpus, p, { askId, asker: 'ask' }, signal);
        // "[3]", "引用3", "fuente 3" refer to the newest report of the corpus, read when a question cites (a run may have finished since).
        if (findCitationNumbers(question).numbers.length) {
          const cited = await readReportCitations(corpus.root, 'latest').catch(() => undefined);
          askCtx.citations = cited?.citations;
          forgetAnswers(askCtx);
        }
        const model = resources.modelFor(p, notes);
        const asked = await askCorpus(askCtx, { question, itemId, session: p.session }, { k: HITS, model, promptsDir: ctx.state.promptsDir, rerank: p.settings.askRerank, signal });
        // With a model: a short answer in its words from the same sentences, every [n] checked (the sentences stay shown).
        let text: string | null = null;
        if (model && asked.answer.length) {
          try {
            const w = await writtenAnswer(model, asked.query.question, asked.answer, { promptsDir: ctx.state.promptsDir, signal, referents: referentsOf(asked.query) });
            text = w.text || null;
            if (w.removed.length) notes.push(l10n.t('The model cited {0}, which no sentence of the answer carries: removed.', w.removed.map((n) => `[${n}]`).join(', ')));
          } catch (e) {
            if (signal.aborted) throw new CancelledError();
            notes.push(l10n.t('The model could not write the answer ({0}): the sentences below are the answer.', (e as Error).message.replace(/^llm: /, '')));
          }
        }
        return { result: asked, index: askCtx.index, written: text };
      });
      if (signal.aborted) throw new CancelledError();
      const view = askResultView(askId, result, item && itemId ? { itemId: item.id, title: item.title } : null, notes, corpus, index, written);
      const r = view.result;
      log.info(
        `ask #${askId}: "${clip(question)}"${itemId ? ` in ${itemId}` : ''}${p.session.length ? ` (after ${p.session.length} earlier question${p.session.length > 1 ? 's' : ''})` : ''} → ${r.query.line}; ${result.hits.length} hits in ${Math.round(result.ms)} ms${result.hits.length ? `: ${result.hits.slice(0, 3).map((h) => `${h.itemId}/${h.part} [${h.matchedBy.join(',')}]`).join('; ')}` : ''}`,
      );
      for (const n of r.notes) log.info(`ask #${askId}: ${n}`);
      return view;
    } catch (e) {
      if (e instanceof CancelledError || signal.aborted) log.info(`ask #${askId}: cancelled after ${Date.now() - started} ms`);
      else if (e instanceof EngineError) log.warn(`ask #${askId}: ${e.message}`);
      else log.error(`ask #${askId}: "${clip(question)}" failed: ${(e as Error).stack ?? (e as Error).message}`);
      throw signal.aborted && !(e instanceof EngineError) ? new CancelledError() : e;
    }
  }

  ctx.connection.onRequest(askRequest, async (raw, token) => {
    try {
      const p = parseAsk(raw, askRequest.method);
      return await ctx.running.run(token, (signal) => ask(p, signal));
    } catch (e) {
      throw toResponseError(e);
    }
  });

  /** Where a hit opens, checked against the indexed corpus (the client names it). */
  function hitPlace(p: HitPlaceParams): SpanPlace {
    const corpus = ctx.state.requireCorpus();
    const { itemId, part, start, end } = p;
    const item = ctx.state.item(itemId);
    const text = (part === 'transcript' ? item?.transcript : item?.comments)?.text;
    if (!item || text === undefined) throw new EngineError('not-found', l10n.t('no {0} of "{1}" in the indexed corpus; run Index Corpus and ask again.', part, itemId));
    if (end > text.length) throw new EngineError('not-found', l10n.t('the hit is past the end of the {0} of "{1}" (the corpus changed since the question); ask again.', part, itemId));
    const src = mapSpan(item, { part, start, end });
    if (!src) throw new EngineError('not-found', l10n.t('the hit in the {0} of "{1}" has no place in its file; ask again.', part, itemId));
    return spanPlace(corpus.root, { itemId, part, start, end }, src.file.relPath, src.range);
  }

  ctx.connection.onRequest(hitPlaceRequest, guarded((raw) => hitPlace(parseHitPlace(raw, hitPlaceRequest.method))));

  ctx.connection.onNotification(askInvalidateNotification, () => {
    resources.invalidate();
    log.debug('ask: context dropped (settings changed); the next question builds it again');
  });

  ctx.connection.onNotification(vectorCancelNotification, () => {
    if (resources.cancelVectors()) log.info('vectors: embedding told to stop');
  });
}
