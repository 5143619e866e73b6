/** Building markers: stable ids, evidence spans mapped to the original file, de-duplication. */
import { createHash } from 'node:crypto';
import { mapSpanInPart, storedRange } from '../corpus/spans';
import type { CommentsPart, CorpusItem, PartKind, TranscriptPart } from '../corpus/types';
import { tokenize } from '../search/tokenize';
import type { Evidence, Marker, MarkerKind } from './schema';
import { countWork } from './workMeter';

/** Lower-case, NFKC, whitespace collapsed, punctuation removed: for comparing claims. */
export function normaliseClaim(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\p{P}\p{S}]+/gu, ' ').replace(/\s+/g, ' ').trim();
}

/** A marker id that survives re-runs: item, kind and a hash of the normalised text. */
export function markerId(itemId: string, kind: MarkerKind, text: string): string {
  return `${itemId}:${kind[0]}:${createHash('sha256').update(normaliseClaim(text)).digest('hex').slice(0, 10)}`;
}

export function partOf(item: CorpusItem, part: PartKind): TranscriptPart | CommentsPart | undefined {
  return part === 'transcript' ? item.transcript : item.comments;
}

/** Evidence for `[start, end)` of a part, with its original-file range. */
export function evidenceFor(item: CorpusItem, part: PartKind, start: number, end: number, match: Evidence['match']): Evidence | undefined {
  const p = partOf(item, part);
  if (!p) return undefined;
  const src = mapSpanInPart(p, start, end);
  if (!src) return undefined;
  return {
    quote: p.text.slice(start, end),
    part,
    start,
    end,
    match,
    source: storedRange(src),
  };
}

export function makeMarker(itemId: string, kind: MarkerKind, text: string, topic: string, confidence: number, evidence: Evidence[], extra: Partial<Pick<Marker, 'likes' | 'replies'>> = {}): Marker {
  return {
    id: markerId(itemId, kind, text),
    kind,
    text,
    topic,
    confidence: Math.max(0, Math.min(1, Math.round(confidence * 100) / 100)),
    evidence,
    grounded: evidence.length > 0,
    ...extra,
  };
}

/** Token-set similarity of two claims (Jaccard over search tokens, CJK as bigrams). */
export function claimSimilarity(a: string, b: string): number {
  const x = new Set(tokenize(a));
  const y = new Set(tokenize(b));
  if (!x.size || !y.size) return normaliseClaim(a) === normaliseClaim(b) ? 1 : 0;
  let inter = 0;
  for (const t of x) if (y.has(t)) inter++;
  return inter / (x.size + y.size - inter);
}

/** A marker is compared for similarity with this many kept markers of its kind before it, the latest (all of them for every item under ~80,000 words at the default density); same ids merge however far apart. */
export const NEAR_MARKERS = 256;

/**
 * Merges markers that say the same thing (same id, or similarity ≥ `threshold` within a kind,
 * looked for among the {@link NEAR_MARKERS} kept last): the first keeps its text, evidence is
 * united, confidence is the max. Bounded work per marker.
 */
export function dedupeMarkers(markers: readonly Marker[], threshold = 0.8): Marker[] {
  const out: Marker[] = [];
  /** Per kept marker: its tokens, its normalised text (for token-less texts) and its evidence spans. */
  const kept: { tokens: Set<string>; norm?: string; spans: Set<string> }[] = [];
  const firstById = new Map<string, number>();
  const byKind = new Map<MarkerKind, number[]>();
  const spanKey = (e: Evidence): string => `${e.part}\u0000${e.start}\u0000${e.end}`;
  for (const m of markers) {
    const tokens = new Set(tokenize(m.text));
    const own = byKind.get(m.kind) ?? [];
    // The first kept marker of the kind with the same id or a similar text, as a scan of them all would find it among those compared.
    const idKey = `${m.kind}\u0000${m.id}`;
    let same = firstById.get(idKey) ?? -1;
    const from = Math.max(0, own.length - NEAR_MARKERS);
    countWork('dedupe', own.length - from);
    for (let x = from; x < own.length; x++) {
      const i = own[x]!;
      if (same >= 0 && i >= same) break;
      const k = kept[i]!;
      let sim: number;
      if (!k.tokens.size || !tokens.size) sim = (k.norm ??= normaliseClaim(out[i]!.text)) === normaliseClaim(m.text) ? 1 : 0;
      else {
        let inter = 0;
        for (const t of k.tokens) if (tokens.has(t)) inter++;
        sim = inter / (k.tokens.size + tokens.size - inter);
      }
      if (sim >= threshold) {
        same = i;
        break;
      }
    }
    if (same < 0) {
      if (!firstById.has(idKey)) firstById.set(idKey, out.length);
      own.push(out.length);
      byKind.set(m.kind, own);
      kept.push({ tokens, spans: new Set(m.evidence.map(spanKey)) });
      out.push({ ...m, evidence: [...m.evidence] });
      continue;
    }
    const target = out[same]!;
    const spans = kept[same]!.spans;
    for (const e of m.evidence) {
      if (spans.has(spanKey(e))) continue;
      spans.add(spanKey(e));
      target.evidence.push(e);
    }
    target.confidence = Math.max(target.confidence, m.confidence);
    target.grounded = target.evidence.length > 0;
    if (m.likes !== undefined) target.likes = Math.max(target.likes ?? 0, m.likes);
    if (m.replies !== undefined) target.replies = Math.max(target.replies ?? 0, m.replies);
  }
  return out;
}
