/**
 * `entity`: the windows where the question's entities speak or are named,
 * ranked by the question's other words (BM25 within those windows); with a
 * topic, the windows where a speaker asked about says it themself first. A role's
 * hit says which item's speaker it is ("speaker Project Manager · ES2009b").
 */
import { queryWeights } from '../../search/retrieve';
import { TermsProbe } from '../../search/termsProbe';
import { speakerInItem } from '../roleEntities';
import type { Candidate, RetrievalStrategy } from '../types';
import { entityChunks, ownTopicTurns } from './entityChunks';
import { chunkCandidate, scopeFilters, searchText } from './spanTools';
import { topicTerms } from './topic';

/** Windows whose own-turn terms are counted per question (the best by the other evidence first). */
const MAX_OWN_CHECKED = 400;
/** Items whose transcripts are read for those turns per question (a lazily held item is parsed for it): the best windows' items. */
const MAX_OWN_ITEMS = 10;

export const entityStrategy: RetrievalStrategy = {
  name: 'entity',
  run(q, scope, ctx) {
    if (!q.entities.length) return { list: [] };
    const weights = queryWeights(ctx.index, searchText(q));
    const bm25 = new Map<number, number>();
    if (weights.size) for (const h of ctx.index.searchWeighted(weights, scopeFilters(scope), 3000)) bm25.set(h.id, h.score);
    const maxBm = Math.max(1, ...bm25.values());
    const within = bm25.size ? new Set(bm25.keys()) : undefined;
    const scored = new Map<number, { c: Candidate; speaker?: string; who: string }>();
    const words = new Set(q.keywords.map((k) => k.toLowerCase()));
    for (const e of q.entities) {
      const speaker = e.speaker ?? (e.kind === 'speaker' ? e.label : undefined);
      // A name the question's own words already search for adds nothing here; a speaker (who is rarely named in their own turns) does.
      if (!speaker && weights.size && [...words].some((w) => w.includes(e.text.toLowerCase()))) continue;
      for (const [id, where] of entityChunks(e, scope, ctx, within)) {
        const c = ctx.index.chunk(id);
        if (!c) continue;
        // Topical match first; speaking counts a little more than being named.
        const score = (bm25.get(id) ?? 0) + (where.speaks ? 0.5 : 0) + (where.mentions ? 0.3 : 0);
        const prev = scored.get(id);
        const who = speakerInItem(e, c.itemId);
        const why = `${where.speaks ? 'speaker' : 'names'} ${who}`;
        if (!prev || prev.c.score < score) scored.set(id, { c: chunkCandidate(c, score + (prev ? 0.2 : 0), why), who, ...(where.speaks && speaker ? { speaker } : {}) });
      }
    }
    // "What did the project manager say about the price?": the windows where the speaker says the topic themself, those with more
    // of its terms in one of their turns first (the hit's focus is that turn); their other windows only when they never say it
    // (keyword search still finds where others do).
    const terms = new Set(topicTerms(q));
    const list = [...scored.entries()].sort((a, b) => b[1].c.score - a[1].c.score);
    const own: Candidate[] = [];
    if (terms.size) {
      // A rarer term counts more ("doubt" over "action").
      const n = ctx.index.documentCount;
      const idf = new Map([...terms].map((t) => [t, Math.log(1 + n / (1 + ctx.index.documentFrequency(t)))]));
      const total = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
      const parsed = new Set<string>();
      // Most windows hold none of the terms: told without tokenizing them (termsProbe.ts).
      const probe = new TermsProbe(terms);
      for (const [id, s] of list.slice(0, MAX_OWN_CHECKED)) {
        if (!s.speaker) continue;
        // Only windows the speaker talks in that hold a topic term (the index's fields and kept text tell); their turns are read
        // from the item's parsed transcript, for the items of the best windows only.
        const c = ctx.index.chunk(id)!;
        if (c.speakers && !c.speakers.includes(s.speaker)) continue;
        const kept = ctx.index.storedChunkText(id);
        if (kept !== undefined && !probe.in(kept)) continue;
        if (!parsed.has(c.itemId)) {
          if (parsed.size >= MAX_OWN_ITEMS) continue;
          parsed.add(c.itemId);
        }
        const turns = ownTopicTurns(ctx.index, ctx.index.chunk(id)!, s.speaker, terms, probe);
        if (!turns.length) continue;
        const best = turns.reduce((a, t) => (t.terms.size > a.terms.size ? t : a));
        const said = Math.max(...turns.map((t) => [...t.terms].reduce((a, x) => a + idf.get(x)!, 0))) / total;
        const says = best.terms.size === terms.size ? 'the topic' : `${best.terms.size} of ${terms.size} topic words`;
        own.push({ ...s.c, score: 10 * said + s.c.score / (maxBm + 1), why: `speaker (says ${says}) ${s.who}` });
      }
    }
    if (own.length) return { list: own.sort((a, b) => b.score - a.score).slice(0, 200) };
    return { list: list.slice(0, 200).map(([, s]) => s.c) };
  },
};
