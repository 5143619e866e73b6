/**
 * Where an entity is in the corpus: the windows it speaks in (a speaker label,
 * or the speaker a name introduced themself as) and the windows that mention
 * it by name. Shared by the `entity` and `relation` strategies.
 */
import { chunkText, type Chunk } from '../../search/chunker';
import type { CorpusIndex } from '../../search/corpusIndex';
import { TermsProbe } from '../../search/termsProbe';
import { tokenizeQuery } from '../../search/tokenize';
import { coreName } from '../entityIndex';
import { fold } from '../intentCues';
import { turnTokens } from '../partMemos';
import type { LinkedEntity } from '../query';
import { classifySpeakerLabel } from '../speakerLabels';
import type { AskContext, AskScope } from '../types';
import { scopeFilters } from './spanTools';

export interface EntityChunk {
  speaks: boolean;
  mentions: boolean;
}

/** Most windows an entity is looked up in (the ones BM25 ranks highest for its name first). */
const MAX_MENTION_CANDIDATES = 500;

/** The names a text may use for an entity: the label's name part and the question's own words. */
export function entityNames(e: LinkedEntity): string[] {
  const names = new Set<string>();
  if (e.kind !== 'speaker') names.add(e.label);
  names.add(e.text);
  const core = coreName(e.label);
  if (core && classifySpeakerLabel(core).kind !== 'generic') names.add(core);
  return [...names].filter((n) => n.length >= 2);
}

/** Most windows a speaker is looked up in when the question has no words to rank by. */
const MAX_SPEAKER_WINDOWS = 5000;

/**
 * Windows (chunk ids) of the scope where `e` speaks or is named.
 *
 * @param within when given, only these windows are considered for speaking (the question's
 *   keyword hits): a speaker of every item ("Host") need not be enumerated corpus-wide.
 *
 * A role or an anonymous id speaks only in its own items (`e.speakerItems`): "Project Manager"
 * of one meeting is not the one of another.
 */
export function entityChunks(e: LinkedEntity, scope: AskScope, ctx: AskContext, within?: ReadonlySet<number>): Map<number, EntityChunk> {
  const out = new Map<number, EntityChunk>();
  const { index } = ctx;
  const speaker = e.speaker ?? (e.kind === 'speaker' ? e.label : undefined);
  const items = scope.itemIds ?? (e.itemIds.length ? e.itemIds : undefined);
  const own = e.speakerItems ? new Set(e.speakerItems) : undefined;
  if (speaker) {
    // A role's items are thousands: a set, not a list searched for each of thousands of windows.
    const inItems = items ? new Set(items) : undefined;
    const speaks = (id: number): boolean => {
      const c = index.chunk(id);
      return !!c?.speakers?.includes(speaker) && (!scope.part || c.part === scope.part) && (!inItems || inItems.has(c.itemId)) && (!own || own.has(c.itemId));
    };
    if (within) {
      for (const id of within) if (speaks(id)) out.set(id, { speaks: true, mentions: false });
    } else {
      outer: for (const itemId of (items ?? ctx.entities.itemIds).filter((id) => !own || own.has(id))) {
        for (const id of index.itemChunkIds(itemId)) {
          if (out.size >= MAX_SPEAKER_WINDOWS) break outer;
          if (speaks(id)) out.set(id, { speaks: true, mentions: false });
        }
      }
    }
  }
  for (const name of entityNames(e)) {
    // A one-word speaker label ("Host", "Moderator") is a role, not a name others say.
    if (e.kind === 'speaker' && !/\s/u.test(name)) continue;
    const terms = tokenizeQuery(name);
    if (!terms.length) continue;
    const hits = index.searchWeighted(new Map(terms.map((t) => [t, 1])), { ...scopeFilters(scope), ...(items ? { itemIds: items } : {}) }, MAX_MENTION_CANDIDATES);
    const needle = fold(name);
    for (const h of hits) {
      if (!h.terms.length) continue;
      const item = index.item(h.chunk.itemId);
      // The window's text as the index kept it (its item is not parsed for it).
      if (!item || !fold(index.chunkTextOf(h.id) ?? chunkText(item, h.chunk)).includes(needle)) continue;
      const prev = out.get(h.id);
      out.set(h.id, { speaks: prev?.speaks ?? false, mentions: true });
    }
  }
  return out;
}

/** A turn (or consecutive turns) of a window where a speaker says some of the question's topic terms. */
export interface OwnTopicTurn {
  start: number;
  end: number;
  /** The distinct topic terms the turn holds. */
  terms: ReadonlySet<string>;
}

/**
 * The turns of window `c` where `speaker` says some of `terms` (tokens, as the index makes them)
 * themself: a window where another speaker names the topic while they talk of something else
 * answers "what did they say about it?" less well than the turn where they say it.
 */
export function ownTopicTurns(index: CorpusIndex, c: Chunk, speaker: string, terms: ReadonlySet<string>, probe = new TermsProbe(terms)): OwnTopicTurn[] {
  const transcript = c.part === 'transcript' ? index.item(c.itemId)?.transcript : undefined;
  const segs = transcript?.segments;
  if (!transcript || !segs || !terms.size) return [];
  const out: OwnTopicTurn[] = [];
  let run: { start: number; end: number; found: Set<string>; last: number } | undefined;
  const close = (): void => {
    if (run) out.push({ start: run.start, end: run.end, terms: run.found });
    run = undefined;
  };
  for (let i = c.firstIndex; i <= c.lastIndex && i < segs.length; i++) {
    const s = segs[i]!;
    if (s.speaker !== speaker) continue;
    // A turn that holds none of the terms is told without tokenizing it (the probe is exact on that side).
    if (!probe.mayBeIn(s.text)) continue;
    const found = new Set<string>();
    // Tokenized once for every question (a speaker's turns are read again whenever they are asked about).
    for (const t of turnTokens(transcript, i)) if (terms.has(t)) found.add(t);
    if (!found.size) continue;
    // Consecutive turns of theirs that say it are one passage.
    if (run && run.last === i - 1) {
      run.end = s.offset + s.text.length;
      run.last = i;
      for (const t of found) run.found.add(t);
      continue;
    }
    close();
    run = { start: s.offset, end: s.offset + s.text.length, found, last: i };
  }
  close();
  return out;
}
