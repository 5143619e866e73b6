/**
 * The retrieval handler of Phase 3 (seed 000, step 3.3): serves a step's requests from the loaded
 * corpus — whole items (never cut; an item larger than the whole budget is paged as labelled
 * chunks), a marker's evidence with a context window, topic passages, and all markers of given
 * kinds with their contexts, and an item's condensed claims (a level between markers and full
 * content: the local condensation's claims, each with its exact evidence spans; stale ones are
 * refused with the reason). Every served span gets a run-unique source id `S<n>` that findings
 * cite. Requests are validated one by one; a bad one is rejected with a message for the model.
 * Nothing is read from disk: only the in-memory corpus (and the condensations handed to
 * {@link RetrievalHandler.useCondensed}) is served.
 */
import { mapSpan, storedRange } from '../corpus/spans';
import type { CommentRecord, CommentsPart, Corpus, CorpusItem, PartKind, TranscriptPart, TranscriptSegment } from '../corpus/types';
import { estimateTokens } from '../llm/tokens';
import type { ItemMarkers, Marker } from '../markers/schema';
import { allMarkers } from '../markers/store';
import { spamFreeComments } from '../markers/spamFree';
import { CorpusIndex } from '../search/corpusIndex';
import { retrieve } from '../search/retrieve';
import { countWords } from '../text/words';
import { contentRequestSchema, type ContentRequest, type RequestLogEntry, type ResearchConfig, type SourceSpan } from './schema';
import { formatClock } from '../text/clock';
import type { CondensedClaims, ServableClaim } from './condensedSource';

/** Hands out run-unique source ids; the same span always gets the same id. */
export class SourceRegistry {
  #next = 1;
  readonly #byKey = new Map<string, string>();
  readonly #spans = new Map<string, SourceSpan>();

  /** Starts after the ids of `existing` spans (a resumed run keeps its ids). */
  constructor(existing: Iterable<SourceSpan> = []) {
    for (const s of existing) this.#add(s);
  }

  #add(s: SourceSpan): void {
    this.#spans.set(s.source_id, s);
    this.#byKey.set(spanKey(s.item_id, s.part, s.start, s.end), s.source_id);
    const n = Number(/^S(\d+)$/.exec(s.source_id)?.[1] ?? 0);
    if (n >= this.#next) this.#next = n + 1;
  }

  /** The span's source (registering it when new); undefined when the span does not map to a file. */
  register(item: CorpusItem, part: PartKind, start: number, end: number, markerId?: string): SourceSpan | undefined {
    const key = spanKey(item.id, part, start, end);
    const known = this.#byKey.get(key);
    if (known) return this.#spans.get(known);
    const src = mapSpan(item, { part, start, end });
    if (!src) return undefined;
    const span: SourceSpan = {
      source_id: `S${this.#next++}`,
      item_id: item.id,
      part,
      start,
      end,
      source: storedRange(src),
      ...(markerId ? { marker_id: markerId } : {}),
    };
    this.#add(span);
    return span;
  }

  get(id: string): SourceSpan | undefined {
    return this.#spans.get(id);
  }

  get size(): number {
    return this.#spans.size;
  }

  all(): SourceSpan[] {
    return [...this.#spans.values()];
  }
}

function spanKey(item: string, part: string, start: number, end: number): string {
  return `${item}\u0000${part}\u0000${start}\u0000${end}`;
}

type Unit = TranscriptSegment | CommentRecord;

function unitsOf(part: TranscriptPart | CommentsPart): Unit[] {
  return part.kind === 'transcript' ? part.segments : part.comments.filter((c) => c.text.trim() !== '');
}

/** The part as it is served: comments without spam (decided over the corpus, `spamFree.ts`; offsets unchanged). */
function partOf(item: CorpusItem, part: PartKind, corpus: Corpus): TranscriptPart | CommentsPart | undefined {
  return part === 'transcript' ? item.transcript : spamFreeComments(item, corpus);
}

/** Whether comments were left out (spam) between two consecutive units: a passage never spans them. */
function gap(a: Unit, b: Unit): boolean {
  return isComment(a) && isComment(b) && b.index !== a.index + 1;
}

/** Units split where comments were left out between them. */
function runsOf(units: readonly Unit[]): Unit[][] {
  const out: Unit[][] = [];
  for (const u of units) {
    const last = out[out.length - 1];
    if (last && !gap(last[last.length - 1]!, u)) last.push(u);
    else out.push([u]);
  }
  return out;
}


function unitLine(u: Unit): string {
  const text = u.text.replace(/\s*\n\s*/g, ' ');
  if (isComment(u)) {
    const c = u;
    const meta = [`comment ${c.id}`, c.author ? `@${c.author}` : '', c.likes !== undefined ? `${c.likes} likes` : '', c.parentId ? `reply to ${c.parentId}` : ''].filter(Boolean).join(' · ');
    return `(${meta}) ${text}`;
  }
  const s = u as TranscriptSegment;
  return s.speaker ? `${s.speaker}: ${text}` : text;
}

function isComment(u: Unit): u is CommentRecord {
  return typeof (u as CommentRecord).id === 'string';
}

function passageText(item: CorpusItem, part: PartKind, units: readonly Unit[], id: string): string {
  const first = units[0]!;
  const last = units[units.length - 1]!;
  const times = !isComment(first) && first.start !== undefined ? `, ${formatClock(first.start)}–${formatClock((last as TranscriptSegment).end ?? (last as TranscriptSegment).start ?? first.start)}` : '';
  return `[${id}] (${item.id}, ${part}${times})\n${units.map(unitLine).join('\n')}`;
}

/** A rendered, registered span of units. */
function renderUnits(item: CorpusItem, part: PartKind, units: readonly Unit[], reg: SourceRegistry, markerId?: string): { text: string; span?: SourceSpan; words: number } {
  const first = units[0]!;
  const last = units[units.length - 1]!;
  const span = reg.register(item, part, first.offset, last.offset + last.text.length, markerId);
  return { text: passageText(item, part, units, span?.source_id ?? '?'), span, words: units.reduce((a, u) => a + countWords(u.text), 0) };
}

/** Consecutive units grouped into passages of about `tokens` tokens (a unit is never split). */
function passages(units: readonly Unit[], tokens: number): Unit[][] {
  const out: Unit[][] = [];
  let cur: Unit[] = [];
  let n = 0;
  for (const u of units) {
    const t = estimateTokens(u.text) + 4;
    if (cur.length && (n + t > tokens || gap(cur[cur.length - 1]!, u))) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(u);
    n += t;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The units around `[start, end)`: the ones it touches plus about `contextWords` words each side. */
function contextUnits(units: readonly Unit[], start: number, end: number, contextWords: number): Unit[] {
  let a = units.findIndex((u) => u.offset + u.text.length > start);
  if (a < 0) a = units.length - 1;
  let z = a;
  while (z + 1 < units.length && units[z + 1]!.offset < end) z++;
  let left = 0;
  while (a > 0 && left < contextWords && !gap(units[a - 1]!, units[a]!)) left += countWords(units[--a]!.text);
  let right = 0;
  while (z + 1 < units.length && right < contextWords && !gap(units[z]!, units[z + 1]!)) right += countWords(units[++z]!.text);
  return units.slice(a, z + 1);
}

/** A step's budget across its rounds. */
export interface StepBudget {
  /** Tokens of content sent in this step so far (the overview included). */
  used: number;
}

/** The result of serving one turn of requests. */
export interface TurnResult {
  /** What the model sees next: served content, rejections, the deferral note. */
  text: string;
  entries: RequestLogEntry[];
  sources: SourceSpan[];
  /** Item ids deferred for the budget or the per-turn item limit. */
  deferred: string[];
  rejected: number;
  chunked: number;
  tokens: number;
}

/** What {@link RetrievalHandler.serveTurn} needs to know about the step. */
export interface TurnOptions {
  stepId: string;
  round: number;
  /** Relevance of items and markers to the step (from the overview's scoring). */
  itemScores?: ReadonlyMap<string, number>;
  markerScores?: ReadonlyMap<string, number>;
  /** Default part for `full_content_item` without `part`. */
  defaultPart?: 'transcript' | 'comments' | 'transcript_with_comments';
  lang?: 'en' | 'zh';
}

interface Prepared {
  index: number;
  raw: unknown;
  req?: ContentRequest;
  error?: string;
  /** What the model should do instead of a rejected request (default: use the overview's ids). */
  hint?: string;
  priority: number;
  items: string[];
}

const ID_OK = /^[^/\\]{1,300}$/;

/** Why an unknown id is refused, or undefined when it is well-formed (known item and marker ids are served whatever they hold). */
export function badId(id: unknown): string | undefined {
  if (typeof id !== 'string' || id.trim() === '') return 'an id must be a non-empty string';
  if (!ID_OK.test(id) || id.includes('..') || id.includes('\0')) return `"${id.slice(0, 80)}" looks like a path; ids are the item and marker ids of the overview`;
  return undefined;
}

/**
 * Serves requests from the corpus under the step's context budget.
 *
 * @example
 * const h = new RetrievalHandler(corpus, markersById, config, new SourceRegistry());
 * const turn = h.serveTurn([{ type: 'by_marker', marker_id: 'ev:F:1169009c08' }], { used: 900 }, { stepId: 's1', round: 1 });
 * turn.text; // "### Request 1: by_marker … served\n[S1] (ev-winter-range, transcript, 0:12–0:31) …"
 */
export class RetrievalHandler {
  readonly #items: Map<string, CorpusItem>;
  readonly #markers = new Map<string, { itemId: string; marker: Marker }>();
  #index: CorpusIndex | undefined;
  #condensed: CondensedClaims | undefined;

  constructor(
    private readonly corpus: Corpus,
    private readonly markersByItem: ReadonlyMap<string, ItemMarkers>,
    private readonly config: ResearchConfig,
    readonly registry: SourceRegistry,
    index?: CorpusIndex,
    condensed?: CondensedClaims,
  ) {
    this.#items = new Map(corpus.items.map((i) => [i.id, i]));
    for (const [itemId, im] of markersByItem) for (const m of allMarkers(im)) this.#markers.set(m.id, { itemId, marker: m });
    this.#index = index;
    this.#condensed = condensed;
  }

  /** The condensations `condensed_claims` requests are served from (none: every such request is refused). */
  get condensed(): CondensedClaims | undefined {
    return this.#condensed;
  }

  /** Serves `condensed_claims` requests from `condensed` (see `loadCondensedClaims`). */
  useCondensed(condensed: CondensedClaims): void {
    this.#condensed = condensed;
  }

  /** The search index (built in memory on first use when none was given). */
  get index(): CorpusIndex {
    return (this.#index ??= CorpusIndex.build(this.corpus));
  }

  item(id: string): CorpusItem | undefined {
    return this.#items.get(id);
  }

  /** A part of an item as this handler serves it: the transcript, or the comments without spam (`spamFree.ts`). */
  servedPart(item: CorpusItem, part: string): TranscriptPart | CommentsPart | undefined {
    return part === 'transcript' || part === 'comments' ? partOf(item, part, this.corpus) : undefined;
  }

  marker(id: string): { itemId: string; marker: Marker } | undefined {
    return this.#markers.get(id);
  }

  /** The source of a marker's first evidence span (registering it), for a finding that cites a marker id. */
  sourceForMarker(markerId: string): SourceSpan | undefined {
    const m = this.#markers.get(markerId);
    const item = m && this.#items.get(m.itemId);
    const ev = m?.marker.evidence[0];
    if (!m || !item || !ev) return undefined;
    return this.registry.register(item, ev.part, ev.start, ev.end, markerId);
  }

  /** Why an item id is refused: a loaded item is always served, whatever its id holds (`..`, `/`). */
  #checkItem(id: unknown): string | undefined {
    if (typeof id === 'string' && this.#items.has(id)) return undefined;
    return badId(id) ?? `unknown item id "${String(id).slice(0, 80)}"`;
  }

  #prepare(raw: unknown, index: number, opts: TurnOptions): Prepared {
    const parsed = contentRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { index, raw, error: `malformed request: ${issue ? `${issue.path.join('.') || 'request'}: ${issue.message}` : 'invalid'}`, priority: 0, items: [] };
    }
    const req = parsed.data;
    const score = (id: string): number => opts.itemScores?.get(id) ?? 0;
    switch (req.type) {
      case 'full_content_item':
      case 'selective_markers': {
        const err = this.#checkItem(req.item_id);
        return err ? { index, raw, error: err, priority: 0, items: [] } : { index, raw, req, priority: score(req.item_id), items: [req.item_id] };
      }
      case 'by_marker': {
        // Marker ids start with their item's id, so a known one is served whatever it holds.
        const m = this.#markers.get(req.marker_id);
        if (!m) return { index, raw, error: badId(req.marker_id) ?? `unknown marker id "${req.marker_id.slice(0, 80)}"`, priority: 0, items: [] };
        return { index, raw, req, priority: (opts.markerScores?.get(req.marker_id) ?? 0) + score(m.itemId), items: [m.itemId] };
      }
      case 'condensed_claims': {
        const err = this.#checkItem(req.item_id);
        if (err) return { index, raw, error: err, priority: 0, items: [] };
        const st = this.#condensed?.get(req.item_id);
        const instead = 'Request full_content_item (or by_topic / selective_markers) for this item instead.';
        if (!st) return { index, raw, error: `"${req.item_id}" has no condensed claims (it was not condensed)`, hint: instead, priority: 0, items: [] };
        if (st.status !== 'fresh') return { index, raw, error: st.reason, hint: instead, priority: 0, items: [] };
        return { index, raw, req, priority: score(req.item_id), items: [req.item_id] };
      }
      case 'by_topic': {
        for (const id of req.item_ids ?? []) {
          const err = this.#checkItem(id);
          if (err) return { index, raw, error: err, priority: 0, items: [] };
        }
        const ids = req.item_ids ?? [];
        return { index, raw, req, priority: ids.length ? Math.max(...ids.map(score)) : 0, items: [] };
      }
    }
  }

  /** Passages of a full item's requested parts. */
  #fullPassages(item: CorpusItem, part: 'transcript' | 'comments' | 'transcript_with_comments'): { part: PartKind; units: Unit[] }[] {
    const parts: PartKind[] = part === 'transcript_with_comments' ? ['transcript', 'comments'] : [part];
    const out: { part: PartKind; units: Unit[] }[] = [];
    for (const p of parts) {
      const pp = partOf(item, p, this.corpus);
      if (!pp) continue;
      for (const units of passages(unitsOf(pp), Math.max(40, Math.min(250, Math.floor(this.config.context_window_limit * 0.15))))) out.push({ part: p, units });
    }
    return out;
  }

  /**
   * Serves one turn of requests. Requests are taken in order of relevance (marker, then item);
   * whole items that do not fit what is left of `context_window_limit` are deferred, never cut;
   * at most `max_content_items_per_turn` distinct items are served.
   */
  serveTurn(requests: readonly unknown[], budget: StepBudget, opts: TurnOptions): TurnResult {
    const zh = opts.lang === 'zh';
    const limit = this.config.context_window_limit;
    const prepared = requests.map((r, i) => this.#prepare(r, i, opts));
    const order = [...prepared].sort((a, b) => b.priority - a.priority || a.index - b.index);
    const blocks = new Map<number, string>();
    const entries = new Map<number, RequestLogEntry>();
    const sources: SourceSpan[] = [];
    const deferred: string[] = [];
    const deferNotes: string[] = [];
    const turnItems = new Set<string>();
    let rejected = 0;
    let chunked = 0;
    let tokens = 0;
    const time = new Date().toISOString();
    const entry = (p: Prepared, status: RequestLogEntry['status'], served: SourceSpan[], words: number, reason?: string, claims?: ReadonlyMap<string, string>): RequestLogEntry => ({
      time,
      step_id: opts.stepId,
      round: opts.round,
      request: p.raw,
      status,
      ...(reason ? { reason } : {}),
      served: served.map((s) => ({ source_id: s.source_id, item_id: s.item_id, part: s.part, start: s.start, end: s.end, ...(claims?.get(s.source_id) ? { claim_id: claims.get(s.source_id)! } : {}) })),
      words,
      cited_by: [],
    });
    const label = (p: Prepared): string => {
      const r = (p.req ?? p.raw) as Record<string, unknown> | undefined;
      const str = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/g, ' ').slice(0, 80) : '');
      const type = str(r?.['type']);
      if (!type) return `Request ${p.index + 1}`;
      const what = type === 'by_topic' ? `"${str(r?.['topic'])}"` : str(r?.['marker_id']) || str(r?.['item_id']);
      return `Request ${p.index + 1}: ${type}${what ? ` ${what}` : ''}`;
    };
    for (const p of order) {
      if (p.error || !p.req) {
        rejected++;
        const hint = p.hint ?? (zh ? '请只使用概览中列出的内容项 id 和标记 id。' : 'Use only the item ids and marker ids listed in the overview.');
        blocks.set(p.index, `### ${label(p)} — rejected: ${p.error}. ${hint}`);
        entries.set(p.index, entry(p, 'rejected', [], 0, p.error));
        continue;
      }
      const newItems = p.items.filter((i) => !turnItems.has(i));
      if (newItems.length && turnItems.size + newItems.length > this.config.max_content_items_per_turn) {
        deferred.push(...newItems);
        deferNotes.push(`${label(p)} (${zh ? '本轮内容项已达上限' : 'item limit of this turn reached'})`);
        entries.set(p.index, entry(p, 'deferred', [], 0, `max_content_items_per_turn (${this.config.max_content_items_per_turn})`));
        continue;
      }
      const remaining = limit - budget.used;
      const served = this.#serve(p.req, remaining, opts);
      if (served.kind === 'deferred') {
        deferred.push(...p.items);
        deferNotes.push(`${label(p)} (~${served.tokens} tokens)`);
        entries.set(p.index, entry(p, 'deferred', [], 0, `context budget: needs ~${served.tokens} tokens, ${Math.max(0, remaining)} left`));
        continue;
      }
      for (const i of p.items) turnItems.add(i);
      budget.used += served.tokens;
      tokens += served.tokens;
      sources.push(...served.sources);
      if (served.chunk) chunked++;
      blocks.set(p.index, `### ${label(p)} — ${served.chunk ? `chunk ${served.chunk.k} of ${served.chunk.n}` : 'served'}\n${served.text}`);
      entries.set(p.index, entry(p, served.chunk ? 'chunked' : 'served', served.sources, served.words, served.chunk ? `chunk ${served.chunk.k} of ${served.chunk.n}` : undefined, served.claims));
    }
    const parts = prepared.map((p) => blocks.get(p.index)).filter((b): b is string => !!b);
    if (deferNotes.length) {
      const left = Math.max(0, limit - budget.used);
      parts.push(
        zh
          ? `### 已推迟（上下文预算）\n以下请求未发送，内容项从不截断：${deferNotes.join('；')}。剩余预算约 ${left} tokens。请确定优先级：只重新请求最关键的内容（或用 by_marker / selective_markers 请求其中的片段），或者基于已有内容完成分析。`
          : `### Deferred (context budget)\nNot sent — items are never cut: ${deferNotes.join('; ')}. About ${left} tokens of the budget are left. Please prioritise: request again only the most critical of these (or pieces of them with by_marker / selective_markers), or finish with what you have.`,
      );
    }
    return { text: parts.join('\n\n'), entries: prepared.map((p) => entries.get(p.index)!), sources, deferred: [...new Set(deferred)], rejected, chunked, tokens };
  }

  #serve(
    req: ContentRequest,
    remaining: number,
    opts: TurnOptions,
  ): { kind: 'served'; text: string; sources: SourceSpan[]; tokens: number; words: number; chunk?: { k: number; n: number }; claims?: Map<string, string> } | { kind: 'deferred'; tokens: number } {
    const limit = this.config.context_window_limit;
    const reg = this.registry;
    const done = (blocks: { text: string; span?: SourceSpan; words: number }[], head: string, chunk?: { k: number; n: number }) => {
      const text = [head, ...blocks.map((b) => b.text)].filter(Boolean).join('\n\n');
      const tokens = estimateTokens(text);
      return { kind: 'served' as const, text, sources: blocks.map((b) => b.span).filter((s): s is SourceSpan => !!s), tokens, words: blocks.reduce((a, b) => a + b.words, 0), chunk };
    };
    switch (req.type) {
      case 'full_content_item': {
        const item = this.#items.get(req.item_id)!;
        const ps = this.#fullPassages(item, req.part ?? opts.defaultPart ?? 'transcript_with_comments');
        // Measure without registering ids: only what is sent gets a source id.
        const head = `Item ${item.id} — ${item.title} (full content, ${item.wordCount} words)`;
        const sizeOf = (list: typeof ps): number => estimateTokens([head, ...list.map((x) => passageText(item, x.part, x.units, 'S0000'))].join('\n\n'));
        const whole = sizeOf(ps);
        if (whole <= limit) {
          if (whole > remaining) return { kind: 'deferred', tokens: whole };
          return done(ps.map((x) => renderUnits(item, x.part, x.units, reg)), head);
        }
        // Larger than the whole budget: labelled chunks of about 40 % of it each.
        const target = Math.max(100, Math.floor(limit * 0.4));
        const chunks: (typeof ps)[] = [];
        let cur: typeof ps = [];
        for (const x of ps) {
          if (cur.length && sizeOf([...cur, x]) > target) {
            chunks.push(cur);
            cur = [];
          }
          cur.push(x);
        }
        if (cur.length) chunks.push(cur);
        const n = chunks.length;
        const k = Math.min(n, Math.max(1, req.chunk ?? 1));
        const chunk = chunks[k - 1]!;
        const size = sizeOf(chunk) + 80;
        if (size > remaining) return { kind: 'deferred', tokens: size };
        const next = k < n ? ` Next: {"type":"full_content_item","item_id":"${item.id}"${req.part ? `,"part":"${req.part}"` : ''},"chunk":${k + 1}}.` : ' This is the last chunk.';
        return done(
          chunk.map((x) => renderUnits(item, x.part, x.units, reg)),
          `Item ${item.id} — ${item.title}: chunk ${k} of ${n} (the item, ${item.wordCount} words, is larger than the whole context budget, so it is sent in ${n} chunks).${next}`,
          { k, n },
        );
      }
      case 'by_marker': {
        const { itemId, marker } = this.#markers.get(req.marker_id)!;
        const item = this.#items.get(itemId)!;
        const ev = marker.evidence[0];
        const pp = ev && partOf(item, ev.part, this.corpus);
        if (!ev || !pp) return done([], `Marker ${marker.id} (${marker.kind}): ${marker.text}\n(no evidence span: the marker is not grounded in the source)`);
        const units = contextUnits(unitsOf(pp), ev.start, ev.end, req.context_words ?? this.config.context_words);
        const size = estimateTokens(`Marker ${marker.id} (${marker.kind}): ${marker.text}\n\nEvidence [S0000]: "${ev.quote}"\n\n${units.length ? passageText(item, ev.part, units, 'S0000') : ''}`);
        if (size > remaining) return { kind: 'deferred', tokens: size };
        // The exact evidence gets its own source id (what a claim should cite), then the context around it.
        const evidence = reg.register(item, ev.part, ev.start, ev.end, marker.id);
        const block = units.length ? renderUnits(item, ev.part, units, reg) : { text: '', words: 0 };
        const quote = { text: `Evidence [${evidence?.source_id ?? '?'}]: "${ev.quote.replace(/\s+/g, ' ')}"`, span: evidence, words: countWords(ev.quote) };
        return done([quote, block], `Marker ${marker.id} (${marker.kind}): ${marker.text}`);
      }
      case 'by_topic': {
        const maxResults = req.max_results ?? 5;
        const budgetWords = Math.max(50, Math.min(maxResults * 250, Math.floor((remaining * 0.7) / 1.6)));
        if (remaining < 100) return { kind: 'deferred', tokens: 100 };
        const hits = retrieve(this.index, req.topic, { budgetWords, ...(req.item_ids?.length ? { itemIds: req.item_ids } : {}), ...(req.part ? { part: req.part } : {}) }).spans.slice(0, maxResults);
        const blocks = hits.map((h) => {
          const item = this.#items.get(h.itemId)!;
          const pp = partOf(item, h.part, this.corpus)!;
          return runsOf(unitsOf(pp).filter((u) => u.offset + u.text.length > h.start && u.offset < h.end)).map((run) => renderUnits(item, h.part, run, reg));
        }).flat();
        return done(blocks.filter((b) => b.text), `Passages about "${req.topic}"${hits.length ? '' : ': no matches'}`);
      }
      case 'condensed_claims':
        return this.#serveCondensed(req, remaining, opts);
      case 'selective_markers': {
        const item = this.#items.get(req.item_id)!;
        const im = this.markersByItem.get(item.id);
        const ms = im ? allMarkers(im).filter((m) => req.kinds.includes(m.kind)) : [];
        const blocks: { text: string; span?: SourceSpan; words: number }[] = [];
        for (const m of ms) {
          const ev = m.evidence[0];
          const pp = ev && partOf(item, ev.part, this.corpus);
          if (!ev || !pp) {
            blocks.push({ text: `• [${m.id}] ${m.kind}: ${m.text} (not grounded)`, words: 0 });
            continue;
          }
          const units = contextUnits(unitsOf(pp), ev.start, ev.end, Math.round(this.config.context_words / 3));
          const evidence = reg.register(item, ev.part, ev.start, ev.end, m.id);
          const b = renderUnits(item, ev.part, units, reg);
          blocks.push({ text: `• [${m.id}] ${m.kind}: ${m.text} — evidence [${evidence?.source_id ?? '?'}]`, span: evidence, words: 0 });
          blocks.push(b);
        }
        const tokens = blocks.reduce((a, b) => a + estimateTokens(b.text), 0);
        if (tokens > remaining) return { kind: 'deferred', tokens };
        return done(blocks, `Markers of ${item.id} (${req.kinds.join(', ')}): ${ms.length}${im ? '' : ' — the item has no markers'}`);
      }
    }
  }

  /**
   * An item's condensed claims (only a fresh condensation reaches here): grounded claims first, in
   * the order of their evidence, each citing its verified evidence spans as sources; claims
   * without such a span follow, marked and with nothing to cite. A list larger than the whole
   * budget is paged like a large item.
   */
  #serveCondensed(
    req: Extract<ContentRequest, { type: 'condensed_claims' }>,
    remaining: number,
    opts: TurnOptions,
  ): { kind: 'served'; text: string; sources: SourceSpan[]; tokens: number; words: number; chunk?: { k: number; n: number }; claims: Map<string, string> } | { kind: 'deferred'; tokens: number } {
    const limit = this.config.context_window_limit;
    const item = this.#items.get(req.item_id)!;
    const st = this.#condensed?.get(item.id);
    if (st?.status !== 'fresh') throw new Error(`research: condensed claims of ${item.id} are not servable`);
    const want = req.part ?? opts.defaultPart ?? 'transcript_with_comments';
    const parts: PartKind[] = want === 'transcript_with_comments' ? ['transcript', 'comments'] : [want];
    const fold = (x: string): string => x.normalize('NFKC').toLowerCase().trim();
    const cats = (req.categories ?? []).map(fold).filter(Boolean);
    const inParts = st.claims.filter((c) => parts.includes(c.claim.part));
    const picked = cats.length ? inParts.filter((c) => cats.some((k) => fold(c.claim.category).includes(k) || k.includes(fold(c.claim.category)))) : inParts;
    const pos = (c: ServableClaim): number => (c.claim.part === 'transcript' ? 0 : 1e12) + c.evidence[0]!.start;
    const ordered = [...picked.filter((c) => c.grounded).sort((a, b) => pos(a) - pos(b)), ...picked.filter((c) => !c.grounded)];
    const grounded = ordered.filter((c) => c.grounded).length;
    const allCats = [...new Set(inParts.map((c) => c.claim.category.trim()).filter(Boolean))];
    const scope = `${parts.join(' and ')}: ${ordered.length} claim${ordered.length === 1 ? '' : 's'}, ${grounded} grounded${cats.length ? ` in categories ${req.categories!.map((c) => `"${c}"`).join(', ')}` : ''}`;
    const none = ordered.length ? '' : cats.length ? ` No claims in those categories; this item's categories: ${allCats.slice(0, 20).join(', ') || '-'}.` : ' No claims.';
    const head = `Condensed claims of ${item.id} — ${item.title} (local condensation by ${st.condensed.model}; ${scope}). Cite a claim by its evidence source id: it opens the exact span of the original.${none}`;
    /** One claim's block; `ids` are its evidence spans' source ids (placeholders when measuring). */
    const render = (c: ServableClaim, n: number, ids: readonly string[]): string => {
      const conf = ` (confidence ${Math.round(c.claim.confidence * 100) / 100})`;
      const cat = c.claim.category.trim() ? `${c.claim.category.trim()}: ` : '';
      const lines = [
        c.grounded
          ? `${n}. ${ids.map((i) => `[${i}]`).join('')} ${cat}${c.claim.text.replace(/\s+/g, ' ')}${conf}`
          : `${n}. (NOT GROUNDED — no evidence span was found in the source; do not cite) ${cat}${c.claim.text.replace(/\s+/g, ' ')}${conf}`,
      ];
      c.evidence.forEach((ev, k) => {
        const src = ev.source;
        const when = src.startTime !== undefined ? `, ${formatClock(src.startTime)}${src.endTime !== undefined ? `–${formatClock(src.endTime)}` : ''}` : '';
        const who = src.speakers?.length ? `, ${src.speakers.join(', ')}` : src.commentIds?.length ? `, comment ${src.commentIds.join(', ')}` : '';
        lines.push(`   Evidence [${ids[k] ?? '?'}] (${ev.part}${when}${who}): "${ev.quote.replace(/\s+/g, ' ')}"`);
      });
      if (c.claim.counterpoints.length) lines.push(`   Counterpoints: ${c.claim.counterpoints.map((x) => x.replace(/\s+/g, ' ')).join('; ')}`);
      return lines.join('\n');
    };
    const numbered = ordered.map((c, i) => ({ c, n: i + 1 }));
    const sizeOf = (list: typeof numbered, h: string): number => estimateTokens(`${h}\n\n${list.map((x) => render(x.c, x.n, x.c.evidence.map(() => 'S0000'))).join('\n')}`);
    const serve = (list: typeof numbered, h: string, chunk?: { k: number; n: number }) => {
      const claims = new Map<string, string>();
      const sources: SourceSpan[] = [];
      let words = 0;
      const blocks = list.map(({ c, n }) => {
        const ids = c.evidence.map((ev) => {
          const span = this.registry.register(item, ev.part, ev.start, ev.end);
          if (span) {
            if (!claims.has(span.source_id)) claims.set(span.source_id, c.claim.claim_id);
            if (!sources.some((x) => x.source_id === span.source_id)) sources.push(span);
            words += countWords(ev.quote);
          }
          return span?.source_id ?? '?';
        });
        return render(c, n, ids);
      });
      const text = `${h}\n\n${blocks.join('\n')}`;
      return { kind: 'served' as const, text, sources, tokens: estimateTokens(text), words, claims, ...(chunk ? { chunk } : {}) };
    };
    const whole = sizeOf(numbered, head);
    if (whole <= limit) return whole > remaining ? { kind: 'deferred', tokens: whole } : serve(numbered, head);
    // Larger than the whole budget: labelled chunks of about 40 % of it each.
    const target = Math.max(100, Math.floor(limit * 0.4));
    const chunks: (typeof numbered)[] = [];
    let cur: typeof numbered = [];
    for (const x of numbered) {
      if (cur.length && sizeOf([...cur, x], head) > target) {
        chunks.push(cur);
        cur = [];
      }
      cur.push(x);
    }
    if (cur.length) chunks.push(cur);
    const n = chunks.length;
    const k = Math.min(n, Math.max(1, req.chunk ?? 1));
    const next = k < n
      ? ` Next: ${JSON.stringify({ type: 'condensed_claims', item_id: item.id, ...(req.part ? { part: req.part } : {}), ...(req.categories ? { categories: req.categories } : {}), chunk: k + 1 })}.`
      : ' This is the last chunk.';
    const h = `${head}\nChunk ${k} of ${n} (claims ${chunks[k - 1]![0]!.n}–${chunks[k - 1]!.at(-1)!.n}; the list is larger than the whole context budget).${next}`;
    const size = sizeOf(chunks[k - 1]!, h);
    if (size > remaining) return { kind: 'deferred', tokens: size };
    return serve(chunks[k - 1]!, h, { k, n });
  }
}
