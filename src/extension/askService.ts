/**
 * Ask the corpus in the editor (SPEC §5 "Ask the corpus", §6): the sidebar's
 * Ask box and "Marker Research: Ask the Corpus". Holds the ask context of the
 * loaded corpus (search index, entity index, markers; rebuilt lazily after the
 * corpus or its markers change), runs core's `askCorpus` for one question at a
 * time (a new question cancels the one before, and "Marker Research: Cancel"
 * aborts it too), maps the result to the wire types of the sidebar and logs
 * each question. Query understanding is offline (rules) unless a model
 * provider and a model are configured; vectors come from an optional provider
 * hook (see {@link AskService.setVectorSearcherProvider}).
 */
import * as vscode from 'vscode';
import { askCorpus, describeQuery, forgetAnswers, type AskResult } from '../core/ask/ask';
import { openAskContext } from '../core/ask/askContext';
import { findCitationNumbers } from '../core/ask/citationForms';
import { readReportCitations } from '../core/ask/reportCitations';
import type { ParsedQuery } from '../core/ask/query';
import type { AskContext, AskHit, VectorSearcher } from '../core/ask/types';
import { locationLabel, storedLocationLabel } from '../core/corpus/locationLabel';
import { mapSpan } from '../core/corpus/spans';
import type { Corpus, CorpusItem, PartKind } from '../core/corpus/types';
import type { ModelClient } from '../core/llm/client';
import type { ItemMarkers } from '../core/markers/schema';
import { formatClock } from '../core/text/clock';
import { CancelledError } from '../core/util/abort';
import type { AskHitView, AskQueryView, AskResultView } from '../shared/webviewProtocol';
import type { CorpusService } from './corpusService';
import { corpusFile, type SpanOpener } from './evidenceNavigator';
import { markerEngineFor, MarkerServiceError, type ApiKeyStore, type MarkerService } from './markerService';
import { runningWork } from './runningWork';
import type { SettingsService } from './settings';
import type { AskMessage, SidebarQuestion } from './sidebarActions';
import { SidebarViewProvider } from './sidebarView';

/**
 * The hook for embeddings: given the loaded corpus, the vector searcher over
 * its persisted vectors, or undefined when no embedding model is configured
 * (then the `vector` strategy stays silent). Called when the ask context is
 * (re)built, so at most once per corpus, markers or provider change.
 */
export type VectorSearcherProvider = (corpus: Corpus, signal: AbortSignal) => VectorSearcher | undefined | Promise<VectorSearcher | undefined>;

export type AskErrorReason = 'no-corpus' | 'not-found';

/** A question that cannot be asked; `reason` says why. Messages start with `ask:`. */
export class AskServiceError extends Error {
  constructor(
    readonly reason: AskErrorReason,
    message: string,
  ) {
    super(`ask: ${message}`);
    this.name = 'AskServiceError';
  }
}

/** Characters of a hit's quote (the box shows one line of it; the tooltip more). */
const QUOTE_CHARS = 280;
/** Hits asked for. */
const HITS = 10;

/** `1:02–1:30`, `1:02`, or null without timestamps. */
function timeRange(start: number | undefined, end: number | null | undefined): string | null {
  if (start === undefined) return null;
  if (end === undefined || end === null) return formatClock(start);
  return Math.floor(end) > Math.floor(start) ? `${formatClock(start)}–${formatClock(end)}` : formatClock(start);
}

/**
 * A short quote of `text`, whitespace collapsed: from its start, or from just
 * before the first keyword when that lies past the first line's worth.
 */
export function quoteOf(text: string, keywords: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const k of keywords) {
    const i = k.trim() ? lower.indexOf(k.trim().toLowerCase()) : -1;
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  let start = 0;
  if (at > 60) {
    // back to the start of the sentence (or a word) shortly before the keyword
    const window = flat.slice(Math.max(0, at - 60), at);
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('。'), window.lastIndexOf('? '), window.lastIndexOf('! '), window.lastIndexOf('？'), window.lastIndexOf('！'));
    const space = window.indexOf(' ');
    start = Math.max(0, at - 60) + (sentence >= 0 ? sentence + 1 : space >= 0 ? space + 1 : 0);
  }
  const body = flat.slice(start, start + QUOTE_CHARS).trim();
  return `${start > 0 ? '…' : ''}${body}${start + QUOTE_CHARS < flat.length ? '…' : ''}`;
}

function speakersOf(names: readonly string[]): string | null {
  if (!names.length) return null;
  return names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} +${names.length - 2}`;
}

/** How the box shows a parsed query. */
export function queryView(q: ParsedQuery): AskQueryView {
  return {
    question: q.question,
    intent: q.intent,
    line: describeQuery(q),
    entities: q.entities.map((e) => ({ label: e.label, fromSession: e.fromSession })),
    time: q.timeConstraint ? (q.timeConstraint.endS === null ? `from ${formatClock(q.timeConstraint.startS)}` : timeRange(q.timeConstraint.startS, q.timeConstraint.endS)) : null,
    part: q.part,
    resolvedQuery: q.resolvedQuery,
    engine: q.engine,
  };
}

/** A hit's place in words from what the retriever mapped, when the item is not at hand. */
function storedHitLocation(h: AskHit): string {
  const src = h.source;
  if (!src) return h.part;
  return storedLocationLabel({ file: src.file.relPath, ...src.range, startTime: src.startTime, endTime: src.endTime, speakers: src.speakers, commentIds: src.commentIds }, h.part);
}

/** How the box shows a hit. */
export function hitView(h: AskHit, keywords: readonly string[], item?: CorpusItem): AskHitView {
  // The focus (the best turns of the span) is what the box quotes and opens; the whole span stays in the tooltip's reasons.
  const focused = item ? mapSpan(item, { part: h.part, start: h.focus.start, end: h.focus.end }) : undefined;
  const src = focused ?? h.source;
  const text = focused && item ? (h.part === 'transcript' ? item.transcript : item.comments)!.text.slice(h.focus.start, h.focus.end) : h.text;
  return {
    rank: h.rank,
    itemId: h.itemId,
    title: h.title,
    part: h.part,
    start: focused ? h.focus.start : h.start,
    end: focused ? h.focus.end : h.end,
    speaker: src ? speakersOf(src.speakers) : null,
    time: src ? timeRange(src.startTime, src.endTime) : null,
    where: src ? `${src.file.relPath}:${src.range.startLine + 1}:${src.range.startColumn + 1}` : null,
    location: item ? locationLabel(item, h.part, focused ? h.focus.start : h.start, focused ? h.focus.end : h.end, { title: false }) : storedHitLocation(h),
    quote: quoteOf(text, keywords),
    matchedBy: [...h.matchedBy],
    why: [...h.why],
    score: h.score,
  };
}

/** The whole answer as the box shows it. */
export function askResultView(askId: number, r: AskResult, scope: AskResultView['scope'], notes: readonly string[] = [], corpus?: Corpus): AskResultView {
  const keywords = [...r.query.keywords, ...r.query.entities.map((e) => e.label)];
  const items = new Map(corpus?.items.map((i) => [i.id, i]));
  return { askId, query: queryView(r.query), hits: r.hits.map((h) => hitView(h, keywords, items.get(h.itemId))), scope, ms: Math.round(r.ms), notes: [...notes, ...r.notes] };
}

/** The markers of the current corpus that could be read, by item id. */
function readableMarkers(markers: MarkerService): Map<string, ItemMarkers> {
  const out = new Map<string, ItemMarkers>();
  for (const [id, e] of markers.markers) if (e.ok) out.set(id, e.value);
  return out;
}

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Questions to the current corpus, one at a time. */
export class AskService implements vscode.Disposable {
  /** The ask context of `corpus`, built on the first question after a change. */
  private context: { corpus: Corpus; ctx: Promise<AskContext> } | undefined;
  private current: { askId: number; controller: AbortController } | undefined;
  private seq = 0;
  private vectors: VectorSearcherProvider | undefined;
  private readonly updated = new vscode.EventEmitter<AskMessage>();
  private readonly subs: vscode.Disposable[];
  /** Progress, results and errors of questions, for the sidebar. */
  readonly onDidUpdate = this.updated.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly corpus: CorpusService,
    private readonly markers: MarkerService,
    private readonly apiKey: ApiKeyStore,
    private readonly promptsDir: string,
    private readonly openSpan: SpanOpener,
  ) {
    this.subs = [corpus.onDidLoad(() => this.invalidate()), markers.onDidChange(() => this.invalidate())];
  }

  /**
   * Registers where vectors come from (the embeddings feature). The ask
   * context is rebuilt with it on the next question; disposing the returned
   * handle removes the provider again.
   */
  setVectorSearcherProvider(provider: VectorSearcherProvider | undefined): vscode.Disposable {
    this.vectors = provider;
    this.invalidate();
    return new vscode.Disposable(() => {
      if (this.vectors !== provider) return;
      this.vectors = undefined;
      this.invalidate();
    });
  }

  /** Drops the ask context: the next question builds it again (after Index Corpus, new markers, a new vector provider). */
  invalidate(): void {
    this.context = undefined;
  }

  /** Stops the question being answered, if any. */
  cancel(): void {
    this.current?.controller.abort();
  }

  /**
   * Answers `q` and posts the answer (or the error) through {@link onDidUpdate}.
   * A question asked meanwhile supersedes this one: it is aborted and posts nothing.
   */
  async ask(q: SidebarQuestion): Promise<void> {
    const askId = ++this.seq;
    this.current?.controller.abort();
    const controller = new AbortController();
    this.current = { askId, controller };
    const question = q.question.trim();
    const started = Date.now();
    this.updated.fire({ type: 'askBusy', askId, question, busy: true });
    try {
      const corpus = this.corpus.current;
      if (!corpus) throw new AskServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
      const notes: string[] = [];
      let itemId = q.itemId;
      const item = itemId ? corpus.items.find((it) => it.id === itemId) : undefined;
      if (itemId && !item) {
        notes.push(`The item "${itemId}" is not in the corpus any more: asked the whole corpus.`);
        itemId = undefined;
      }
      // (the view's own progress bar; "Marker Research: Cancel" aborts the question too)
      const result = await runningWork.run(controller.signal, async (signal) =>
        vscode.window.withProgress({ location: { viewId: SidebarViewProvider.viewId } }, async () => {
          const ctx = await this.contextFor(corpus, signal);
          // "[3]", "引用3", "fuente 3" refer to the newest report of the corpus, read when a question cites (a run may have finished since).
          if (findCitationNumbers(question).numbers.length) {
            const cited = await readReportCitations(corpus.root, 'latest').catch(() => undefined);
            ctx.citations = cited?.citations;
            forgetAnswers(ctx);
          }
          const model = await this.modelFor(notes);
          return askCorpus(ctx, { question, itemId, session: q.session }, { k: HITS, model, promptsDir: this.promptsDir, rerank: this.settings.value.askRerank, signal });
        }),
      );
      if (this.current?.askId !== askId) return; // superseded
      const view = askResultView(askId, result, item && itemId ? { itemId: item.id, title: item.title } : null, notes, corpus);
      this.log.info(
        `ask #${askId}: "${clip(question)}"${itemId ? ` in ${itemId}` : ''}${q.session.length ? ` (after ${q.session.length} earlier question${q.session.length > 1 ? 's' : ''})` : ''} → ${view.query.line}; ${result.hits.length} hits in ${Math.round(result.ms)} ms${result.hits.length ? `: ${result.hits.slice(0, 3).map((h) => `${h.itemId}/${h.part} [${h.matchedBy.join(',')}]`).join('; ')}` : ''}`,
      );
      for (const n of view.notes) this.log.info(`ask #${askId}: ${n}`);
      this.updated.fire({ type: 'askResult', result: view });
    } catch (e) {
      if (this.current?.askId !== askId) return; // superseded: the newer question speaks for the box
      if (e instanceof CancelledError || controller.signal.aborted) {
        this.log.info(`ask #${askId}: cancelled after ${Date.now() - started} ms`);
        this.updated.fire({ type: 'askBusy', askId, question, busy: false });
        return;
      }
      const message = (e as Error).message.replace(/^ask: /, '');
      if (e instanceof AskServiceError) this.log.warn(`ask #${askId}: ${message}`);
      else this.log.error(`ask #${askId}: "${clip(question)}" failed: ${(e as Error).stack ?? message}`);
      this.updated.fire({ type: 'askError', askId, question, message: `${message.charAt(0).toUpperCase()}${message.slice(1)}` });
    } finally {
      if (this.current?.askId === askId) this.current = undefined;
    }
  }

  /**
   * Opens a hit at its span in the original file, selected and highlighted as
   * marker evidence is. The span is checked against the loaded corpus (the
   * webview only names it).
   */
  async openHit(itemId: string, part: PartKind, start: number, end: number): Promise<void> {
    const corpus = this.corpus.current;
    if (!corpus) throw new AskServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
    const item = corpus.items.find((it) => it.id === itemId);
    const text = (part === 'transcript' ? item?.transcript : item?.comments)?.text;
    if (!item || text === undefined) throw new AskServiceError('not-found', `no ${part} of "${itemId}" in the indexed corpus; run Index Corpus and ask again.`);
    if (end > text.length) throw new AskServiceError('not-found', `the hit is past the end of the ${part} of "${itemId}" (the corpus changed since the question); ask again.`);
    const src = mapSpan(item, { part, start, end });
    if (!src) throw new AskServiceError('not-found', `the hit in the ${part} of "${itemId}" has no place in its file; ask again.`);
    await this.openSpan({ itemId, part, start, end }, { uri: corpusFile(corpus.root, src.file.relPath), ranges: [src.range] }, `hit ${itemId}/${part} [${start}, ${end})`);
    this.log.info(`ask: opened ${itemId}/${part} [${start}, ${end}) (${src.file.relPath}:${src.range.startLine + 1}:${src.range.startColumn + 1}-${src.range.endLine + 1}:${src.range.endColumn + 1})`);
  }

  /**
   * The shared ask context of `corpus` and the model of the settings (none offline), for
   * other askers of the corpus (the Chat view); `notes` hears why a model could not be used.
   */
  async resources(corpus: Corpus, signal: AbortSignal, notes: string[]): Promise<{ ctx: AskContext; model: ModelClient | undefined }> {
    const ctx = await this.contextFor(corpus, signal);
    return { ctx, model: await this.modelFor(notes) };
  }

  /** The ask context of `corpus`: the cached one, or a new one (the search index, the markers read, vectors from the hook). */
  private contextFor(corpus: Corpus, signal: AbortSignal): Promise<AskContext> {
    if (this.context?.corpus === corpus) return this.context.ctx;
    const started = Date.now();
    const markers = readableMarkers(this.markers);
    const provider = this.vectors;
    // Built without the question's signal: a cancelled question must not leave a half-built context behind.
    const build = new AbortController();
    const ctx = (async () => {
      const index = await this.markers.searchIndex(corpus);
      const vectors = provider ? await provider(corpus, build.signal) : undefined;
      const ctx = await openAskContext(corpus, index, { markers, vectors, signal: build.signal });
      this.log.info(`ask: context for ${corpus.items.length} items built in ${Date.now() - started} ms (${markers.size} items with markers${vectors ? `, vectors of ${vectors.model}` : ', no vectors'})`);
      return ctx;
    })();
    const entry = { corpus, ctx };
    this.context = entry;
    ctx.catch((e: Error) => {
      if (this.context === entry) this.context = undefined;
      this.log.warn(`ask: building the context failed: ${e.message}`);
    });
    return abortable(ctx, signal);
  }

  /**
   * The model for query understanding: with a model provider and a model set,
   * the client `markerEngineFor` builds (API key from SecretStorage); otherwise
   * (and when that client cannot be built) none: the rules understand offline.
   */
  private async modelFor(notes: string[]): Promise<ModelClient | undefined> {
    const s = this.settings.value;
    if (s.provider === 'extractive' || !s.model.trim()) return undefined;
    try {
      const engine = markerEngineFor(s, { apiKey: await this.apiKey.get(), promptsDir: this.promptsDir, log: this.log });
      // As in research: the model engine's model is core's ModelClient (createMarkerEngine).
      return engine.kind === 'model' ? (engine.model as ModelClient) : undefined;
    } catch (e) {
      if (!(e instanceof MarkerServiceError)) throw e;
      const why = e.message.replace(/^markers: /, '');
      this.log.warn(`ask: understood offline: ${why}`);
      notes.push(`Understood offline (rules): ${why}`);
      return undefined;
    }
  }

  dispose(): void {
    this.current?.controller.abort();
    for (const d of this.subs) d.dispose();
    this.updated.dispose();
  }
}

/** `p`, or a CancelledError as soon as `signal` aborts (`p` itself runs on). */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
