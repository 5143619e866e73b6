/**
 * Coreference from the session: a reference to a person in a question (a
 * pronoun, a clitic, a possessive, a definite description or a verb with no
 * subject — coref/*References.ts) stands for a person an earlier question
 * named.
 *
 * - Singular: the first person of the latest earlier question that named one,
 *   skipping a person the question names itself ("他对张三的方案怎么看？" after
 *   "张三和李四…" is 李四; after "李四提出了什么？", 李四 beside 张三).
 * - Plural ("they", "他们", "ellos", "les"): every person of the latest earlier
 *   question that named some; when it named only one, the person of the
 *   nearest earlier question before it that named another is added (two people
 *   across the session: "What did A say?", "And B?", "Did they agree?"). One
 *   person in the whole session stays one ("singular they").
 * - A possessive ("his", "su", "其") after a name of the question itself is
 *   that name's ("What does Ilia say about his diet?" → Ilia only; "What is his
 *   opinion of Ilia?" → the earlier person and Ilia); a personal
 *   reference ("he", "他", "le", a null subject) is an earlier question's person
 *   even when the question names someone else.
 * - Earlier questions are resolved the same way in order, so a question that
 *   only said "he" passes its person on.
 *
 * A role or an anonymous id ("the project manager", "speaker_3") is a person
 * of one item: the pronoun refers to the one of the item in focus. With no
 * item in focus it stays the role of every item that has it, and the answer
 * asks which one (roleEntities.ts) rather than mixing them.
 */
import type { Reference } from './coref/reference';
import { findReferences } from './coref/references';
import { coreName } from './entityIndex';
import { fold } from './intentCues';
import type { LinkedEntity } from './query';
import { referentName } from './referents';

/** Where the question says each of its own entities. */
function ownRanges(question: string, own: readonly LinkedEntity[]): [number, number][] {
  const lower = question.toLowerCase();
  const out: [number, number][] = [];
  for (const e of own) {
    const at = lower.indexOf(e.text.toLowerCase());
    if (at >= 0) out.push([at, at + e.text.length]);
  }
  return out;
}

/**
 * The question's references that stand for an earlier question's person: personal ones, and
 * possessives with no name of the question before them ("What does Ilia say about his diet?" is
 * Ilia's; "What is his opinion of Ilia?" is not).
 */
function sessionReferences(question: string, own: readonly LinkedEntity[]): Reference[] {
  const ranges = ownRanges(question, own);
  return findReferences(question, ranges).filter((r) => r.role === 'personal' || !ranges.some(([s]) => s < r.range[0]));
}

/** Which kind of reference `question` makes, if any. */
export function pronounKind(question: string): 'singular' | 'plural' | null {
  const refs = findReferences(question);
  if (refs.some((r) => r.number === 'plural')) return 'plural';
  return refs.length ? 'singular' : null;
}

/** One person under two labels or names ("Ilia" and "Ilia Topuria", "Professor D" and "Professor D"). */
function samePerson(a: LinkedEntity, b: LinkedEntity): boolean {
  if (a.label === b.label) return true;
  const x = fold(coreName(a.label));
  const y = fold(coreName(b.label));
  return x.length >= 2 && y.length >= 2 && (x.includes(y) || y.includes(x));
}

/** An item is no one a pronoun stands for. */
const isPerson = (e: LinkedEntity): boolean => e.kind !== 'item';

/**
 * The session entities a question refers to.
 *
 * @param sessionEntities entities of each earlier question, oldest first
 * @param own the entities the question names itself
 * @param focusItemId the item in focus: a role of several items resolves to its speaker in that item
 * @returns the entities to add (marked `fromSession`), possibly none
 */
export function resolveCoreference(question: string, sessionEntities: readonly (readonly LinkedEntity[])[], own: readonly LinkedEntity[] = [], focusItemId?: string): LinkedEntity[] {
  const refs = sessionReferences(question, own);
  if (!refs.length) return [];
  const candidates = (ents: readonly LinkedEntity[], taken: readonly LinkedEntity[]): LinkedEntity[] =>
    ents.filter((e) => isPerson(e) && !own.some((o) => samePerson(o, e)) && !taken.some((t) => samePerson(t, e)));
  const picked: LinkedEntity[] = [];
  if (refs.some((r) => r.number === 'singular')) {
    for (let i = sessionEntities.length - 1; i >= 0; i--) {
      const c = candidates(sessionEntities[i]!, []);
      if (c.length) {
        picked.push(c[0]!);
        break;
      }
    }
  }
  if (refs.some((r) => r.number === 'plural')) {
    const group: LinkedEntity[] = [];
    for (let i = sessionEntities.length - 1; i >= 0; i--) {
      const c = candidates(sessionEntities[i]!, group);
      if (!c.length) continue;
      if (group.length) {
        group.push(c[0]!);
        break;
      }
      group.push(...c);
      if (group.length >= 2) break;
    }
    for (const e of group) if (!picked.some((p) => p.label === e.label)) picked.push(e);
  }
  return picked.map((e) => ({ ...withinItem(e, focusItemId), fromSession: true }));
}

/**
 * The entities of each earlier question (oldest first): its own mentions and the persons its own
 * references resolved to, in the order the question says them (a pronoun subject before the name
 * after it: "Did he agree with Maria?" passes on he, then Maria).
 *
 * @param mentionsOf the entities a question names itself
 */
export function sessionEntityLists(session: readonly string[], mentionsOf: (question: string) => LinkedEntity[], focusItemId?: string): LinkedEntity[][] {
  const lists: LinkedEntity[][] = [];
  for (const q of session) {
    const own = mentionsOf(q);
    const resolved = resolveCoreference(q, lists, own, focusItemId);
    if (!resolved.length) {
      lists.push(own);
      continue;
    }
    const ranges = ownRanges(q, own);
    const refAt = sessionReferences(q, own)[0]?.range[0] ?? q.length;
    const placed = [...own.map((e, i) => ({ e, at: ranges[i]?.[0] ?? q.length })), ...resolved.map((e) => ({ e, at: refAt }))];
    lists.push(placed.sort((a, b) => a.at - b.at).map((p) => p.e));
  }
  return lists;
}

/** A role entity of several items, limited to the item in focus when it is one of them. */
function withinItem(e: LinkedEntity, focusItemId: string | undefined): LinkedEntity {
  if (!focusItemId || !e.speakerItems || e.speakerItems.length <= 1 || !e.speakerItems.includes(focusItemId)) return e;
  return { ...e, speakerItems: [focusItemId], itemIds: e.itemIds.filter((id) => id === focusItemId) };
}

/** How the rewritten question names an entity: a speaker by its label, a name without honorifics. */

/**
 * The question with its first reference to an earlier question's person written as that person's
 * name: "he" → "Ilia", "his" → "Ilia's", "他" → "李四", "其" → "李四的", "su libro" → "el libro de
 * Ilia", "¿Qué le preguntaron?" → "¿Qué le preguntaron a Ilia?", "¿Qué dijo después?" → "¿Qué dijo
 * Ilia después?". Unchanged when no entity came from the session.
 */
export function resolvePronoun(question: string, entities: readonly LinkedEntity[]): string {
  const session = entities.filter((e) => e.fromSession);
  if (!session.length) return question;
  const own = entities.filter((e) => !e.fromSession);
  const names = session.map(referentName);
  const ref = sessionReferences(question, own)[0];
  if (!ref) return `${question} (${names.join(' / ')})`;
  const { range, text } = ref.rewrite(ref.number === 'singular' ? names.slice(0, 1) : names);
  return `${question.slice(0, range[0])}${text}${question.slice(range[1])}`;
}

/** The question's own entities plus the ones its references stand for (never for a citation lookup); a role within the item in focus. */
export function resolveWith(question: string, own: readonly LinkedEntity[], session: readonly (readonly LinkedEntity[])[], isCitation: boolean, focusItemId: string | undefined): LinkedEntity[] {
  if (isCitation) return [...own];
  const out = [...own];
  for (const e of resolveCoreference(question, session, own, focusItemId)) if (!out.some((o) => o.label === e.label)) out.push(e);
  return out;
}
