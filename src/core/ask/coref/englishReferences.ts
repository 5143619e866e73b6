/**
 * References to a person in an English question: he/she/him/himself/herself,
 * they/them/themselves (plural), his/hers/their/theirs (possessive), "her" read
 * as possessive before a noun ("her diet") and as a person otherwise ("about
 * her?"), and definite descriptions ("the same speaker", "this speaker", "that
 * guy", "the two of them").
 */
import { type Reference, wordsOf } from './reference';

const PERSONAL_SG = new Set(['he', 'him', 'himself', 'she', 'herself']);
const PERSONAL_PL = new Set(['they', 'them', 'themselves']);
const POSSESSIVE_SG = new Set(['his', 'hers']);
const POSSESSIVE_PL = new Set(['their', 'theirs']);

/** Words after which "her" is the person, not "her something": function words, verbs' particles, time words. */
const NOT_A_NOUN = new Set(
  ('and or but nor so yet about in on at to for with from by of after before during since until than as that if when while because ' +
    'again too also now then there here today yesterday anymore any more much at all is was are were be been do does did has have had ' +
    'say said think thought mean means what which who whom whose why how where the a an this these those').split(' '),
);

const DEFINITE = /(?<![\p{L}])(?:the same|this|that)\s+(?:speaker|person|guy|man|woman|guest|interviewee|presenter|lady|gentleman|fellow|panelist|panellist)(?![\p{L}])|(?<![\p{L}])(?:the|this|that)\s+(?:guest|speaker|interviewee|presenter|guy)(?![\p{L}])/giu;
const DEFINITE_PLURAL = /(?<![\p{L}])(?:the two of them|both of them|the two (?:speakers|guests|men|women)|both (?:speakers|guests))(?![\p{L}])/giu;

const andJoin = (names: readonly string[]): string => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`);

/** The references of an English question, in order. */
export function englishReferences(question: string): Reference[] {
  const out: Reference[] = [];
  const words = wordsOf(question);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const range: [number, number] = [w.start, w.end];
    const named = (names: readonly string[]): { range: [number, number]; text: string } => ({ range, text: andJoin(names) });
    const owner = (names: readonly string[]): { range: [number, number]; text: string } => ({ range, text: `${andJoin(names)}'s` });
    if (PERSONAL_SG.has(w.lower)) out.push({ range, number: 'singular', role: 'personal', form: 'pronoun', rewrite: named });
    else if (PERSONAL_PL.has(w.lower)) out.push({ range, number: 'plural', role: 'personal', form: 'pronoun', rewrite: named });
    else if (POSSESSIVE_SG.has(w.lower)) out.push({ range, number: 'singular', role: 'possessive', form: 'possessive', rewrite: owner });
    else if (POSSESSIVE_PL.has(w.lower)) out.push({ range, number: 'plural', role: 'possessive', form: 'possessive', rewrite: owner });
    else if (w.lower === 'her') {
      const next = words[i + 1];
      // "her diet" (a noun follows, nothing between): what is hers; "about her?", "her and him": the person.
      const possessive = !!next && /^\s+$/u.test(question.slice(w.end, next.start)) && !NOT_A_NOUN.has(next.lower);
      out.push({ range, number: 'singular', role: possessive ? 'possessive' : 'personal', form: possessive ? 'possessive' : 'pronoun', rewrite: possessive ? owner : named });
    }
  }
  for (const [re, number] of [[DEFINITE, 'singular'], [DEFINITE_PLURAL, 'plural']] as const) {
    for (const m of question.matchAll(re)) {
      const range: [number, number] = [m.index, m.index + m[0].length];
      if (out.some((r) => r.range[0] < range[1] && range[0] < r.range[1])) continue;
      out.push({ range, number, role: 'personal', form: 'definite', rewrite: (names) => ({ range, text: andJoin(names) }) });
    }
  }
  return out.sort((a, b) => a.range[0] - b.range[0]);
}
