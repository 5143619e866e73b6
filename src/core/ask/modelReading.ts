/**
 * A model's reading of a question is checked before it is trusted (issue 23). The model engine
 * of query understanding answers in free JSON; what it says is kept only where the question or
 * the corpus backs it:
 * - citation numbers must be written in the question (as digits, number words or ordinals);
 *   others are dropped, and a citation lookup left without numbers takes the rules' intent;
 * - entities must link to the corpus or be said in the question or an earlier one;
 * - a time constraint that disagrees with the rules' is reported and the rules' is kept; one the
 *   rules did not find is kept only when the question speaks of time at all.
 * Every change is said in a note. `resolvedQuery` is the model's paraphrase: retrieval may use it,
 * the answer prompt never replaces the user's question with it (chatTurn.ts, askHandlers.ts).
 */
import { fold } from './intentCues';
import { NUMBER_PATTERN, parseNumber } from './numbers';
import type { Intent, LinkedEntity, ParsedQuery, TimeConstraint } from './query';

/** Both ends within this many seconds: the same constraint (the ASK.md grading rule). */
export const TIME_TOLERANCE_S = 5;

/** Ordinals a question may name a citation by ("the third source", "la tercera fuente", "第三条"). */
const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  primer: 1, primero: 1, primera: 1, segundo: 2, segunda: 2, tercer: 3, tercero: 3, tercera: 3, cuarto: 4, cuarta: 4,
  quinto: 5, quinta: 5, sexto: 6, sexta: 6, septimo: 7, septima: 7, octavo: 8, octava: 8, noveno: 9, novena: 9, decimo: 10, decima: 10,
};

/** Words that speak of time in a question, in the three languages (a clock form counts too). */
const TIME_WORDS =
  /(?<![\p{L}])(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|start|beginning|opening|end|ending|half|segundos?|minutos?|horas?|inicio|principio|comienzo|final|mitad)(?![\p{L}])|\d{1,2}:\d{2}|\d+\s*[hms]\b|秒|分钟|分鐘|小时|小時|钟头|鐘頭|开头|開頭|开场|開場|结尾|結尾|(?:最后|最後)(?=\s*(?:[\d〇零一二两兩三四五六七八九十半几幾]|一段|部分))|前半|后半|後半|一半/iu;

/** Every number the question writes: digits, number words (en/es), Chinese numerals, ordinals. */
export function numbersInQuestion(question: string): Set<number> {
  const out = new Set<number>();
  const text = question.normalize('NFKC');
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}])(?:${NUMBER_PATTERN})(?![\\p{L}])|[〇零一二两兩三四五六七八九十百]+`, 'giu'))) {
    const n = parseNumber(m[0]);
    if (Number.isFinite(n)) out.add(n);
  }
  for (const w of fold(text).match(/\p{L}+/gu) ?? []) if (ORDINALS[w] !== undefined) out.add(ORDINALS[w]);
  return out;
}

function sameTime(a: TimeConstraint, b: TimeConstraint): boolean {
  const end = a.endS === null || b.endS === null ? a.endS === b.endS : Math.abs(a.endS - b.endS) <= TIME_TOLERANCE_S;
  return Math.abs(a.startS - b.startS) <= TIME_TOLERANCE_S && end;
}

function timeLabel(t: TimeConstraint | null): string {
  if (!t) return 'no time limit';
  const clock = (s: number): string => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
  return t.endS === null ? `from ${clock(t.startS)} on` : `${clock(t.startS)}–${clock(t.endS)}`;
}

/** What the model said, already merged with the rules where they agree (understand.ts). */
export interface ModelReading {
  intent: Intent;
  entities: LinkedEntity[];
  citationNumbers: number[];
  timeConstraint: TimeConstraint | null;
}

/** The reading after the checks, and one note per change. */
export interface CheckedReading extends ModelReading {
  notes: string[];
}

/**
 * Checks `reading` against the question, the session and the rules' reading of the same question.
 *
 * @param sessionQuestions earlier questions of the conversation (a name said there may be what a pronoun refers to)
 * @example
 * checkModelReading('What is the main conclusion of the report?', [], { intent: 'citation_lookup', citationNumbers: [5404319552844595], … }, rules)
 * // → intent rules.intent, citationNumbers [], notes ['the model read citation 5404319552844595, which the question does not contain: dropped', …]
 */
export function checkModelReading(question: string, sessionQuestions: readonly string[], reading: ModelReading, rules: ParsedQuery): CheckedReading {
  const notes: string[] = [];

  // Citation numbers: the rules' forms are certain; the model's must be written in the question.
  const written = numbersInQuestion(question);
  let citationNumbers = rules.citationNumbers.length ? [...rules.citationNumbers] : [];
  if (!rules.citationNumbers.length) {
    for (const n of reading.citationNumbers) {
      if (written.has(n)) citationNumbers.push(n);
      else notes.push(`the model read citation ${n}, which the question does not contain: dropped`);
    }
    citationNumbers = [...new Set(citationNumbers)];
  }
  let intent = rules.citationNumbers.length ? 'citation_lookup' : reading.intent;
  if (intent === 'citation_lookup' && !citationNumbers.length) {
    intent = rules.intent === 'citation_lookup' ? 'search_semantic' : rules.intent;
    notes.push(`the model read a citation lookup without a citation number in the question: read as ${intent}`);
  }

  // Entities: linked to the corpus, or said in the question or an earlier one.
  const said = [question, ...sessionQuestions].map(fold);
  const entities: LinkedEntity[] = [];
  if (intent !== 'citation_lookup') {
    for (const e of reading.entities) {
      if (e.kind !== 'unlinked' || said.some((s) => s.includes(fold(e.text)))) entities.push(e);
      else notes.push(`the model named "${e.text}", which is neither in the corpus nor in the question: dropped`);
    }
  }

  // Time: the rules' grammar decides when it found a phrase; a model's constraint needs a time word in the question.
  let timeConstraint = rules.timeConstraint;
  const modelTime = reading.timeConstraint;
  if (rules.timeConstraint) {
    if (!modelTime || !sameTime(modelTime, rules.timeConstraint)) notes.push(`the model read the time as ${timeLabel(modelTime)}, the question's time phrase says ${timeLabel(rules.timeConstraint)}: kept the latter`);
  } else if (modelTime) {
    if (TIME_WORDS.test(question)) timeConstraint = modelTime;
    else notes.push(`the model read a time limit (${timeLabel(modelTime)}) into a question that speaks of no time: dropped`);
  }
  return { intent, entities, citationNumbers, timeConstraint, notes };
}
