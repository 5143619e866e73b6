/**
 * Time constraints in a question, in English, Chinese (simplified and
 * traditional) and Spanish: "first 5 minutes", "after the one-hour mark",
 * "between minute 10 and 16", "1:15:00 to 1:20:00", "前十分钟", "第40分钟以后",
 * "前二十分鐘", "第二个小时", "después del minuto 20", "la primera media hora",
 * "entre el minuto 10 y el 16", "últimos 10 minutos" (needs the duration).
 */
import type { TimeConstraint } from './query';
import { NUMBER_PATTERN, parseNumber } from './numbers';
import { parseClock } from '../text/clock';

const N = `(${NUMBER_PATTERN})`;
const MIN_EN = '(?:minutes?|mins?\\.?|m\\b)';
const HOUR_EN = '(?:hours?|hrs?\\.?|h\\b)';
const SEC_EN = '(?:seconds?|secs?\\.?|s\\b)';
const MIN_ES = '(?:minutos?|mins?\\.?)';
const HOUR_ES = '(?:horas?)';
const MIN_ZH = '(?:分钟|分鐘|分)';
const HOUR_ZH = '(?:个?小时|個?小時|个?钟头|個?鐘頭)';
const CLOCK = '(\\d{1,2}(?::\\d{2}){1,2})';
const ORD_EN: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, last: -1, final: -1 };
const ORD_ES: Record<string, number> = { primera: 1, primer: 1, segunda: 2, tercera: 3, cuarta: 4, quinta: 5, última: -1, ultima: -1 };

export { parseClock };

interface Rule {
  re: RegExp;
  /** Seconds from the match, or null when the match does not make sense (e.g. "last" without a duration). */
  make(m: RegExpMatchArray, durationS: number | undefined): TimeConstraint | null;
}

const num = (s: string | undefined): number => (s === undefined ? Number.NaN : parseNumber(s));
const unit = (u: string | undefined): number => (u && /^(h|hour|hr|hora|小时|個?小時|个?小时|钟头|鐘頭|个|個)/iu.test(u.replace(/^[个個]/u, '')) ? 3600 : u && /^(s|sec)/i.test(u) ? 1 : 60);

const RULES: Rule[] = [
  // Clock ranges in any language: "1:15:00 to 1:20:00", "de 10:00 a 15:00", "从10:00到15:00", "10:00–15:00".
  {
    re: new RegExp(`${CLOCK}\\s*(?:-|–|—|~|to|until|till|through|a|al|hasta|y|到|至|~|－)\\s*${CLOCK}`, 'iu'),
    make: (m) => ({ startS: parseClock(m[1]!), endS: parseClock(m[2]!) }),
  },
  // "between minute 10 and 16", "between 10 and 16 minutes", "entre el minuto 10 y el 16", "del minuto 10 al 16", "from minute 10 to 16".
  {
    re: new RegExp(`(?:between|from|entre|del|desde(?: el)?)\\s+(?:the\\s+|el\\s+)?(?:${MIN_EN}|${MIN_ES}|${HOUR_EN}|${HOUR_ES})?\\s*(?:mark\\s+)?${N}\\s*(${MIN_EN}|${MIN_ES}|${HOUR_EN}|${HOUR_ES})?(?:\\s*mark)?\\s*(?:and|to|until|-|–|y|al|a|hasta)\\s+(?:the\\s+|el\\s+)?(?:${MIN_EN}|${MIN_ES})?\\s*${N}\\s*(${MIN_EN}|${MIN_ES}|${HOUR_EN}|${HOUR_ES})?`, 'iu'),
    make: (m) => {
      const u = m[2] ?? m[4] ?? (/hora|hour|hr/i.test(m[0]) ? 'hour' : 'min');
      const k = unit(u);
      const a = num(m[1]) * k;
      const b = num(m[3]) * k;
      return Number.isNaN(a) || Number.isNaN(b) ? null : { startS: a, endS: b };
    },
  },
  // "第10到16分钟", "10到16分钟", "从第10分钟到第16分钟".
  {
    re: new RegExp(`(?:从|從)?\\s*第?\\s*${N}\\s*(${MIN_ZH}|${HOUR_ZH})?\\s*(?:到|至|-|–|~)\\s*第?\\s*${N}\\s*(${MIN_ZH}|${HOUR_ZH})`, 'u'),
    make: (m) => {
      const k = unit(m[2] ?? m[4]);
      const a = num(m[1]) * k;
      const b = num(m[3]) * k;
      return Number.isNaN(a) || Number.isNaN(b) ? null : { startS: a, endS: b };
    },
  },
  // "first half hour", "the first half-hour", "la primera media hora", "前半小时", "前半個小時".
  { re: /\b(?:first|opening)\s+half[\s-]+(?:an\s+)?hour\b|primera\s+media\s+hora|前半(?:个|個)?(?:小时|小時|钟头|鐘頭)/iu, make: () => ({ startS: 0, endS: 1800 }) },
  { re: /\b(?:last|final)\s+half[\s-]+(?:an\s+)?hour\b|última\s+media\s+hora|最后半(?:个|個)?(?:小时|小時)|最後半(?:个|個)?(?:小时|小時)/iu, make: (_m, d) => (d ? { startS: Math.max(0, d - 1800), endS: d } : null) },
  // "the first 5 minutes", "first hour", "the second hour", "los primeros 10 minutos", "la segunda hora", "the last 10 minutes".
  {
    re: new RegExp(`\\b(first|second|third|fourth|fifth|last|final)\\s+(?:${N}\\s*)?(${MIN_EN}|${HOUR_EN}|${SEC_EN})`, 'iu'),
    make: (m, d) => ordinalRange(ORD_EN[m[1]!.toLowerCase()]!, m[2], m[3], d),
  },
  {
    re: new RegExp(`\\b(?:(?:los|las)\\s+)?(primeros|primeras|últimos|ultimos|últimas)\\s+${N}\\s*(${MIN_ES}|${HOUR_ES}|segundos)`, 'iu'),
    make: (m, d) => ordinalRange(/^pri/i.test(m[1]!) ? 1 : -1, m[2], m[3], d),
  },
  {
    re: new RegExp(`\\b(primera|primer|segunda|tercera|cuarta|quinta|última|ultima)\\s+(${HOUR_ES}|${MIN_ES})`, 'iu'),
    make: (m, d) => ordinalRange(ORD_ES[m[1]!.toLowerCase()]!, undefined, m[2], d),
  },
  // "前十分钟", "前二十分鐘", "前1小时", "最后10分钟", "最後十分鐘".
  { re: new RegExp(`前\\s*${N}\\s*(${MIN_ZH}|${HOUR_ZH})`, 'u'), make: (m, d) => ordinalRange(1, m[1], m[2], d) },
  { re: new RegExp(`(?:最后|最後|末尾|结尾|結尾)\\s*${N}\\s*(${MIN_ZH}|${HOUR_ZH})`, 'u'), make: (m, d) => ordinalRange(-1, m[1], m[2], d) },
  // "第二个小时", "第一小時".
  { re: new RegExp(`第\\s*${N}\\s*(${HOUR_ZH})`, 'u'), make: (m) => nth(num(m[1]), 3600) },
  // After: "after the one-hour mark", "after 20 minutes", "after minute 20", "past the 30-minute mark", "from minute 40 on", "después del minuto 20", "a partir del minuto 20", "第40分钟以后", "40分钟之后", "一小时以后".
  {
    re: new RegExp(`\\b(?:after|past|beyond|from|since|starting(?:\\s+at)?|later\\s+than)\\s+(?:the\\s+)?(?:(?:${MIN_EN}|${HOUR_EN})\\s+)?${N}[\\s-]*(${MIN_EN}|${HOUR_EN})?(?:[\\s-]*mark)?(?:\\s+on(?:wards?)?)?`, 'iu'),
    make: (m) => after(m[1], m[2], m[0]),
  },
  {
    re: new RegExp(`(?:después|despues|a\\s+partir|más\\s+allá|mas\\s+alla|luego)\\s+(?:de(?:l)?\\s+)?(?:la\\s+|el\\s+)?(?:(${MIN_ES}|${HOUR_ES})\\s+)?${N}\\s*(${MIN_ES}|${HOUR_ES})?`, 'iu'),
    make: (m) => after(m[2], m[1] ?? m[3], m[0]),
  },
  { re: new RegExp(`(?:从|從)?\\s*第?\\s*${N}\\s*(${MIN_ZH}|${HOUR_ZH})\\s*(?:以后|以後|之后|之後|后|後|开始|開始|起)`, 'u'), make: (m) => after(m[1], m[2], m[0]) },
  // Before: "before minute 10", "in the first ... " handled above; "before the 10-minute mark", "antes del minuto 10", "10分钟以前/之前".
  {
    re: new RegExp(`\\b(?:before|until|up\\s+to)\\s+(?:the\\s+)?(?:(?:${MIN_EN}|${HOUR_EN})\\s+)?${N}[\\s-]*(${MIN_EN}|${HOUR_EN})?(?:[\\s-]*mark)?`, 'iu'),
    make: (m) => before(m[1], m[2], m[0]),
  },
  { re: new RegExp(`(?:antes|hasta)\\s+(?:de(?:l)?\\s+)?(?:la\\s+|el\\s+)?(?:(${MIN_ES}|${HOUR_ES})\\s+)?${N}\\s*(${MIN_ES}|${HOUR_ES})?`, 'iu'), make: (m) => before(m[2], m[1] ?? m[3], m[0]) },
  { re: new RegExp(`第?\\s*${N}\\s*(${MIN_ZH}|${HOUR_ZH})\\s*(?:以前|之前|前)`, 'u'), make: (m) => before(m[1], m[2], m[0]) },
  // A single clock: "at 12:30", "en el 12:30", "在12:30" → one minute around it.
  { re: new RegExp(`(?:\\bat|\\baround|\\ben\\s+el|\\bsobre\\s+el|在)\\s*${CLOCK}`, 'iu'), make: (m) => ({ startS: Math.max(0, parseClock(m[1]!) - 30), endS: parseClock(m[1]!) + 30 }) },
];

function ordinalRange(which: number, count: string | undefined, u: string | undefined, durationS: number | undefined): TimeConstraint | null {
  const k = unit(u);
  const n = count === undefined ? 1 : num(count);
  if (Number.isNaN(n) || n <= 0) return null;
  if (which === -1) return durationS ? { startS: Math.max(0, durationS - n * k), endS: durationS } : null;
  // "the second hour" (no count): the nth unit; "the first 5 minutes": from 0.
  if (count === undefined) return nth(which, k);
  return which === 1 ? { startS: 0, endS: n * k } : null;
}

function nth(n: number, k: number): TimeConstraint | null {
  return Number.isNaN(n) || n < 1 ? null : { startS: (n - 1) * k, endS: n * k };
}

/** Time-like: a number with a unit, or "minute N", or "N mark" — not a bare number ("after 2 goals"). */
function timeLike(text: string, u: string | undefined): boolean {
  return u !== undefined || /mark|minut|hora|hour|分|小时|小時/iu.test(text);
}

/** The unit stated, else hours when the phrase speaks of hours, else minutes. */
function unitOf(u: string | undefined, text: string): number {
  return u !== undefined ? unit(u) : /hour|hora|小时|小時|钟头|鐘頭/iu.test(text) ? 3600 : 60;
}

function after(n: string | undefined, u: string | undefined, text: string): TimeConstraint | null {
  const v = num(n);
  if (Number.isNaN(v) || !timeLike(text, u)) return null;
  return { startS: v * unitOf(u, text), endS: null };
}

function before(n: string | undefined, u: string | undefined, text: string): TimeConstraint | null {
  const v = num(n);
  if (Number.isNaN(v) || !timeLike(text, u)) return null;
  return { startS: 0, endS: v * unitOf(u, text) };
}

/**
 * The first time constraint `question` states, with the matched text (to keep it out of keywords).
 *
 * @param durationS the item's length, for "the last N minutes"; without it such phrases give no constraint.
 * @example findTimeConstraint('Which topics come up in the first 15 minutes?') → { startS: 0, endS: 900 }
 * @example findTimeConstraint('第40分钟以后讲了什么') → { startS: 2400, endS: null }
 */
export function findTimeConstraint(question: string, durationS?: number): { constraint: TimeConstraint; match: [number, number] } | null {
  let best: { constraint: TimeConstraint; match: [number, number] } | null = null;
  for (const rule of RULES) {
    const m = question.match(rule.re);
    if (!m || m.index === undefined) continue;
    const c = rule.make(m, durationS);
    if (!c) continue;
    // The earliest match wins; at the same place, the earlier (more specific) rule.
    if (!best || m.index < best.match[0]) best = { constraint: c, match: [m.index, m.index + m[0].length] };
  }
  if (best && best.constraint.endS !== null && best.constraint.endS < best.constraint.startS) {
    best.constraint = { startS: best.constraint.endS, endS: best.constraint.startS };
  }
  return best;
}
