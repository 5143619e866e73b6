/** Building markers: stable ids, evidence spans mapped to the original file, de-duplication. */
import { createHash } from 'node:crypto';
import { mapSpanInPart, storedRange } from '../corpus/spans';
import type { CommentsPart, CorpusItem, PartKind, TranscriptPart } from '../corpus/types';
import { tokenize } from '../search/tokenize';
import type { Evidence, Marker, MarkerKind } from './schema';

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

/**
 * Merges markers that say the same thing (same id, or similarity ≥ `threshold`
 * within a kind): the first keeps its text, evidence is united, confidence is the max.
 */
export function dedupeMarkers(markers: readonly Marker[], threshold = 0.8): Marker[] {
  const out: Marker[] = [];
  for (const m of markers) {
    const same = out.find((o) => o.kind === m.kind && (o.id === m.id || claimSimilarity(o.text, m.text) >= threshold));
    if (!same) {
      out.push({ ...m, evidence: [...m.evidence] });
      continue;
    }
    for (const e of m.evidence) if (!same.evidence.some((x) => x.part === e.part && x.start === e.start && x.end === e.end)) same.evidence.push(e);
    same.confidence = Math.max(same.confidence, m.confidence);
    same.grounded = same.evidence.length > 0;
    if (m.likes !== undefined) same.likes = Math.max(same.likes ?? 0, m.likes);
    if (m.replies !== undefined) same.replies = Math.max(same.replies ?? 0, m.replies);
  }
  return out;
}
