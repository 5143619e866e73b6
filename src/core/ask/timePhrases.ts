/**
 * Time constraints in a question, in English, Chinese (simplified and traditional) and Spanish,
 * read by a grammar (time/timeGrammar.ts over time/timeTokens.ts and time/timeLexicon.ts) rather
 * than a list of phrases: "first 5 minutes", "after the one-hour mark", "between 0:10:00 and
 * 0:15:30", "the first hour and a half", 开场十分钟, 前二十分鐘, 第二个小时, 一个半小时以后,
 * "desde el minuto veinte hasta el final", "la primera hora y media", "últimos 10 minutos" (needs
 * the duration), "the second half" (needs the duration).
 *
 * Semantics: "first N" = [0, N]; "last N" = [d − N, d]; the nth N = [(n−1)·N, n·N]; "after X" =
 * [X, open]; "before X" = [0, X]; "at X" = X ± 30 s; halves of the item; "the final part" / "la
 * parte final" / 结尾部分 = its last third ("the opening part" the first, "the middle part" the
 * middle); a range from A to B, swapped when B comes first. A number without a time unit is no
 * time ("after 3 goals", "the first 2 speakers").
 */
import type { TimeConstraint } from './query';
import { parseClock } from '../text/clock';
import { parseTimeTokens } from './time/timeGrammar';
import { timeTokens } from './time/timeTokens';

export { parseClock };

/**
 * The first time constraint `question` states, with the matched text (to keep it out of keywords).
 *
 * @param durationS the item's length, for "the last N minutes" and halves; without it such phrases give no constraint.
 * @example findTimeConstraint('Which topics come up in the first 15 minutes?') → { startS: 0, endS: 900 }
 * @example findTimeConstraint('第40分钟以后讲了什么') → { startS: 2400, endS: null }
 */
export function findTimeConstraint(question: string, durationS?: number): { constraint: TimeConstraint; match: [number, number] } | null {
  const tokens = timeTokens(question);
  const found = parseTimeTokens(tokens, durationS);
  if (!found) return null;
  return { constraint: found.constraint, match: [tokens[found.from]!.from, tokens[found.to - 1]!.to] };
}
