/**
 * A reference to a person in a question — a pronoun, a clitic, a possessive,
 * a definite description ("this speaker", "这位嘉宾") or a verb without a
 * subject ("¿Qué dijo después?") — as the language finders report it.
 */

/** What kind of words refer: the bench and tests count by it. */
export type ReferenceForm = 'pronoun' | 'possessive' | 'clitic' | 'null-subject' | 'definite';

export interface Reference {
  /** The words that refer (for a null subject: its verb phrase). */
  range: [number, number];
  number: 'singular' | 'plural';
  /**
   * `personal` stands for the person ("he", "他", "él", "le", a null subject, "this speaker"): an
   * earlier question's person even when the question names someone else. `possessive` is what is
   * theirs ("his", "su", "其"): the question's own name when it has one.
   */
  role: 'personal' | 'possessive';
  form: ReferenceForm;
  /** The question's text rewritten with the referents' names (already joined as the language joins them). */
  rewrite: (names: readonly string[]) => { range: [number, number]; text: string };
}

/** A word of a Latin-script question and where it is. */
export interface Word {
  text: string;
  lower: string;
  start: number;
  end: number;
}

/** The letter runs of a question (apostrophes kept inside: "he's" is "he" and "s"). */
export function wordsOf(question: string): Word[] {
  return [...question.matchAll(/[\p{L}\p{M}]+/gu)].map((m) => ({ text: m[0], lower: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/** Nothing but spaces between two offsets. */
export function adjacent(question: string, a: number, b: number): boolean {
  return /^\s*$/u.test(question.slice(a, b));
}

/** Replaces the reference's own words with `text`. */
export function replaceWith(range: [number, number], text: string): { range: [number, number]; text: string } {
  return { range, text };
}
