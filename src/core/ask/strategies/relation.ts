/**
 * `relation`: where two entities of the question meet — both named or
 * speaking in one window, or one window answering the next (one speaks, the
 * other replies) — ranked by the question's other words.
 */
import { queryWeights } from '../../search/retrieve';
import { speakerInItem } from '../roleEntities';
import type { Candidate, RetrievalStrategy } from '../types';
import { entityChunks } from './entityChunks';
import { scopeFilters, searchText } from './spanTools';

export const relationStrategy: RetrievalStrategy = {
  name: 'relation',
  run(q, scope, ctx) {
    if (q.entities.length < 2) return { list: [] };
    const { index } = ctx;
    const weights = queryWeights(index, searchText(q));
    const bm25 = new Map<number, number>();
    if (weights.size) for (const h of index.searchWeighted(weights, scopeFilters(scope))) bm25.set(h.id, h.score);
    const sets = q.entities.slice(0, 4).map((e) => ({ e, chunks: entityChunks(e, scope, ctx) }));
    const out = new Map<string, Candidate>();
    for (let i = 0; i < sets.length; i++) {
      for (let j = i + 1; j < sets.length; j++) {
        const a = sets[i]!;
        const b = sets[j]!;
        for (const id of a.chunks.keys()) {
          const c = index.chunk(id);
          if (!c) continue;
          const names = `${speakerInItem(a.e, c.itemId)} & ${speakerInItem(b.e, c.itemId)}`;
          if (b.chunks.has(id)) {
            out.set(`${id}`, { itemId: c.itemId, part: c.part, start: c.start, end: c.end, score: 2 + (bm25.get(id) ?? 0), why: `${names} together` });
            continue;
          }
          // One window answering the next: the neighbouring window has the other entity.
          const ids = index.itemChunkIds(c.itemId);
          for (const d of [-1, 1]) {
            const nid = ids[c.seq + d];
            const n = nid === undefined ? undefined : index.chunk(nid);
            if (nid === undefined || !n || n.part !== c.part || !b.chunks.has(nid)) continue;
            const [x, y] = d < 0 ? [n, c] : [c, n];
            const key = `${Math.min(id, nid)}-${Math.max(id, nid)}`;
            if (!out.has(key)) out.set(key, { itemId: c.itemId, part: c.part, start: x.start, end: y.end, score: 1 + ((bm25.get(id) ?? 0) + (bm25.get(nid) ?? 0)) / 2, why: `${names} answer each other` });
          }
        }
      }
    }
    return { list: [...out.values()].sort((a, b) => b.score - a.score).slice(0, 200) };
  },
};
