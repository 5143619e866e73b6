/**
 * The hybrid retriever (seed 004 "HybridRetriever"): runs the strategies the
 * understood query chose, concurrently; merges their lists with weighted
 * reciprocal-rank fusion; de-duplicates overlapping spans (keeping every
 * strategy that found them); applies the filters (item, part, time, likes);
 * lists hits from different places first; and chooses passages within a
 * word budget. Every hit says which strategies matched it.
 */
import { mapSpan, type SpanSource } from '../corpus/spans';
import type { CorpusItem, PartKind } from '../corpus/types';
import { chunkText } from '../search/chunker';
import { keptSpanSource } from '../search/keptSpans';
import { tokenizeQuery } from '../search/tokenize';
import { throwIfAborted } from '../util/abort';
import type { ParsedQuery, StrategyName } from './query';
import { focusedSpan, hitFocus, type FocusTerms } from './hitFocus';
import { DisjointSpans } from './disjointSpans';
import { exactRun, keptTextOfSpan, spanTimeFromWindows } from './indexSpans';
import { keptSpanJudgement } from './keptJudgement';
import { spanWords } from './partMemos';
import { fusionWeight } from './strategyPlan';
import { citationStrategy } from './strategies/citation';
import { clipStrategy } from './strategies/clip';
import { entityStrategy } from './strategies/entity';
import { keywordStrategy } from './strategies/keyword';
import { markerStrategy } from './strategies/marker';
import { receptionStrategy } from './strategies/reception';
import { relationStrategy } from './strategies/relation';
import { summaryStrategy } from './strategies/summary';
import { vectorStrategy } from './strategies/vector';
import type { AskContext, AskHit, AskScope, Candidate, RetrievalStrategy } from './types';

/** Every strategy, by name. */
export const STRATEGIES: Record<StrategyName, RetrievalStrategy> = {
  keyword: keywordStrategy,
  vector: vectorStrategy,
  entity: entityStrategy,
  relation: relationStrategy,
  marker: markerStrategy,
  summary: summaryStrategy,
  reception: receptionStrategy,
  clip: clipStrategy,
  citation: citationStrategy,
};

/** The constant of reciprocal-rank fusion (Cormack et al.): 1 / (K + rank). */
export const RRF_K = 60;

export interface HybridOptions {
  /** Hits to return (default 10). */
  k?: number;
  /** Words of the passages chosen for an answer (default 2000). */
  budgetWords?: number;
  signal?: AbortSignal;
}

/** A passage chosen within the budget: contiguous, mapped to its original file. */
export interface Passage {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
  words: number;
  source: SpanSource | null;
  matchedBy: StrategyName[];
}

export interface HybridResult {
  hits: AskHit[];
  passages: Passage[];
  /** Things the user should know: a filter that could not be applied, a strategy that failed or had nothing to search. */
  notes: string[];
  /** Candidates each strategy proposed. */
  proposed: Partial<Record<StrategyName, number>>;
}

interface Fused {
  c: Candidate;
  score: number;
  matchedBy: Set<StrategyName>;
  why: string[];
}

const key = (c: Candidate): string => `${c.itemId}\u0000${c.part}`;

/** Fuses ranked lists: overlapping spans merge into the best-placed one, their scores and strategies added. */
function fuse(lists: { name: StrategyName; weight: number; list: Candidate[] }[]): Fused[] {
  // Each candidate's strategy and score; its fused entry (sets, reasons) is made only when it is kept (most are taken in by another).
  const all: { c: Candidate; score: number; name: StrategyName }[] = [];
  for (const { name, weight, list } of lists) {
    list.forEach((c, r) => all.push({ c, score: weight / (RRF_K + r + 1), name }));
  }
  all.sort((a, b) => b.score - a.score);
  const byPart = new Map<string, DisjointSpans<Fused>>();
  const out: Fused[] = [];
  for (const { c, score, name } of all) {
    const k = key(c);
    let same = byPart.get(k);
    // The first kept span (in the order kept) that overlaps it takes it in.
    const hit = same?.firstOverlapping(c.start, c.end);
    if (hit) {
      hit.score += score;
      hit.matchedBy.add(name);
      if (c.why) {
        const w = `${name}: ${c.why}`;
        if (!hit.why.includes(w) && hit.why.length < 6) hit.why.push(w);
      }
      continue;
    }
    const f: Fused = { c, score, matchedBy: new Set([name]), why: c.why ? [`${name}: ${c.why}`] : [] };
    if (!same) byPart.set(k, (same = new DisjointSpans()));
    same.add(c.start, c.end, f);
    out.push(f);
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Hits from different places first: a transcript span touching an already listed one waits. */
function diversify(fused: Fused[]): Fused[] {
  const first: Fused[] = [];
  const rest: Fused[] = [];
  /** The transcript spans listed first, by item: none touches another. */
  const listed = new Map<string, DisjointSpans<true>>();
  for (const f of fused) {
    // Neighbouring transcript windows are one passage; neighbouring comments are different people.
    if (f.c.part !== 'transcript') {
      first.push(f);
      continue;
    }
    const k = key(f.c);
    let same = listed.get(k);
    if (same?.touches(f.c.start, f.c.end)) {
      rest.push(f);
      continue;
    }
    first.push(f);
    if (!same) listed.set(k, (same = new DisjointSpans()));
    same.add(f.c.start, f.c.end, true);
  }
  return first.concat(rest);
}

/**
 * Runs the query's strategies and merges their results.
 *
 * @example
 * const q = understandWithRules({ question: 'What did PhD C say about the recognizer?', itemId: 'qmsum-Bro014' }, ctx);
 * const { hits } = await hybridRetrieve(q, ctx, { k: 10 });
 * hits[0].matchedBy // → ['entity', 'keyword']
 */
export async function hybridRetrieve(q: ParsedQuery, ctx: AskContext, options: HybridOptions = {}): Promise<HybridResult> {
  const k = options.k ?? 10;
  const budget = options.budgetWords ?? 2000;
  const notes: string[] = [];
  const scope: AskScope = {
    ...(q.filters.itemIds?.length ? { itemIds: q.filters.itemIds } : {}),
    ...(q.part ? { part: q.part } : {}),
    ...(q.filters.minLikes !== undefined ? { minLikes: q.filters.minLikes } : {}),
  };
  const names = q.strategies.filter((s) => s !== 'vector' || ctx.vectors);
  const outputs = await Promise.all(
    names.map(async (name) => {
      try {
        return { name, out: await STRATEGIES[name].run(q, scope, ctx, options.signal) };
      } catch (e) {
        throwIfAborted(options.signal);
        notes.push(`the ${name} strategy failed: ${(e as Error).message}`);
        return { name, out: { list: [] } };
      }
    }),
  );
  throwIfAborted(options.signal);
  const proposed: Partial<Record<StrategyName, number>> = {};
  for (const { name, out } of outputs) {
    proposed[name] = out.list.length;
    if (out.note) notes.push(out.note);
  }
  const time = timeFilter(q, ctx);
  const lists = outputs.map(({ name, out }) => ({ name, weight: fusionWeight(name, q.intent, q.keywords.length > 0), list: out.list.filter(time.keep) }));
  const fused = diversify(fuse(lists));
  // What a hit's focus looks for: the question's terms and the names it asks about (a speaker label is not said in the text),
  // the rarer ones weighing more ("price" over "remote control" in meetings about a remote control).
  const n = ctx.index.documentCount;
  // Terms translated into the corpus's other language count too: a Chinese question's hit in an English meeting quotes the turn that says them.
  const termList = tokenizeQuery([...q.keywords, ...(q.translatedKeywords ?? []).map((t) => t.term), ...q.entities.filter((e) => e.kind !== 'speaker').map((e) => e.text)].join(' '));
  const terms = new Map(termList.map((t) => [t, Math.log(1 + n / (1 + ctx.index.documentFrequency(t)))]));
  const speakers = new Set(q.entities.map((e) => e.speaker).filter((x): x is string => !!x));
  // A span whose every unit is content-free ("Yeah .", "{vocalsound}", "嗯") is no hit: the next one takes its place.
  const hits: AskHit[] = [];
  for (const f of fused) {
    if (hits.length >= k) break;
    const hit = toHit(ctx, f, hits.length + 1, terms, speakers);
    if (hit) hits.push(hit);
  }

  // Passages: with topical words, the supporting strategies only lift what keyword (or vector) search found; they do not spend the budget on their own.
  const lead = new Set<StrategyName>(['keyword', 'vector']);
  const leadSpans = outputs.filter((o) => lead.has(o.name)).flatMap((o) => o.out.passages ?? o.out.list);
  const supported = (c: Candidate): boolean => leadSpans.some((l) => l.itemId === c.itemId && l.part === c.part && l.start < c.end && c.start < l.end);
  const passageLists = outputs.map(({ name, out }) => {
    const weight = fusionWeight(name, q.intent, q.keywords.length > 0, 'passages');
    let list = (out.passages ?? out.list).filter(time.keep);
    if (q.keywords.length && leadSpans.length && !lead.has(name) && weight < 1) list = list.filter(supported);
    return { name, weight: q.keywords.length && leadSpans.length && !lead.has(name) && weight < 1 ? weight * PASSAGE_SUPPORT : weight, list };
  });
  const passages = choosePassages(ctx, fuse(passageLists), budget);
  notes.push(...time.notes());
  return { hits, passages, notes, proposed };
}

/** The time filter of a query, as a candidate predicate, and the notes on where it could not be applied or was estimated. */
function timeFilter(q: ParsedQuery, ctx: AskContext): { keep: (c: Candidate) => boolean; notes: () => string[] } {
  const tc = q.timeConstraint;
  if (!tc) return { keep: () => true, notes: () => [] };
  const end = tc.endS ?? Number.POSITIVE_INFINITY;
  const untimed = new Set<string>();
  const estimated = new Set<string>();
  const keep = (c: Candidate): boolean => {
    if (c.part !== 'transcript') return true;
    if (!ctx.index.item(c.itemId)) return true;
    // From the index's windows: every candidate's item is not parsed to tell its time.
    const t = spanTimeFromWindows(ctx.index, ctx.entities.item(c.itemId), c.itemId, c.start, c.end);
    if (!t) {
      untimed.add(c.itemId);
      return true;
    }
    if (t.estimated) estimated.add(c.itemId);
    return t.endS >= tc.startS && t.startS <= end;
  };
  const list = (ids: Set<string>): string => {
    const a = [...ids];
    return `${a.slice(0, 3).join(', ')}${a.length > 3 ? ` and ${a.length - 3} more` : ''}`;
  };
  const notes = (): string[] => [
    ...(untimed.size ? [`time constraint not applied to ${list(untimed)}: no timestamps and no duration`] : []),
    ...(estimated.size ? [`times in ${list(estimated)} estimated from the item's duration (the transcript has no timestamps)`] : []),
  ];
  return { keep, notes };
}

/** The hit of fused span `f`: its focus chosen (whole sentences or turns), its span grown to hold it; undefined when it says nothing. */
function toHit(ctx: AskContext, f: Fused, rank: number, terms: FocusTerms, speakers: ReadonlySet<string>): AskHit | undefined {
  const item = ctx.index.item(f.c.itemId) as CorpusItem | undefined;
  // A comment is its own focus, none when it says nothing (hitFocus): judged on the text the index kept when it kept it,
  // so that its item's comments are not parsed for a comment left out.
  const kept = f.c.part === 'comments' ? keptSpanJudgement(ctx.index, f.c.itemId, f.c.part, f.c.start, f.c.end) : undefined;
  const focus = kept ? (kept.empty ? undefined : { start: f.c.start, end: f.c.end }) : hitFocus(item, f.c, terms, speakers);
  if (!focus) return undefined;
  const c = focusedSpan(f.c, focus);
  const text = item ? chunkText(item, c) : '';
  const part = item && partOf(item, c.part);
  return {
    focus,
    rank,
    itemId: c.itemId,
    title: item?.title ?? c.itemId,
    part: c.part,
    start: c.start,
    end: c.end,
    words: part ? spanWords(part, c.start, c.end) : 0,
    score: Math.round(f.score * 10_000) / 10_000,
    source: item ? (mapSpan(item, c) ?? null) : null,
    text,
    matchedBy: [...f.matchedBy],
    why: f.why,
  };
}

/** The part of an item a span is in. */
const partOf = (item: CorpusItem, part: PartKind): { text: string } | undefined => (part === 'transcript' ? item.transcript : item.comments);

/** Supporting strategies' share of their fusion weight when passages are chosen for a question with topical words: keyword (or vector) search spends the budget, the others only break its ties. */
const PASSAGE_SUPPORT = 0.25;

/** Best fused spans within `budget` words, neighbours merged into contiguous passages. */
function choosePassages(ctx: AskContext, fused: Fused[], budget: number): Passage[] {
  const chosen: { f: Fused; words: number }[] = [];
  /** The spans chosen, by item and part. */
  const chosenIn = new Map<string, Candidate[]>();
  let words = 0;
  for (const f of fused) {
    if (words >= budget) break;
    const k = key(f.c);
    const same = chosenIn.get(k);
    if (same?.some((c) => c.start < f.c.end && f.c.start < c.end)) continue;
    // Counted only as far as the budget left: a span longer than that is passed over whatever its length.
    const w = passageWords(ctx, f.c, budget - words);
    if (words + w > budget) continue;
    chosen.push({ f, words: w });
    if (same) same.push(f.c);
    else chosenIn.set(k, [f.c]);
    words += w;
  }
  chosen.sort((a, b) => (key(a.f.c) < key(b.f.c) ? -1 : key(a.f.c) > key(b.f.c) ? 1 : a.f.c.start - b.f.c.start));
  const out: Passage[] = [];
  for (const { f, words: w } of chosen) {
    const last = out[out.length - 1];
    if (last && last.itemId === f.c.itemId && last.part === f.c.part && f.c.start <= last.end + 1) {
      last.end = Math.max(last.end, f.c.end);
      last.words += w;
      for (const m of f.matchedBy) if (!last.matchedBy.includes(m)) last.matchedBy.push(m);
      continue;
    }
    out.push({ itemId: f.c.itemId, part: f.c.part, start: f.c.start, end: f.c.end, words: w, source: null, matchedBy: [...f.matchedBy] });
  }
  for (const p of out) {
    const item = ctx.index.item(p.itemId);
    // A run of whole windows is placed from what the index kept of them; another span through its item's parts.
    const run = item && exactRun(ctx.index, p.itemId, p.part, p.start, p.end);
    p.source = item ? ((run && keptSpanSource(ctx.corpus.root, item, ctx.index, run)) ?? mapSpan(item, p) ?? null) : null;
  }
  return out;
}

/** Words of a candidate span, counted on the text the index kept of it (its item is not parsed), else on its item's part. */
function passageWords(ctx: AskContext, c: Candidate, limit: number): number {
  const kept = keptTextOfSpan(ctx.index, c.itemId, c.part, c.start, c.end);
  if (kept !== undefined) return spanWords({ text: kept }, 0, kept.length, limit);
  const item = ctx.index.item(c.itemId);
  const part = item && partOf(item, c.part);
  return part ? spanWords(part, c.start, c.end, limit) : 0;
}
