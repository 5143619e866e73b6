/**
 * `summary`: what an item (or the corpus) is about — its chapters when the
 * description has them, its key markers (facts, data, opinions, comment
 * themes), and otherwise windows spread evenly over the item so the whole of
 * it is represented.
 */
import { hasPart, type CorpusItem } from '../../corpus/types';
import { allMarkers } from '../../markers/store';
import { partWindows, windowAtTime } from '../indexSpans';
import type { Candidate, RetrievalStrategy } from '../types';
import { chunkCandidate } from './spanTools';

const KIND_ORDER: Record<string, number> = { FACT: 0, DATA: 1, OPINION: 2, ENGAGEMENT: 3 };
/** Candidates a summary gives (round-robin over its items: the first of each item first). */
const MAX_CANDIDATES = 200;

export const summaryStrategy: RetrievalStrategy = {
  name: 'summary',
  run(_q, scope, ctx) {
    const items = scope.itemIds ?? ctx.corpus.items.map((i) => i.id);
    const perItem = Math.max(2, Math.ceil(60 / Math.max(1, items.length)));
    const lists: Candidate[][] = [];
    let withCandidates = 0;
    // The corpus's items by id, looked up once a question (the first item of an id, as a search through the list finds it).
    const byId = new Map<string, CorpusItem>();
    for (const i of ctx.corpus.items) if (!byId.has(i.id)) byId.set(i.id, i);
    for (const itemId of items) {
      // Round-robin takes the first candidate of every item before a second: past MAX_CANDIDATES items with candidates, no
      // further item's would be given.
      if (withCandidates >= MAX_CANDIDATES) break;
      const item = byId.get(itemId);
      if (!item) continue;
      const own: Candidate[] = [];
      const ents = ctx.entities.item(itemId);
      if (ents?.chapters.length && hasPart(item, 'transcript') && scope.part !== 'comments') {
        // Where each chapter starts, from the index's transcript windows: the item's transcript is not parsed for it.
        const windows = partWindows(ctx.index, itemId, 'transcript').map((w) => w.c);
        for (const ch of ents.chapters) {
          const start = windowAtTime(windows, ents, ch.startS);
          if (start === undefined) continue;
          const next = ents.chapters.find((c) => c.startS > ch.startS);
          const end = (next ? windowAtTime(windows, ents, next.startS) : undefined) ?? windows[windows.length - 1]!.end;
          // A chapter's opening (at most ~600 characters): enough to see what it is about.
          own.push({ itemId, part: 'transcript', start, end: Math.min(end, start + 600), score: 1, why: `chapter ${Math.floor(ch.startS / 60)}:${String(Math.floor(ch.startS % 60)).padStart(2, '0')} ${ch.title}` });
        }
      }
      const markers = ctx.markers.get(itemId);
      if (markers) {
        const ms = allMarkers(markers)
          .filter((m) => m.grounded && m.evidence[0] && (!scope.part || m.evidence[0].part === scope.part))
          .sort((a, b) => (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9) || b.confidence - a.confidence);
        for (const m of ms.slice(0, perItem)) {
          const ev = m.evidence[0]!;
          own.push({ itemId, part: ev.part, start: ev.start, end: ev.end, score: m.confidence, why: `key ${m.kind} marker: ${m.text.slice(0, 80)}` });
        }
      }
      if (!own.length) {
        // No chapters, no markers: windows spread evenly over the item.
        const ids = ctx.index.itemChunkIds(itemId).filter((id) => !scope.part || ctx.index.chunk(id)?.part === scope.part);
        const step = Math.max(1, Math.floor(ids.length / perItem));
        for (let i = 0; i < ids.length && own.length < perItem; i += step) {
          const c = ctx.index.chunk(ids[i]!);
          if (c) own.push(chunkCandidate(c, 1 - i / ids.length, `outline ${own.length + 1} of ${Math.min(perItem, Math.ceil(ids.length / step))}`));
        }
      }
      lists.push(own);
      if (own.length) withCandidates++;
    }
    // Round-robin over items, so a corpus summary hears from every item.
    const list: Candidate[] = [];
    for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) list.push(l[i]!);
    return { list: list.slice(0, MAX_CANDIDATES) };
  },
};
