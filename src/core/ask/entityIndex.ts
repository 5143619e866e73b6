/**
 * The entity index of a corpus (seed 004 "entity index"): per item, its
 * speakers, comment authors, title and meta names (channel, names in the
 * description), chapters from a YouTube description ("5:31 Quién es Pep
 * Gómez"), and names found in the text — capitalised sequences that the text
 * writes capitalised more often than not, and Chinese names introduced by
 * context ("我叫陈启蒙", "王老师"), linked to the speaker who introduces
 * themself. Built with the search index, persisted beside it, and updated per
 * item by content hash.
 *
 * A speaker label that is a role or an anonymous id ("Project Manager",
 * "speaker_3", "PhD C", "主持人"; speakerLabels.ts) is a different person in
 * each item: the index keeps it per (item, label), while a name ("Kirsty
 * Williams AM") is one entity across items.
 */
import * as path from 'node:path';
import { z } from 'zod';
import type { Corpus, CorpusItem } from '../corpus/types';
import { writeFileAtomic } from '../storage/atomic';
import { readStateFile } from '../storage/safePath';
import { indexDir } from '../search/corpusIndex';
import { parseChapters, type Chapter } from '../corpus/chapters';
import { parseClock } from './timePhrases';
import { CJK_SURNAMES } from './cjkSurnames';
import { classifySpeakerLabel, wordCaseOf } from './speakerLabels';

export { CJK_SURNAMES };

/** Bumped whenever extraction or the stored format changes. */
export const ENTITY_INDEX_VERSION = 2;

const chapterSchema = z.object({ startS: z.number().nonnegative(), title: z.string() }) satisfies z.ZodType<Chapter>;
export type { Chapter };
export { parseChapters };

/** `[name, count]`, or `[name, count, speakerLabel]` for a name a speaker introduced themself with. */
const countedSchema = z.tuple([z.string(), z.number().int().nonnegative()]);
const cjkNameSchema = z.union([countedSchema, z.tuple([z.string(), z.number().int().nonnegative(), z.string()])]);

export const itemEntitiesSchema = z.object({
  hash: z.string(),
  title: z.string(),
  channel: z.string().optional(),
  /** Speaker labels with their turn counts, most first. */
  speakers: z.array(countedSchema),
  /** The speaker labels that are a role or an anonymous id in this item (speakerLabels.ts): a person of this item only. */
  roleLabels: z.array(z.tuple([z.string(), z.enum(['role', 'generic'])])),
  /** Comment authors with their comment counts, most first (at most {@link MAX_AUTHORS}). */
  authors: z.array(countedSchema),
  /** Names in the title, meta and text with their counts, most first (at most {@link MAX_NAMES}). */
  names: z.array(countedSchema),
  cjkNames: z.array(cjkNameSchema),
  /** Self-introductions in a Latin-script transcript: name → speaker label. */
  introductions: z.array(z.tuple([z.string(), z.string()])),
  chapters: z.array(chapterSchema),
  /** Seconds: last timestamp of the transcript, else the meta duration; undefined when unknown. */
  durationS: z.number().nonnegative().optional(),
  /** True when the transcript has its own timestamps. */
  timed: z.boolean(),
});
export type ItemEntities = z.infer<typeof itemEntitiesSchema>;

const fileSchema = z.object({ version: z.literal(ENTITY_INDEX_VERSION), items: z.record(z.string(), itemEntitiesSchema) });

export const MAX_NAMES = 300;
export const MAX_AUTHORS = 300;

/** Honorifics and titles around a name in a speaker label ("Right Hon. Justin Trudeau", "Kirsty Williams AM"). */
const HONORIFICS = /^(?:the|right|rt\.?|hon\.?|honourable|honorable|mr\.?|mrs\.?|ms\.?|miss|dr\.?|prof\.?|sir|dame|lord|lady|sr\.?|sra\.?|don|doña|am|ms|mp|mla|mpp|mep|qc|kc|jr\.?|phd|md)$/i;

/** The name part of a speaker label: honorifics and parentheses dropped. */
export function coreName(label: string): string {
  const noParen = label.replace(/\([^)]*\)/g, ' ').trim();
  const words = noParen.split(/\s+/).filter(Boolean);
  while (words.length > 1 && HONORIFICS.test(words[0]!)) words.shift();
  while (words.length > 1 && HONORIFICS.test(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

const NAME_CONTEXT_BEFORE = /(?:我叫|我是|名叫|叫做|有请|有請|欢迎|歡迎|感谢|感謝|谢谢|謝謝|嘉宾|嘉賓|主持人|我们的|我們的)\s*$/u;
const NAME_TITLE_AFTER = /^(?:老师|老師|先生|女士|教授|博士|总|總|院长|院長|主任|同学|同學|律师|律師|医生|醫生|导演|導演|主编|主編|经理|經理|董事长|董事長|博主|教练|教練)/u;

/** Latin-script self-introductions: "I'm John Smith", "my name is …", "me llamo …", "soy …". */
const LATIN_INTRO = /\b(?:my name is|i am|i'm|this is|me llamo|mi nombre es|soy)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)/gu;

/** Capitalised words joined by name particles: "Pep Gómez", "Jay Alvarrez", "Pequeño Nicolás", "Ludwig van Beethoven". */
const CAP_SEQ = /(?<![\p{L}\p{N}'’])(\p{Lu}[\p{Script=Latin}\p{M}\d'’-]*(?:\s+(?:(?:de|del|la|van|von|da|di|le|el|y)\s+)?\p{Lu}[\p{Script=Latin}\p{M}\d'’-]*)*)(?![\p{Script=Latin}])/gu;
const WORD = /\p{L}[\p{L}\p{M}'’-]*/gu;
const SENTENCE_END = /[.!?¿¡。！？\n:;"“”«»()[\]]\s*$/u;

/** The seconds of an ISO 8601 duration ("PT2H22M16S") or a plain number. */
export function parseDuration(d: unknown): number | undefined {
  if (typeof d === 'number' && Number.isFinite(d) && d >= 0) return d;
  if (typeof d !== 'string') return undefined;
  const iso = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/i.exec(d.trim());
  if (iso) return (Number(iso[1] ?? 0) * 24 + Number(iso[2] ?? 0)) * 3600 + Number(iso[3] ?? 0) * 60 + Number(iso[4] ?? 0);
  if (/^\d{1,2}(?::\d{2}){1,2}$/.test(d.trim())) return parseClock(d.trim());
  const n = Number(d);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}


function topCounts(map: Map<string, number>, max: number, min = 1): [string, number][] {
  return [...map].filter(([, c]) => c >= min).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max);
}

/** Names in Latin-script text: capitalised sequences whose words the text writes capitalised more often than lower-case, not only at sentence starts. */
function latinNames(texts: readonly string[], into: Map<string, number>): void {
  const cap = new Map<string, number>();
  const low = new Map<string, number>();
  const seqs = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(WORD)) {
      const w = m[0];
      const first = w[0]!;
      if (first !== first.toLowerCase()) {
        const lw = w.toLowerCase();
        // Sentence-initial capitals say nothing; count them as lower-case evidence neither way.
        if (!SENTENCE_END.test(text.slice(Math.max(0, m.index! - 3), m.index!)) && m.index! > 0) cap.set(lw, (cap.get(lw) ?? 0) + 1);
      } else low.set(w, (low.get(w) ?? 0) + 1);
    }
    for (const m of text.matchAll(CAP_SEQ)) {
      const seq = m[1]!.replace(/['’]s$/u, '');
      if (m.index! === 0 || SENTENCE_END.test(text.slice(Math.max(0, m.index! - 3), m.index!))) {
        // At a sentence start, keep the part after the first word when there is one.
        const rest = seq.split(/\s+/).slice(1).join(' ');
        if (rest) seqs.set(rest, (seqs.get(rest) ?? 0) + 1);
        continue;
      }
      seqs.set(seq, (seqs.get(seq) ?? 0) + 1);
    }
  }
  for (const [seq, n] of seqs) {
    const words = seq.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w));
    // An all-caps short word is an acronym (a term), not a name; a word written lower-case more often is a common word.
    if (words.every((w) => /^[\p{Lu}\d]{1,5}$/u.test(w))) continue;
    // Contractions ("I'm", "I'll") and interjections are not names.
    if (/^\p{Lu}['’]\p{Ll}/u.test(seq)) continue;
    if (words.some((w) => (low.get(w.toLowerCase()) ?? 0) > (cap.get(w.toLowerCase()) ?? 0))) continue;
    into.set(seq, (into.get(seq) ?? 0) + n);
  }
}

/** Characters that do not occur inside a name after the surname (particles, pronouns, common verbs). */
const FUNCTION_CHARS = /[的了是在和我你他她这這那就也都说說向很还還要会會有到对對把被让讓给給从從跟与與及或而但如果因为為所以可能吗嗎呢吧啊个個谢謝]/u;

/** Chinese names introduced by context: "我叫陈启蒙", "有请王小明", "陈老师". Returns name → [count, speaker of a self-introduction]. */
function cjkNames(item: CorpusItem): Map<string, [number, string | undefined]> {
  const out = new Map<string, [number, string | undefined]>();
  const add = (name: string, speaker: string | undefined): void => {
    if (FUNCTION_CHARS.test(name.slice(1)) || /^(?:谢谢|謝謝|包括|应该|應該|方才)/u.test(name)) return;
    const prev = out.get(name);
    out.set(name, [(prev?.[0] ?? 0) + 1, prev?.[1] ?? speaker]);
  };
  for (const seg of item.transcript?.segments ?? []) {
    const t = seg.text;
    if (!/\p{Script=Han}/u.test(t)) continue;
    for (let i = 0; i < t.length; i++) {
      if (!CJK_SURNAMES.has(t[i]!)) continue;
      const before = t.slice(Math.max(0, i - 6), i);
      const intro = NAME_CONTEXT_BEFORE.test(before);
      for (const len of [3, 2]) {
        const name = t.slice(i, i + len);
        if (name.length < len || !/^\p{Script=Han}+$/u.test(name)) continue;
        const after = t.slice(i + len, i + len + 4);
        const titled = len === 2 ? false : NAME_TITLE_AFTER.test(after);
        // "王老师" itself: surname + title (kept as a two-character name with its title).
        if (intro && /^[，,。\s]|^$|^(?:老师|老師|先生|女士|，|。)/u.test(after)) {
          add(name, /^(?:我叫|我是|名叫)/u.test(before.slice(-2)) || /我叫|我是/u.test(before) ? seg.speaker : undefined);
          break;
        }
        if (titled) {
          add(name, undefined);
          break;
        }
      }
      const title = NAME_TITLE_AFTER.exec(t.slice(i + 1, i + 4));
      if (title && !/\p{Script=Han}/u.test(t[i - 1] ?? '') ) add(t[i]! + title[0], undefined);
    }
  }
  return out;
}

/** Extracts the entities of one item. */
export function extractItemEntities(item: CorpusItem): ItemEntities {
  const speakers = new Map<string, number>();
  const segs = item.transcript?.segments ?? [];
  for (const s of segs) if (s.speaker) speakers.set(s.speaker, (speakers.get(s.speaker) ?? 0) + 1);
  const authors = new Map<string, number>();
  for (const c of item.comments?.comments ?? []) if (c.author) authors.set(c.author, (authors.get(c.author) ?? 0) + 1);
  const names = new Map<string, number>();
  const meta = item.meta as Record<string, unknown>;
  const channel = typeof meta.channel === 'string' ? meta.channel : typeof meta.channel_title === 'string' ? meta.channel_title : typeof meta.uploader === 'string' ? meta.uploader : undefined;
  const description = typeof meta.description === 'string' ? meta.description : '';
  const latinTexts: string[] = [];
  for (const s of segs) latinTexts.push(s.text);
  for (const c of item.comments?.comments ?? []) latinTexts.push(c.text);
  latinNames(latinTexts, names);
  // Title and description names count once each, whatever their case statistics (titles capitalise every word).
  for (const src of [item.title, description]) {
    for (const m of src.matchAll(CAP_SEQ)) {
      const seq = m[1]!.replace(/['’]s$/u, '');
      if (seq.split(/\s+/).length >= 2 || names.has(seq)) names.set(seq, (names.get(seq) ?? 0) + 1);
    }
  }
  if (channel) names.set(channel, (names.get(channel) ?? 0) + 1);
  const introductions = new Map<string, string>();
  for (const s of segs) {
    if (!s.speaker) continue;
    for (const m of s.text.matchAll(LATIN_INTRO)) if (!introductions.has(m[1]!)) introductions.set(m[1]!, s.speaker);
  }
  const cjk = cjkNames(item);
  // Roles and anonymous ids, read against the item's other labels and its own capitalisation (computed only when a label needs it).
  const labels = [...speakers.keys()];
  let wordCase: ReturnType<typeof wordCaseOf> | undefined;
  const evidence = { siblings: labels, wordCase: (w: string) => (wordCase ??= wordCaseOf(segs.map((s) => s.text)))(w) };
  const roleLabels: [string, 'role' | 'generic'][] = [];
  for (const label of labels) {
    const { kind } = classifySpeakerLabel(label, evidence);
    if (kind !== 'name') roleLabels.push([label, kind]);
  }
  const lastEnd = segs.reduce<number | undefined>((a, s) => (s.end ?? s.start) !== undefined ? Math.max(a ?? 0, (s.end ?? s.start)!) : a, undefined);
  return {
    hash: item.contentHash,
    title: item.title,
    ...(channel ? { channel } : {}),
    speakers: topCounts(speakers, 1000),
    roleLabels,
    authors: topCounts(authors, MAX_AUTHORS),
    names: topCounts(names, MAX_NAMES),
    cjkNames: [...cjk].sort((a, b) => b[1][0] - a[1][0]).slice(0, MAX_NAMES).map(([n, [c, sp]]) => (sp ? [n, c, sp] : [n, c])),
    introductions: [...introductions],
    chapters: parseChapters(description),
    ...(lastEnd !== undefined ? { durationS: lastEnd } : parseDuration(meta.duration) !== undefined ? { durationS: parseDuration(meta.duration)! } : {}),
    timed: segs.some((s) => s.start !== undefined),
  };
}

/** A name the index knows, with where it occurs. */
export interface KnownName {
  name: string;
  kind: 'speaker' | 'author' | 'name';
  /** For a speaker: the label; for a name a speaker introduced themself with: that speaker's label. */
  speaker?: string;
  /**
   * When `speaker` is a role or an anonymous id: the items where it is this entity (a role speaker is one
   * entry per item; a name introduced by "speaker_2" speaks as speaker_2 only in the items it did so).
   */
  speakerItems?: string[];
  itemIds: string[];
  count: number;
}

/** The entity index: per-item entities plus lookup tables over them. */
export class EntityIndex {
  private readonly items = new Map<string, ItemEntities>();
  private lookup: Map<string, KnownName[]> | undefined;
  private roles: Map<string, Map<string, 'role' | 'generic'>> | undefined;
  /** Speaker labels of every item, most turns first (worked out once: the index does not change after it is built). */
  private allSpeakers: readonly string[] | undefined;

  /** Builds (or updates, reusing unchanged items of `previous`) the index of `corpus`. */
  static build(corpus: Corpus, previous?: EntityIndex): { index: EntityIndex; rebuilt: string[] } {
    const index = new EntityIndex();
    const rebuilt: string[] = [];
    for (const item of corpus.items) {
      const prev = previous?.items.get(item.id);
      if (prev && prev.hash === item.contentHash) index.items.set(item.id, prev);
      else {
        index.items.set(item.id, extractItemEntities(item));
        rebuilt.push(item.id);
      }
    }
    return { index, rebuilt };
  }

  /** Opens the persisted index of `corpus`, re-extracting changed items, and saves it when anything changed. */
  static async open(corpus: Corpus): Promise<{ index: EntityIndex; rebuilt: string[] }> {
    const previous = await EntityIndex.load(corpus.root).catch(() => undefined);
    const res = EntityIndex.build(corpus, previous);
    const removed = previous ? [...previous.items.keys()].some((id) => !res.index.items.has(id)) : true;
    if (res.rebuilt.length || removed) await res.index.save(corpus.root);
    return res;
  }

  static async load(root: string): Promise<EntityIndex | undefined> {
    const parsed = fileSchema.safeParse(JSON.parse(await readStateFile(entityFile(root), 'utf8')));
    if (!parsed.success) return undefined;
    const index = new EntityIndex();
    for (const [id, e] of Object.entries(parsed.data.items)) index.items.set(id, e);
    return index;
  }

  async save(root: string): Promise<void> {
    await writeFileAtomic(entityFile(root), JSON.stringify({ version: ENTITY_INDEX_VERSION, items: Object.fromEntries(this.items) }));
  }

  item(itemId: string): ItemEntities | undefined {
    return this.items.get(itemId);
  }

  get itemIds(): string[] {
    return [...this.items.keys()];
  }

  /** `role` or `generic` when `label` is a role or an anonymous id in item `itemId` (a person of that item only); undefined for a name or a label the item does not have. */
  roleKind(itemId: string, label: string): 'role' | 'generic' | undefined {
    if (!this.roles) {
      this.roles = new Map();
      for (const [id, e] of this.items) this.roles.set(id, new Map(e.roleLabels));
    }
    return this.roles.get(itemId)?.get(label);
  }

  /** The items (of `itemIds`, else all) where `label` is a speaker that is a role or an anonymous id. */
  roleItems(label: string, itemIds?: readonly string[]): string[] {
    return (itemIds ?? [...this.items.keys()]).filter((id) => this.roleKind(id, label) !== undefined);
  }

  /** Speaker labels of the given items (all items when undefined), most turns first. */
  speakers(itemIds?: readonly string[]): string[] {
    if (!itemIds && this.allSpeakers) return [...this.allSpeakers];
    const counts = new Map<string, number>();
    for (const id of itemIds ?? this.items.keys()) for (const [s, c] of this.items.get(id)?.speakers ?? []) counts.set(s, (counts.get(s) ?? 0) + c);
    const out = topCounts(counts, 10_000).map(([s]) => s);
    if (!itemIds) this.allSpeakers = [...out];
    return out;
  }

  /**
   * Every known name keyed by its lower-cased first word (Latin) or first two
   * characters (CJK), for matching against a question.
   */
  names(): ReadonlyMap<string, KnownName[]> {
    if (this.lookup) return this.lookup;
    const byName = new Map<string, KnownName>();
    const add = (name: string, kind: KnownName['kind'], itemId: string, count: number, speaker?: string): void => {
      // A role or an anonymous id is a person of its item: one entry per (item, label).
      const perItem = !!speaker && this.roleKind(itemId, speaker) !== undefined;
      const key = kind === 'speaker' && perItem ? `${kind}\u0000${name}\u0000${itemId}` : `${kind}\u0000${name}`;
      const k = byName.get(key);
      if (k) {
        // Every entry of an item is added before the next item's: the item, if already there, is the last one listed.
        if (k.itemIds[k.itemIds.length - 1] !== itemId) k.itemIds.push(itemId);
        k.count += count;
        if (speaker && k.speaker === undefined) {
          k.speaker = speaker;
          if (perItem) k.speakerItems = [itemId];
        } else if (speaker && perItem && k.speaker === speaker && k.speakerItems && k.speakerItems[k.speakerItems.length - 1] !== itemId) k.speakerItems.push(itemId);
      } else byName.set(key, { name, kind, itemIds: [itemId], count, ...(speaker ? { speaker } : {}), ...(perItem ? { speakerItems: [itemId] } : {}) });
    };
    for (const [id, e] of this.items) {
      for (const [s, c] of e.speakers) add(s, 'speaker', id, c, s);
      for (const [a, c] of e.authors) add(a, 'author', id, c);
      const intro = new Map(e.introductions);
      for (const [n, c] of e.names) add(n, 'name', id, c, intro.get(n));
      for (const [n, sp] of e.introductions) add(n, 'name', id, 1, sp);
      for (const entry of e.cjkNames) add(entry[0], 'name', id, entry[1], entry[2]);
    }
    const lookup = new Map<string, KnownName[]>();
    for (const k of byName.values()) {
      const key = nameKey(k.name);
      if (!key) continue;
      const list = lookup.get(key);
      if (list) list.push(k);
      else lookup.set(key, [k]);
    }
    this.lookup = lookup;
    return lookup;
  }
}

/** The lookup key of a name: its lower-cased first Latin word, or its first two CJK characters. */
export function nameKey(name: string): string | undefined {
  const t = name.trim();
  if (/^\p{Script=Han}/u.test(t)) return t.slice(0, 2);
  const w = /^[\p{L}\p{N}@_][\p{L}\p{M}\p{N}_'’.-]*/u.exec(t);
  return w ? w[0].toLowerCase() : undefined;
}

function entityFile(root: string): string {
  return path.join(indexDir(root), 'entities.json');
}
