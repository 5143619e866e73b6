/**
 * `citation`: the spans of the numbered citations a question refers to, from
 * the session's last report or answer.
 */
import type { Candidate, RetrievalStrategy } from '../types';

export const citationStrategy: RetrievalStrategy = {
  name: 'citation',
  run(q, _scope, ctx) {
    if (!q.citationNumbers.length) return { list: [] };
    if (!ctx.citations?.length) return { list: [], note: 'no report or answer with numbered citations in this session: nothing to look up' };
    const list: Candidate[] = [];
    const missing: number[] = [];
    q.citationNumbers.forEach((n, i) => {
      const c = ctx.citations!.find((x) => x.n === n);
      if (!c) missing.push(n);
      else list.push({ itemId: c.itemId, part: c.part, start: c.start, end: c.end, score: q.citationNumbers.length - i, why: `citation [${n}]` });
    });
    return { list, ...(missing.length ? { note: `no citation ${missing.map((n) => `[${n}]`).join(', ')} in the last report or answer` } : {}) };
  },
};
