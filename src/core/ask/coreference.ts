/**
 * Coreference from the session: a pronoun ("he", "her", "他", "她", "él",
 * "ella") refers to the first entity of the latest earlier question that named
 * one; a plural pronoun ("they", "他们", "ellos") to all of its entities.
 *
 * A role or an anonymous id ("the project manager", "speaker_3") is a person
 * of one item: the pronoun refers to the one of the item in focus. With no
 * item in focus it stays the role of every item that has it, and the answer
 * asks which one (roleEntities.ts) rather than mixing them.
 */
import { coreName } from './entityIndex';
import type { LinkedEntity } from './query';

const SINGULAR_LATIN = /(?<![\p{L}])(?:he|him|his|himself|she|her|hers|herself|él|ella|su|sus|suyo|suya)(?![\p{L}])/iu;
/** Pronouns that stand for a person themselves, not only for what is theirs ("his", "su"). */
const PERSONAL = /(?<![\p{L}])(?:he|him|himself|she|her|herself|they|them|themselves|él|ella|ellos|ellas)(?![\p{L}])|[他她祂]/iu;
const PLURAL_LATIN = /(?<![\p{L}])(?:they|them|their|theirs|themselves|ellos|ellas)(?![\p{L}])/iu;
const SINGULAR_CJK = /[他她祂](?![们們])/u;
const PLURAL_CJK = /(?:他们|她们|他們|她們)/u;
/** "the speaker", "this guest", "el invitado", "这位嘉宾": refer to the entity in focus like a pronoun. */
const DEFINITE_PERSON = /(?<![\p{L}])(?:the (?:guest|speaker|host|interviewee|presenter)|this (?:guest|speaker|person|man|woman)|el invitado|la invitada|el entrevistado|la entrevistada)(?![\p{L}])|这位嘉宾|這位嘉賓|这位老师|這位老師|这个人|這個人/iu;

/** Which kind of reference `question` makes, if any. */
export function pronounKind(question: string): 'singular' | 'plural' | null {
  // Spanish "él" keeps its accent in the pattern: "el" is the article.
  if (PLURAL_CJK.test(question) || PLURAL_LATIN.test(question)) return 'plural';
  if (SINGULAR_CJK.test(question) || DEFINITE_PERSON.test(question)) return 'singular';
  return SINGULAR_LATIN.test(question) ? 'singular' : null;
}

/**
 * The session entities a question refers to.
 *
 * @param sessionEntities entities of each earlier question, oldest first
 * @param namesOwn the question names an entity itself
 * @param focusItemId the item in focus: a role of several items resolves to its speaker in that item
 * @returns the entities to add (marked `fromSession`), possibly none
 */
export function resolveCoreference(question: string, sessionEntities: readonly (readonly LinkedEntity[])[], namesOwn = false, focusItemId?: string): LinkedEntity[] {
  const kind = pronounKind(question);
  if (!kind) return [];
  // "¿Qué cuenta Ilia sobre su dieta?": a possessive next to a name of the question's own belongs to that name.
  if (namesOwn && !PERSONAL.test(question) && !DEFINITE_PERSON.test(question)) return [];
  for (let i = sessionEntities.length - 1; i >= 0; i--) {
    const ents = sessionEntities[i]!;
    if (!ents.length) continue;
    const picked = kind === 'singular' ? [ents[0]!] : ents;
    return picked.map((e) => ({ ...withinItem(e, focusItemId), fromSession: true }));
  }
  return [];
}

/** A role entity of several items, limited to the item in focus when it is one of them. */
function withinItem(e: LinkedEntity, focusItemId: string | undefined): LinkedEntity {
  if (!focusItemId || !e.speakerItems || e.speakerItems.length <= 1 || !e.speakerItems.includes(focusItemId)) return e;
  return { ...e, speakerItems: [focusItemId], itemIds: e.itemIds.filter((id) => id === focusItemId) };
}

/** The question with its first pronoun replaced by the entity it refers to. */
export function resolvePronoun(question: string, entities: readonly LinkedEntity[]): string {
  const session = entities.filter((e) => e.fromSession);
  if (!session.length) return question;
  const name = session.map((e) => (e.kind === 'speaker' ? e.label : coreName(e.label))).join(' / ');
  const latin = /(?<![\p{L}])(he|him|she|her|they|them|él|ella|ellos|ellas)(?![\p{L}])/iu;
  const possessive = /(?<![\p{L}])(his|hers|their|su|sus)(?![\p{L}])/iu;
  if (latin.test(question)) return question.replace(latin, name);
  if (possessive.test(question)) return question.replace(possessive, `${name}'s`);
  if (/他们|她们|他們|她們/u.test(question)) return question.replace(/他们|她们|他們|她們/u, name);
  if (/[他她]/u.test(question)) return question.replace(/[他她]/u, name);
  return `${question} (${name})`;
}

/** The question's own entities plus the ones its pronouns refer to (never for a citation lookup); a role within the item in focus. */
export function resolveWith(question: string, own: readonly LinkedEntity[], session: readonly (readonly LinkedEntity[])[], isCitation: boolean, focusItemId: string | undefined): LinkedEntity[] {
  if (isCitation) return [...own];
  const out = [...own];
  for (const e of resolveCoreference(question, session, own.length > 0, focusItemId)) if (!out.some((o) => o.label === e.label)) out.push(e);
  return out;
}
