/**
 * Finds the entities a question names and links them to the corpus: speaker
 * labels (also by the name inside a label, "Justin Trudeau" → "Right Hon.
 * Justin Trudeau", and by role, "the professor" → "Professor B" when one
 * speaker of the items in scope is a professor), names the entity index
 * knows, capitalised sequences the corpus does not write in lower case, and
 * Chinese proper nouns tagged by jieba that occur in the corpus.
 *
 * A speaker label that is a role or an anonymous id ("Project Manager",
 * "speaker_3") is a different person in each item: its entity says whose
 * (`speakerItems`: the item in focus, the one item the question names, or —
 * not yet told — every item that has it).
 */
import type { Corpus, CorpusItem } from '../corpus/types';
import { LruMap } from '../util/lruMap';
import { addNames, tagChinese } from './chineseTagger';
import { coreName, CJK_SURNAMES, nameKey, type EntityIndex, type KnownName } from './entityIndex';
import { fold } from './intentCues';
import type { LinkedEntity } from './query';
import { classifySpeakerLabel, genericMentions, genericNumber } from './speakerLabels';

/** A mention in the question: the entity and where the question says it. */
export interface Mention {
  entity: LinkedEntity;
  range: [number, number];
}

/** Capitalised words that are question words, function words or intent cues in EN/ES, never names alone. */
const NOT_NAMES = new Set(
  ('what which who whom whose why how when where did does do is are was were can could would should will shall may might must have has had ' +
    'tell show give list find summarize summarise summary explain describe compare please and but or so if in on at to for of the a an this that these those ' +
    'i you he she it we they me him her us them my your his its our their there here yes no not any all some most many each every across after before ' +
    'between during from into about above below over under again then once also just only very more less first last next other another same ' +
    'qué que cuál cual cuáles cuales quién quien quiénes quienes cómo como cuándo cuando dónde donde por porqué para y o pero si en el la los las un una ' +
    'unos unas del al de resume resumen dime dame muestra explica describe compara hay es son fue era está están este esta estos estas ese esa eso ' +
    'también solo muy más menos primero primera último última otro otra mismo misma sobre entre después antes durante desde hasta ' +
    'episode episodes video videos meeting meetings podcast interview item items comments comment viewers audience speaker speakers transcript ' +
    'episodio episodios vídeo entrevista comentarios espectadores chinese english spanish').split(/\s+/),
);

/** Tags of jieba proper nouns (person, transliterated name, place, organisation, other). */
const PROPER_TAGS = new Set(['nr', 'nrt', 'nrfg', 'ns', 'nt', 'nz']);

interface Options {
  /** Items whose speakers and names count first (the item in focus, or undefined = all). */
  itemIds?: readonly string[];
  /**
   * An item's texts (transcript, comments) as the search index kept them, or undefined when it did
   * not: looked in instead of the item's parsed parts (a lazily held item is not parsed for it).
   */
  itemTexts?: ItemTexts;
}

/** An item's texts as the search index kept them ({@link Options.itemTexts}). */
export type ItemTexts = (itemId: string) => readonly string[] | undefined;

/** The texts of an item: as the index kept them, else its parsed parts'. */
function textsOf(item: CorpusItem, itemTexts: ItemTexts | undefined): readonly (string | undefined)[] {
  return itemTexts?.(item.id) ?? [item.transcript?.text, item.comments?.text];
}

/** A word-boundary, case- and accent-insensitive search for `needle` (Latin) or a substring search (CJK). */
function findAll(hay: string, foldedHay: string, needle: string, known?: { han: boolean; folded: string }): [number, number][] {
  const out: [number, number][] = [];
  if (!needle) return out;
  if (known ? known.han : HAS_HAN.test(needle)) {
    for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) out.push([at, at + needle.length]);
    return out;
  }
  const f = known ? known.folded : fold(needle);
  for (let at = foldedHay.indexOf(f); at >= 0; at = foldedHay.indexOf(f, at + f.length)) {
    const before = foldedHay[at - 1];
    const after = foldedHay[at + f.length];
    if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after) || /^['’]s\b/u.test(foldedHay.slice(at + f.length)))) out.push([at, at + f.length]);
  }
  return out;
}

const HAS_HAN = /\p{Script=Han}/u;

const overlaps = (a: [number, number], taken: readonly [number, number][]): boolean => taken.some((t) => a[0] < t[1] && t[0] < a[1]);

/**
 * The entities `question` names, in order of appearance, each linked to the corpus where possible.
 *
 * @example findMentions('Did PhD A and PhD C agree?', entities, corpus, { itemIds: ['Bro014'] }) → PhD A, PhD C (speakers)
 */
export function findMentions(question: string, entities: EntityIndex, corpus: Corpus | undefined, options: Options = {}): Mention[] {
  const folded = fold(question);
  const taken: [number, number][] = [];
  const out: Mention[] = [];
  const scope = options.itemIds;
  const push = (entity: LinkedEntity, range: [number, number]): void => {
    taken.push(range);
    const dup = out.find((m) => m.entity.label === entity.label);
    if (!dup) out.push({ entity, range });
  };

  // 1. Speaker labels of the items in scope: whole label, the name inside it, its role word when unique.
  const speakers = entities.speakers(scope);
  const forms = speakerForms(entities, speakers, scope);
  for (const { form, label, role, han, folded: foldedForm } of forms) {
    for (const r of findAll(question, folded, form, { han, folded: foldedForm })) {
      if (overlaps(r, taken)) continue;
      // A label that is a common word ("Marketing") written in lower case is the word, not the speaker ("findings for marketing").
      // "the host", "el presentador" are the role even in lower case.
      if (!role && /^\p{Lu}/u.test(form) && !/\p{Lu}/u.test(question.slice(r[0], r[1])) && !/(?<![\p{L}])(?:the|el|la|los|las)\s+$/iu.test(question.slice(0, r[0]))) continue;
      push(speakerEntity(question, question.slice(r[0], r[1]), label, entities, scope), r);
    }
  }
  // "说话人3", "hablante 3", "speaker 3" for the one generic label numbered 3 in scope ("speaker_3", "SPEAKER 03", "发言人3").
  const written = genericMentions(question);
  if (written.length) {
    const byNumber = new Map<number, string[]>();
    for (const label of speakers) {
      const n = genericNumber(label);
      if (n !== undefined) byNumber.set(n, [...(byNumber.get(n) ?? []), label]);
    }
    for (const { n, range } of written) {
      const labels = byNumber.get(n) ?? [];
      if (labels.length === 1 && !overlaps(range, taken)) push(speakerEntity(question, question.slice(range[0], range[1]), labels[0]!, entities, scope), range);
    }
  }

  // 2. Names the index knows (names in text and meta, self-introductions, comment authors), longest first.
  const lookup = entities.names();
  const candidates: KnownName[] = [];
  const keys = new Set<string>();
  for (const m of question.matchAll(/[\p{L}\p{N}@_][\p{L}\p{M}\p{N}_'’.-]*/gu)) {
    const w = m[0];
    if (/^\p{Script=Han}/u.test(w)) for (let i = 0; i + 1 < w.length; i++) keys.add(w.slice(i, i + 2));
    else keys.add(w.toLowerCase().replace(/['’]s$/u, ''));
  }
  for (const k of keys) for (const n of lookup.get(k) ?? []) candidates.push(n);
  candidates.sort((a, b) => b.name.length - a.name.length || b.count - a.count);
  for (const n of candidates) {
    if (n.kind === 'speaker') continue;
    const inScope = !scope || n.itemIds.some((id) => scope.includes(id));
    // Out of scope a name still links (the question may name another item's guest), but only a well-attested one.
    if (!inScope && n.count < 2) continue;
    // A single common-looking word known only from comment authors is too weak ("Mike").
    if (n.kind === 'author' && !/[\p{Lu}\d@_]/u.test(n.name.slice(1)) && n.name.split(/\s+/).length === 1) continue;
    if (/^[\p{Lu}\d]{1,5}$/u.test(n.name) || NOT_NAMES.has(fold(n.name))) continue;
    for (const r of findAll(question, folded, n.name)) {
      // A Latin name written all lower-case in the question is a common word there ("the government", "social media").
      if (overlaps(r, taken) || (!/\p{Script=Han}/u.test(n.name) && !/\p{Lu}/u.test(question.slice(r[0], r[1])))) continue;
      push({ text: question.slice(r[0], r[1]), label: n.name, kind: n.kind, itemIds: n.itemIds, fromSession: false, ...(n.speaker ? { speaker: n.speaker } : {}), ...(n.speakerItems ? { speakerItems: n.speakerItems } : {}) }, r);
    }
  }

  // 3. Capitalised sequences the index does not know (Latin script).
  // A word starting in lower case with capitals inside ("byCaLiTos", "iPhone", "eBay") is written as a name too.
  const NAMEWORD = "(?:\\p{Lu}[\\p{Script=Latin}\\p{M}\\d'’-]*|\\p{Ll}+\\p{Lu}[\\p{Script=Latin}\\p{M}\\d'’-]*)";
  const capSeq = new RegExp(`(?<![\\p{L}\\p{N}'’])(${NAMEWORD}(?:\\s+(?:(?:de|del|la|van|von|da|di|le)\\s+)?${NAMEWORD})*)`, 'gu');
  for (const m of question.matchAll(capSeq)) {
    let text = m[1]!.replace(/['’]s$/u, '');
    let start = m.index!;
    // Drop leading words that are not names ("Did", "Qué", "How").
    const words = text.split(/\s+/);
    while (words.length && (NOT_NAMES.has(fold(words[0]!)) || isSentenceStart(question, start) && !knownWord(words[0]!, lookup))) {
      const w = words.shift()!;
      start = question.indexOf(words[0] ?? '', start + w.length);
      if (!words.length) break;
    }
    while (words.length && NOT_NAMES.has(fold(words[words.length - 1]!))) words.pop();
    if (!words.length) continue;
    text = words.join(' ');
    const r: [number, number] = [start, start + text.length];
    if (overlaps(r, taken)) continue;
    // Acronyms are terms ("VAD", "UFC"), not names; and a word the corpus writes in lower case is a common word.
    if (words.every((w) => /^[\p{Lu}\d]{1,5}s?$/u.test(w))) continue;
    if (words.length === 1 && corpusWritesLower(words[0]!, lookup, corpus, scope, options.itemTexts)) continue;
    // After a quantifier or article of a plural ("other YouTubers", "otros Youtubers", "many Democrats"), a capitalised word is a class, not a name.
    if (/(?<![\p{L}])(?:other|others|some|many|most|these|those|all|several|few|otros|otras|algunos|algunas|muchos|muchas|varios|varias|unos|unas|los|las|estos|estas|demás)\s+$/iu.test(question.slice(0, start))) continue;
    push({ text, label: text, kind: 'unlinked', itemIds: [], fromSession: false }, r);
  }

  // 4. Chinese proper nouns: jieba tags, with the corpus's own names added to its dictionary; kept when the corpus has them.
  if (/\p{Script=Han}/u.test(question)) {
    const cjkKnown = cjkNamesOf(entities);
    addNames(cjkKnown);
    let at = 0;
    const tagged = tagChinese(question);
    for (let wi = 0; wi < tagged.length; wi++) {
      let { word } = tagged[wi]!;
      const { tag } = tagged[wi]!;
      const start = question.indexOf(word, at);
      at = start < 0 ? at : start + word.length;
      if (start < 0 || !/^\p{Script=Han}{2,6}$/u.test(word)) continue;
      // A proper noun the corpus always writes with the next word is one name ("宁德" + "时代" → "宁德时代").
      if (PROPER_TAGS.has(tag) && corpus) {
        const next = tagged[wi + 1]?.word ?? '';
        const longer = word + next;
        if (/^\p{Script=Han}{1,4}$/u.test(next) && longer.length <= 6) {
          const base = countIn(corpus, word, scope, options.itemTexts);
          const ext = countIn(corpus, longer, scope, options.itemTexts);
          if (ext >= 2 && ext >= 0.8 * base) {
            word = longer;
            at = start + word.length;
            wi++;
          }
        }
      }
      const r: [number, number] = [start, start + word.length];
      if (overlaps(r, taken)) continue;
      const isKnown = cjkKnown.has(word);
      // Abstract-noun suffixes (最大化, 重要性, 满意度, 增长率) make concepts, whatever the tagger says.
      const concept = /[化性度率力感]$/u.test(word) && !isKnown;
      const proper = PROPER_TAGS.has(tag) && !concept && (tag !== 'nr' || word.length > 2 || CJK_SURNAMES.has(word[0]!) || isKnown);
      if (!proper && !isKnown) continue;
      const itemIds = itemsContaining(corpus, word, scope, options.itemTexts);
      if (!isKnown && itemIds.length === 0) continue;
      push({ text: word, label: word, kind: 'name', itemIds, fromSession: false }, r);
    }
  }
  out.sort((a, b) => a.range[0] - b.range[0]);
  return out;
}

/** The Chinese names the index knows (two to four characters), computed once per name lookup. */
const cjkCache = new WeakMap<object, Set<string>>();
function cjkNamesOf(entities: EntityIndex): Set<string> {
  const lookup = entities.names();
  let set = cjkCache.get(lookup);
  if (!set) {
    set = new Set();
    for (const [key, list] of lookup) if (/^\p{Script=Han}/u.test(key)) for (const n of list) if (/^\p{Script=Han}{2,4}$/u.test(n.name)) set.add(n.name);
    cjkCache.set(lookup, set);
  }
  return set;
}

function isSentenceStart(text: string, at: number): boolean {
  return /^[\s¿¡"“'(]*$/u.test(text.slice(0, at)) || /[.!?。！？]\s*[¿¡"“'(]*$/u.test(text.slice(0, at));
}

function knownWord(word: string, lookup: ReadonlyMap<string, KnownName[]>): boolean {
  const k = nameKey(word);
  return !!k && (lookup.get(k) ?? []).some((n) => n.kind !== 'author' && n.count >= 2);
}

/**
 * True when the corpus uses `word` as a common word: not among its names, and
 * written in lower case at least three times and three times as often as
 * capitalised (auto-captions write names in lower case too, so a few
 * lower-case uses prove nothing).
 */
function corpusWritesLower(word: string, lookup: ReadonlyMap<string, KnownName[]>, corpus: Corpus | undefined, scope: readonly string[] | undefined, itemTexts: ItemTexts | undefined): boolean {
  const k = nameKey(word);
  if (k && (lookup.get(k) ?? []).some((n) => fold(n.name).split(/\s+/).includes(fold(word)))) return false;
  if (!corpus) return false;
  const re = new RegExp(`(?<![\\p{L}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'giu');
  let lower = 0;
  let upper = 0;
  // Bounded: the items in scope, or the first 100 items of a large corpus.
  const items = scope ? corpus.items.filter((i) => scope.includes(i.id)) : corpus.items.slice(0, 100);
  for (const item of items) {
    for (const part of textsOf(item, itemTexts)) {
      if (!part || !caseReliable(part)) continue;
      for (const m of part.matchAll(re)) {
        if (m[0] === m[0].toLowerCase()) lower++;
        else upper++;
      }
    }
  }
  return lower >= 3 && lower >= 3 * upper;
}

const reliable = new Map<string, boolean>();
/** A form a question may write a speaker label in (the label, the name inside it, a unique role word or surname). */
interface SpeakerForm {
  form: string;
  label: string;
  role?: boolean;
  /** The form has Han characters (found as written), else `fold`ed (found in the folded question). */
  han: boolean;
  folded: string;
}

/** The forms of the whole corpus's speakers, per entity index (it does not change once built): a large corpus has thousands of labels. */
const corpusForms = new WeakMap<EntityIndex, readonly SpeakerForm[]>();

/** The forms of `speakers` (the labels of `scope`), longest first. */
function speakerForms(entities: EntityIndex, speakers: readonly string[], scope: readonly string[] | undefined): readonly SpeakerForm[] {
  const known = scope ? undefined : corpusForms.get(entities);
  if (known) return known;
  const forms: Omit<SpeakerForm, 'han' | 'folded'>[] = [];
  for (const label of speakers) {
    forms.push({ form: label, label });
    if (classifySpeakerLabel(label).kind === 'generic') {
      forms.push({ form: label.replace(/[_-]+/g, ' '), label });
      continue;
    }
    const core = coreName(label);
    // "PhD A" → "A" is no name; a core name needs three letters.
    if (core !== label && core.replace(/[^\p{L}]/gu, '').length >= 3) forms.push({ form: core, label });
  }
  // Role words: "Professor B" → "professor", when exactly one speaker in scope has that role.
  const roles = new Map<string, string[]>();
  for (const label of speakers) {
    const m = /^([\p{L}][\p{L} .'-]*?)\s+[A-Z0-9]$/u.exec(label);
    if (m) roles.set(m[1]!.toLowerCase(), [...(roles.get(m[1]!.toLowerCase()) ?? []), label]);
  }
  for (const [role, labels] of roles) if (labels.length === 1) forms.push({ form: role, label: labels[0]!, role: true });
  // Surnames of speakers with a full name, when unique in scope ("Trudeau").
  const surnames = new Map<string, string[]>();
  for (const label of speakers) {
    const words = coreName(label).split(/\s+/);
    if (words.length >= 2 && /^\p{Lu}\p{Ll}+$/u.test(words[words.length - 1]!)) {
      const s = words[words.length - 1]!;
      surnames.set(s, [...(surnames.get(s) ?? []), label]);
    }
  }
  for (const [s, labels] of surnames) if (labels.length === 1) forms.push({ form: s, label: labels[0]! });
  forms.sort((a, b) => b.form.length - a.form.length);
  const out = forms.map((f): SpeakerForm => ({ ...f, han: HAS_HAN.test(f.form), folded: fold(f.form) }));
  if (!scope) corpusForms.set(entities, out);
  return out;
}

/**
 * Whether a text's capitals mean anything: punctuated writing (sentences end
 * with . ! ?) is; auto-captions (no punctuation, names in lower case) are not.
 */
function caseReliable(text: string): boolean {
  const key = `${text.length}:${text.slice(0, 64)}`;
  let r = reliable.get(key);
  if (r === undefined) {
    const sample = text.slice(0, 20_000);
    const words = sample.split(/\s+/).length;
    const ends = (sample.match(/[.!?](?:\s|$)/g) ?? []).length;
    r = words > 0 && ends / words >= 0.02;
    if (reliable.size > 10_000) reliable.clear();
    reliable.set(key, r);
  }
  return r;
}

function itemsWithSpeaker(entities: EntityIndex, label: string, scope: readonly string[] | undefined): string[] {
  if (scope) return scope.filter((id) => entities.item(id)?.speakers.some(([s]) => s === label));
  // The whole corpus's, once per label and entity index (it does not change once built).
  let memo = corpusSpeakerItems.get(entities);
  if (!memo) corpusSpeakerItems.set(entities, (memo = new Map()));
  let items = memo.get(label);
  if (!items) memo.set(label, (items = entities.itemIds.filter((id) => entities.item(id)?.speakers.some(([s]) => s === label))));
  return [...items];
}
const corpusSpeakerItems = new WeakMap<EntityIndex, Map<string, readonly string[]>>();

/**
 * The entity of a speaker label the question says. A role or an anonymous id is the speaker of its
 * items in scope only (`speakerItems`): of the one item the question names when it names one of them.
 */
function speakerEntity(question: string, text: string, label: string, entities: EntityIndex, scope: readonly string[] | undefined): LinkedEntity {
  let itemIds = itemsWithSpeaker(entities, label, scope);
  let roleItems = entities.roleItems(label, itemIds);
  if (roleItems.length > 1) {
    // Folded once: a role of a large corpus is in thousands of items.
    const folded = fold(question);
    const named = roleItems.filter((id) => namesItem(folded, id));
    if (named.length === 1) {
      roleItems = named;
      itemIds = named;
    }
  }
  return { text, label, kind: 'speaker', speaker: label, itemIds, fromSession: false, ...(roleItems.length ? { speakerItems: roleItems } : {}) };
}

/**
 * True when the question (`folded`: as `fold` gives it) writes the item's id or a distinctive part of it (four characters or more with
 * a digit: "ES2009b" of "qmsum-ES2009b"), between characters that are not Latin letters or digits
 * ("in ES2009b?", "在ES2009b里").
 */
function namesItem(folded: string, itemId: string): boolean {
  return itemIdForms(itemId).some((f) => {
    for (let at = folded.indexOf(f); at >= 0; at = folded.indexOf(f, at + 1)) {
      if (!ITEM_ID_WORD.test(folded[at - 1] ?? '') && !ITEM_ID_WORD.test(folded[at + f.length] ?? '')) return true;
    }
    return false;
  });
}

const ITEM_ID_WORD = /[\p{Script=Latin}\p{N}]/u;
/** The folded forms of each item id a question may write (see {@link namesItem}), worked out once per id: a role's thousands of items are asked about per question. */
const itemIdFormMemo = new LruMap<string, readonly string[]>(100_000);

function itemIdForms(itemId: string): readonly string[] {
  return itemIdFormMemo.getOrSet(itemId, () => [itemId, ...itemId.split(/[-_\s]+/u).filter((p) => p.length >= 4 && /\d/u.test(p) && /\p{L}/u.test(p))].map(fold));
}

/** Occurrences of `word` in the transcripts and comments of the scope (or the first 100 items). */
function countIn(corpus: Corpus, word: string, scope: readonly string[] | undefined, itemTexts: ItemTexts | undefined): number {
  let n = 0;
  const items = scope ? corpus.items.filter((i) => scope.includes(i.id)) : corpus.items.slice(0, 100);
  for (const item of items) {
    for (const text of textsOf(item, itemTexts)) {
      if (!text) continue;
      for (let at = text.indexOf(word); at >= 0 && n < 1000; at = text.indexOf(word, at + word.length)) n++;
    }
  }
  return n;
}

/** Items (in scope first, else anywhere) whose text contains `word`. */
function itemsContaining(corpus: Corpus | undefined, word: string, scope: readonly string[] | undefined, itemTexts: ItemTexts | undefined): string[] {
  if (!corpus) return [];
  const has = (id: string): boolean => {
    const item = corpus.items.find((i) => i.id === id);
    return !!item && (textsOf(item, itemTexts).some((t) => !!t?.includes(word)) || item.title.includes(word));
  };
  const inScope = (scope ?? []).filter(has);
  if (inScope.length) return inScope;
  // Bounded: the first 100 items of a large corpus.
  return corpus.items.slice(0, 100).filter((i) => has(i.id)).map((i) => i.id);
}
