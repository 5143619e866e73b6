/**
 * `marker`: Phase 0 markers whose text or topic shares the question's words,
 * served as their evidence spans (the marker index of SPEC §5).
 */
import { allMarkers } from '../../markers/store';
import { tokenize, tokenizeQuery } from '../../search/tokenize';
import type { Candidate, RetrievalStrategy } from '../types';
import { searchText } from './spanTools';

export const markerStrategy: RetrievalStrategy = {
  name: 'marker',
  run(q, scope, ctx) {
    const terms = new Set(tokenizeQuery(searchText(q)));
    if (!terms.size || !ctx.markers.size) return { list: [], ...(ctx.markers.size ? {} : { note: 'no markers generated yet: the marker strategy had nothing to search' }) };
    const out: Candidate[] = [];
    for (const [itemId, m] of ctx.markers) {
      if (scope.itemIds && !scope.itemIds.includes(itemId)) continue;
      for (const marker of allMarkers(m)) {
        const ev = marker.evidence[0];
        if (!marker.grounded || !ev || (scope.part && ev.part !== scope.part)) continue;
        const toks = tokenize(`${marker.text} ${marker.topic}`);
        if (!toks.length) continue;
        let hit = 0;
        for (const t of new Set(toks)) if (terms.has(t)) hit++;
        if (!hit) continue;
        // Share of the question's terms the marker covers, a little for how specific the marker is.
        const score = hit / terms.size + hit / Math.sqrt(toks.length) / 10;
        out.push({ itemId, part: ev.part, start: ev.start, end: ev.end, score, why: `marker ${marker.kind}: ${marker.text.slice(0, 80)}` });
      }
    }
    return { list: out.sort((a, b) => b.score - a.score).slice(0, 100) };
  },
};
