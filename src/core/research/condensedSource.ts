/**
 * Condensed claims as a research level between markers and full content (seed 001, option B,
 * Phase 3). The local condensation (`marker-research condense`, src/core/markers/condense.ts)
 * keeps per item claims with evidence spans in `<corpus>/.marker-research/condensed/`; this
 * module reads them for a run (through the safe state reader) and decides what may be served:
 *
 * - a condensation whose content hash is not the item's current one is **stale** — its spans may
 *   point at other text — and is never served (the request is refused with the reason);
 * - a claim is **grounded** only when one of its evidence spans still reads, character for
 *   character, as its quote in the loaded item; the others are served clearly marked, with no
 *   source id to cite;
 * - a file that is not a real file inside the corpus, or that does not validate, is refused with
 *   its reason.
 *
 * The retrieval handler serves `condensed_claims` requests from a {@link CondensedClaims}; the
 * overview of a step says which of its items have condensed claims ({@link describeCondensed}).
 */
import type { Corpus, CorpusItem } from '../corpus/types';
import { readCondensedItem, type CondensedClaim, type CondensedItem } from '../markers/condense';
import { condensedDir } from '../markers/condense';
import type { Evidence } from '../markers/schema';
import { readStateDir } from '../storage/safePath';
import { nullLogger, type Logger } from '../util/log';

/** A claim as research serves it: its evidence spans that still match the item's text. */
export interface ServableClaim {
  claim: CondensedClaim;
  /** Evidence spans verified against the loaded item (empty: not grounded). */
  evidence: Evidence[];
  grounded: boolean;
}

/** What research knows of an item's condensation. */
export type CondensedState =
  | { status: 'fresh'; itemId: string; condensed: CondensedItem; claims: ServableClaim[] }
  | { status: 'stale' | 'invalid'; itemId: string; reason: string };

/** The condensations of a corpus, checked against its loaded items. */
export class CondensedClaims {
  readonly #states: ReadonlyMap<string, CondensedState>;
  readonly #claims = new Map<string, ServableClaim>();

  constructor(states: Iterable<CondensedState> = []) {
    this.#states = new Map([...states].map((s) => [s.itemId, s]));
    for (const s of this.#states.values()) if (s.status === 'fresh') for (const c of s.claims) this.#claims.set(c.claim.claim_id, c);
  }

  /** The state of an item's condensation; undefined when the item was never condensed. */
  get(itemId: string): CondensedState | undefined {
    return this.#states.get(itemId);
  }

  /** True when the item has a condensation that may be served. */
  isFresh(itemId: string): boolean {
    return this.#states.get(itemId)?.status === 'fresh';
  }

  /** A served claim by id. */
  claim(claimId: string): ServableClaim | undefined {
    return this.#claims.get(claimId);
  }

  get size(): number {
    return this.#states.size;
  }
}

/** A claim's evidence spans that still read as their quotes in `item`. */
export function verifiedEvidence(item: CorpusItem, claim: CondensedClaim): Evidence[] {
  return claim.evidence.filter((ev) => {
    const part = ev.part === 'transcript' ? item.transcript : item.comments;
    return !!part && ev.end > ev.start && ev.end <= part.text.length && part.text.slice(ev.start, ev.end) === ev.quote;
  });
}

/** What research makes of one item's stored condensation. */
export function condensedState(item: CorpusItem, condensed: CondensedItem): CondensedState {
  if (condensed.content_hash !== item.contentHash) {
    return {
      status: 'stale',
      itemId: item.id,
      reason: `the condensation of "${item.id}" is stale: the item changed after it was condensed (${condensed.generated_at.slice(0, 10)}; content hash ${condensed.content_hash.slice(0, 12)}, now ${item.contentHash.slice(0, 12)}), so its evidence spans may no longer match; it is not served. Request full_content_item instead (run \`marker-research condense\` again to refresh it)`,
    };
  }
  const claims = condensed.claims.map((claim) => {
    const evidence = verifiedEvidence(item, claim);
    return { claim, evidence, grounded: evidence.length > 0 };
  });
  return { status: 'fresh', itemId: item.id, condensed, claims };
}

/**
 * Reads the condensations of every item of `corpus` (none when the corpus was never condensed).
 * Never throws: an unreadable or invalid file makes that item's state `invalid`, logged.
 */
export async function loadCondensedClaims(corpus: Corpus, log: Logger = nullLogger): Promise<CondensedClaims> {
  try {
    await readStateDir(condensedDir(corpus.root));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`research: condensed claims not read: ${(e as Error).message}`);
    return new CondensedClaims();
  }
  const states = await Promise.all(
    corpus.items.map(async (item): Promise<CondensedState | undefined> => {
      const r = await readCondensedItem(corpus.root, item.id);
      if (r.ok) return condensedState(item, r.value);
      if (r.missing) return undefined;
      log.warn(`research: condensed claims of ${item.id} not used: ${r.error ?? 'unreadable'}`);
      return { status: 'invalid', itemId: item.id, reason: `the condensation of "${item.id}" cannot be used (${r.error ?? 'unreadable'}). Request full_content_item instead` };
    }),
  );
  const out = new CondensedClaims(states.filter((s): s is CondensedState => !!s));
  const stale = states.filter((s) => s?.status === 'stale').map((s) => s!.itemId);
  if (stale.length) log.warn(`research: condensed claims of ${stale.length} item(s) are stale (the items changed since they were condensed) and will not be served: ${stale.slice(0, 10).join(', ')}${stale.length > 10 ? ', …' : ''}`);
  return out;
}

const LABELS = {
  en: {
    head: '**Condensed claims** — a level between markers and full content: a local model\'s claims about the item, each served with its exact evidence span(s) as sources. Request {"type": "condensed_claims", "item_id": "<id>"} (optionally "part", "categories") before asking for a whole item:',
    fresh: (id: string, n: number, g: number, cats: string) => `- ${id}: ${n} claims (${g} grounded)${cats ? `; categories: ${cats}` : ''}`,
    notServed: (id: string, why: string) => `- ${id}: ${why} — not served; use full_content_item`,
    stale: 'condensation stale (the item changed since it was condensed)',
    invalid: 'condensation unreadable',
  },
  zh: {
    head: '**浓缩论点**——介于标记与完整内容之间的一层：本地模型对内容项提炼的论点，每条都附带精确的证据片段作为来源。在请求完整内容项之前，可以先请求 {"type": "condensed_claims", "item_id": "<id>"}（可选 "part"、"categories"）：',
    fresh: (id: string, n: number, g: number, cats: string) => `- ${id}：${n} 条论点（${g} 条有证据）${cats ? `；类别：${cats}` : ''}`,
    notServed: (id: string, why: string) => `- ${id}：${why}——不提供；请使用 full_content_item`,
    stale: '浓缩结果已过期（内容项在浓缩后发生了变化）',
    invalid: '浓缩结果无法读取',
  },
} as const;

/**
 * The overview's note on which of `itemIds` have condensed claims (and which have stale ones);
 * empty when none of them was condensed, so a run without condensations sees no change.
 */
export function describeCondensed(condensed: CondensedClaims | undefined, itemIds: readonly string[], lang: 'en' | 'zh' = 'en'): string {
  if (!condensed?.size) return '';
  const L = LABELS[lang];
  const lines: string[] = [];
  for (const id of itemIds) {
    const st = condensed.get(id);
    if (!st) continue;
    if (st.status === 'fresh') {
      const cats = st.condensed.categories.slice(0, 6).join(', ');
      lines.push(L.fresh(id, st.claims.length, st.claims.filter((c) => c.grounded).length, cats));
    } else lines.push(L.notServed(id, st.status === 'stale' ? L.stale : L.invalid));
  }
  return lines.length ? [L.head, ...lines].join('\n') : '';
}
