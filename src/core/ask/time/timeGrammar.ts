/**
 * The grammar of time expressions over the tokens of timeTokens.ts, in three layers:
 *
 * - **durations**: quantities (a number and a unit, "half an hour", "an hour and a half",
 *   一个半小时, "hora y media", "1.5 hours") joined from the larger unit to the smaller ("1 hour 20
 *   minutes", "1h20", 1小时20分, "una hora y veinte");
 * - **points**: a clock ("1:15:00"), a duration ("the 45-minute mark"), "minute 20", 第20分钟;
 * - **constraints** composed of them: a range (from/between/desde/entre/从 A to/and/hasta/y/到 B,
 *   an end being a point, the start or the end of the item, or a bare number sharing the other
 *   end's unit), after/before a point or a span, a span (the first/last N, the nth N, halves and
 *   thirds of the item), ±30 s at a point.
 *
 * Every parse starting at the earliest token wins; from one token, the longest; at the same
 * length, the first production in {@link PRODUCTIONS}.
 */
import type { TimeConstraint } from '../query';
import { APPROXIMATE_AT } from './timeLexicon';
import type { TimeToken, TokenRole } from './timeTokens';

/** Seconds around a point said with "at" ("at 12:30" → 12:00–13:00). */
export const AT_MARGIN_S = 30;

interface Ctx {
  t: readonly TimeToken[];
  durationS: number | undefined;
  /** Parses already made from a token, by layer (the productions share them). */
  memo: Map<string, unknown[]>;
}

/** `make(x, i)`, once per token and layer. */
function memo<T>(name: string, make: (x: Ctx, i: number) => T): (x: Ctx, i: number) => T {
  return (x, i) => {
    let row = x.memo.get(name);
    if (!row) x.memo.set(name, (row = []));
    if (row[i] === undefined) row[i] = make(x, i);
    return row[i] as T;
  };
}

/** A duration: seconds, its first (largest) and last (smallest) unit, and whether a number was written. */
interface Dur {
  s: number;
  first: number;
  last: number;
  hasNum: boolean;
  end: number;
}

type PointKind = 'clock' | 'dur' | 'unitNum' | 'nth';
interface Point {
  s: number;
  kind: PointKind;
  first: number | null;
  last: number | null;
  end: number;
  /** A unit without a number ("the hour mark"). */
  implicit?: boolean;
}

/** One end of a range: a point, the start or end of the item, or a bare number (its unit from the other end). */
type RangeEnd = Point | { kind: 'start' | 'end'; end: number } | { kind: 'bare'; n: number; end: number };

/** A constraint parsed; `c` null when it needs the item's length and none was given. */
interface Parse {
  c: TimeConstraint | null;
  end: number;
}

const is = (x: Ctx, i: number, role: TokenRole): boolean => !!x.t[i]?.roles.has(role);

function num(x: Ctx, i: number, weakOk: boolean): number | undefined {
  const t = x.t[i];
  if (!t?.roles.has('num') || t.value === undefined || Number.isNaN(t.value)) return undefined;
  return t.weak && !weakOk ? undefined : t.value;
}

/** The unit at `i` in seconds; an abbreviation ("h", "m", "s") only after a number in digits, "m" and "s" against it ("20m", "1 h"). */
function unitAt(x: Ctx, i: number): number | undefined {
  const t = x.t[i];
  if (!t?.roles.has('unit') || t.unit === undefined) return undefined;
  if (t.unitAttached && !(x.t[i - 1]?.digits && (t.attached || t.unit === 3600))) return undefined;
  return t.unit;
}

/** "a"/"an"/"un"/"una" (weak one) at `i`: how many tokens to skip. */
const optOne = (x: Ctx, i: number): number => (x.t[i]?.weak && x.t[i]?.value === 1 ? 1 : 0);

/** One quantity from `i`: "20 minutes", "45-minute", "half an hour", "an hour and a half", 一个半小时, "hour" (one). */
function quantities(x: Ctx, i: number): Dur[] {
  const out: Dur[] = [];
  const q = (s: number, unit: number, hasNum: boolean, end: number): void => {
    out.push({ s, first: unit, last: unit, hasNum, end });
  };
  /** "… and a half" / "… y media" / 一小时半 after a quantity of `n` units. */
  const andHalf = (n: number, unit: number, k: number, hasNum: boolean): void => {
    if (is(x, k, 'and')) {
      const h = k + 1 + optOne(x, k + 1);
      if (is(x, h, 'half') && unitAt(x, h + 1) === undefined) q((n + 0.5) * unit, unit, hasNum, h + 1);
      // "hora y cuarto", "an hour and a quarter".
      if (is(x, h, 'quarter') && unit >= 3600 && unitAt(x, h + 1) === undefined && !['of', 'de'].includes(x.t[h + 1]?.text ?? '')) q((n + 0.25) * unit, unit, hasNum, h + 1);
    } else if (is(x, k, 'half') && x.t[k]!.cjk) q((n + 0.5) * unit, unit, hasNum, k + 1);
  };
  const n = num(x, i, true);
  if (n !== undefined) {
    for (const j of [i + 1, ...(is(x, i + 1, 'dash') && !x.t[i + 1]!.cjk ? [i + 2] : [])]) {
      const u = unitAt(x, j);
      if (u === undefined) continue;
      q(n * u, u, true, j + 1);
      andHalf(n, u, j + 1, true);
    }
    // 一个半小时, "two and a half hours", "uno y medio minutos".
    let h = i + 1;
    if (is(x, h, 'and')) h += 1 + optOne(x, h + 1);
    if (is(x, h, 'half')) {
      const u = unitAt(x, h + 1);
      if (u !== undefined) q((n + 0.5) * u, u, true, h + 2);
    }
  }
  // "half an hour", "a half-hour", "media hora", 半小时.
  const h0 = is(x, i, 'half') ? i : optOne(x, i) && is(x, i + 1, 'half') ? i + 1 : -1;
  if (h0 >= 0) {
    let j = h0 + 1;
    if (is(x, j, 'dash')) j++;
    j += optOne(x, j);
    const u = unitAt(x, j);
    if (u !== undefined) q(0.5 * u, u, true, j + 1);
  }
  // "a quarter of an hour", "quarter-hour", "un cuarto de hora".
  const q0 = is(x, i, 'quarter') ? i : optOne(x, i) && is(x, i + 1, 'quarter') ? i + 1 : -1;
  if (q0 >= 0) {
    let j = q0 + 1;
    if (is(x, j, 'dash') || ['of', 'de'].includes(x.t[j]?.text ?? '')) j++;
    j += optOne(x, j);
    const qu = unitAt(x, j);
    if (qu !== undefined && qu >= 3600) q(0.25 * qu, qu, true, j + 1);
  }
  // "hour" (one hour: "the first hour", "the hour mark"), "hora y media".
  const u = unitAt(x, i);
  if (u !== undefined && !x.t[i]!.plural && !x.t[i]!.unitAttached) {
    q(u, u, false, i + 1);
    andHalf(1, u, i + 1, true);
  }
  return out;
}

const lowerUnit = (u: number): number => (u >= 3600 ? 60 : 1);

/** Durations from `i`: quantities joined from the larger unit to the smaller, a bare number last ("1h20"). */
const durations = memo('durations', (x: Ctx, i: number): Dur[] => {
  const out: Dur[] = [];
  const grow = (d: Dur, depth: number): void => {
    out.push(d);
    if (depth > 3) return;
    let k = d.end;
    if (is(x, k, 'and') || x.t[k]?.text === ',') k++;
    for (const q of quantities(x, k)) if (q.hasNum && q.first < d.last) grow({ s: d.s + q.s, first: d.first, last: q.last, hasNum: true, end: q.end }, depth + 1);
    // A bare number after hours or minutes: "1h20", "una hora y veinte", 一小时二十 (not "minute 5").
    const n = num(x, k, false);
    if (n !== undefined && d.hasNum && d.last > 1 && unitAt(x, k + 1) === undefined && !is(x, k + 1, 'half') && Number.isInteger(n) && n < 60) {
      const u = lowerUnit(d.last);
      out.push({ s: d.s + n * u, first: d.first, last: u, hasNum: true, end: k + 1 });
    }
  };
  for (const q of quantities(x, i)) grow(q, 0);
  return out;
});

/** Skips "mark" after a point. */
const mark = (x: Ctx, end: number): number => (is(x, end, 'mark') ? end + 1 : end);

/** Points from `i`: a clock, a duration ("20 minutes", "the hour mark"), "minute 20", 第20分钟, "the 20th minute". */
const points = memo('points', (x: Ctx, i: number): Point[] => {
  const out: Point[] = [];
  const t = x.t[i];
  if (!t) return out;
  // "after around 20 minutes": the approximation is part of the point.
  if (APPROXIMATE_AT.has(t.text)) return points(x, i + 1);
  if (t.clock !== undefined) out.push({ s: t.clock, kind: 'clock', first: null, last: null, end: mark(x, i + 1) });
  for (const d of durations(x, i)) {
    if (d.hasNum || is(x, d.end, 'mark')) out.push({ s: d.s, kind: 'dur', first: d.first, last: d.last, end: mark(x, d.end), ...(d.hasNum ? {} : { implicit: true }) });
  }
  const u = unitAt(x, i);
  const n = num(x, i + 1, false);
  // "minute 20", "el minuto veinte" (not "second 10 minutes": the number has its own unit).
  if (u !== undefined && u >= 60 && n !== undefined && unitAt(x, i + 2) === undefined) out.push({ s: n * u, kind: 'unitNum', first: u, last: u, end: mark(x, i + 2) });
  const nth = is(x, i, 'nth') ? num(x, i + 1, false) : undefined;
  if (nth !== undefined) {
    const nu = unitAt(x, i + 2);
    if (nu !== undefined) out.push({ s: nth * nu, kind: 'nth', first: nu, last: nu, end: mark(x, i + 3) });
  }
  if (t.roles.has('ord') && t.ord !== undefined && /\d/.test(t.text)) {
    const ou = unitAt(x, i + 1);
    if (ou !== undefined) out.push({ s: t.ord * ou, kind: 'nth', first: ou, last: ou, end: mark(x, i + 2) });
  }
  return out;
});

const rangeEnds = memo('rangeEnds', (x: Ctx, i: number): RangeEnd[] => {
  // A unit without a number ("the hour mark") is no end of a range: "the 86-minute mark" is no range "86 to minute".
  const out: RangeEnd[] = points(x, i).filter((p) => !p.implicit);
  if (is(x, i, 'start')) out.push({ kind: 'start', end: i + 1 });
  if (is(x, i, 'end')) out.push({ kind: 'end', end: i + 1 });
  const at = is(x, i, 'nth') ? i + 1 : i;
  const n = num(x, at, false);
  if (n !== undefined) out.push({ kind: 'bare', n, end: at + 1 });
  return out;
});

const cjkUnitIn = (x: Ctx, from: number, to: number): boolean => x.t.slice(from, to).some((t) => t.cjk && t.roles.has('unit'));

/** Ranges: an opener (or none, for clocks and Chinese), an end, a connector, an end, 之间. */
function ranges(x: Ctx, i: number): Parse[] {
  const out: Parse[] = [];
  const opener = is(x, i, 'between') ? 'between' : is(x, i, 'from') ? 'from' : is(x, i, 'fromStrong') ? 'strong' : null;
  const tryFrom = (startAt: number, open: typeof opener): void => {
    for (const a of rangeEnds(x, startAt)) {
      if (a.kind === 'end') continue;
      if (open === 'strong' && a.kind !== 'clock' && a.kind !== 'unitNum' && a.kind !== 'nth') continue;
      const j = a.end;
      const conn = x.t[j];
      if (!conn) continue;
      const byAnd = conn.roles.has('and');
      if (!conn.roles.has('to') && !(byAnd && open === 'between')) continue;
      for (const b of rangeEnds(x, j + 1)) {
        if (b.kind === 'start') continue;
        let end = b.end;
        const between = is(x, end, 'betweenAfter');
        if (between || is(x, end, 'inside') || (is(x, end, 'beforeAfter') && x.t[end]!.cjk && !is(x, end, 'first'))) end++;
        // 在 … 之间: the Chinese "between" needs its closing word; "and" needs a "between".
        if (open === 'between' && x.t[i]!.cjk && !between) continue;
        if (byAnd && open !== 'between' && !between) continue;
        if (!open) {
          // Without an opener: clocks ("10:00–15:00"), "minute 10 to 15", Chinese (10到16分钟).
          const marked = a.kind === 'clock' || a.kind === 'unitNum' || a.kind === 'nth';
          if (!marked && !between && !(conn.cjk || (conn.roles.has('dash') && cjkUnitIn(x, startAt, end)))) continue;
        }
        const c = resolveRange(a, b);
        if (c) out.push({ c, end });
      }
    }
  };
  if (opener) tryFrom(i + 1, opener);
  tryFrom(i, null);
  return out;
}

const isPoint = (e: RangeEnd): e is Point => e.kind === 'clock' || e.kind === 'dur' || e.kind === 'unitNum' || e.kind === 'nth';

function resolveRange(a: RangeEnd, b: RangeEnd): TimeConstraint | null {
  let start: number;
  if (a.kind === 'start') start = 0;
  else if (a.kind === 'bare') {
    // "between 10 and 16 minutes": the unit of the other end.
    if (!isPoint(b) || b.first === null) return null;
    start = a.n * b.first;
  } else if (isPoint(a)) start = a.s;
  else return null;
  let end: number | null;
  if (b.kind === 'end') end = a.kind === 'start' ? Number.NaN : null;
  else if (b.kind === 'bare') {
    // "between minute 5 and 9".
    if (!isPoint(a) || a.last === null) return null;
    end = b.n * a.last;
  } else if (isPoint(b)) end = b.s;
  else return null;
  return end !== null && Number.isNaN(end) ? null : { startS: start, endS: end };
}

/** Spans: the first/last N, the nth N, halves and thirds of the item. */
const spans = memo('spans', (x: Ctx, i: number): Parse[] => {
  const out: Parse[] = [];
  const d = x.durationS;
  const inside = (end: number): number => (is(x, end, 'inside') ? end + 1 : end);
  const first = (s: number, end: number): void => void out.push({ c: { startS: 0, endS: s }, end: inside(end) });
  const last = (s: number, end: number): void => void out.push({ c: d ? { startS: Math.max(0, d - s), endS: d } : null, end: inside(end) });
  const nth = (n: number, s: number, end: number): void => {
    if (n >= 1 && Number.isInteger(n)) out.push({ c: { startS: (n - 1) * s, endS: n * s }, end: inside(end) });
  };
  const t = x.t[i];
  if (!t) return out;
  // "the first 10 minutes", 开场五分钟, "la primera hora y media"; "the last hour".
  if (t.roles.has('first')) for (const q of durations(x, i + 1)) first(q.s, q.end);
  if (t.roles.has('last')) for (const q of durations(x, i + 1)) last(q.s, q.end);
  // "the second hour", "la segunda media hora", "the 2nd hour", 第二个小时, 第一个十分钟.
  if (t.roles.has('ord') && t.ord !== undefined && t.ord > 1) for (const q of durations(x, i + 1)) nth(t.ord, q.s, q.end);
  if (t.roles.has('nth')) {
    const n = num(x, i + 1, false);
    if (n !== undefined) for (const q of durations(x, i + 2)) nth(n, q.s, q.end);
  }
  // "hour two", "la hora 2": the nth hour.
  const hn = unitAt(x, i) === 3600 ? num(x, i + 1, false) : undefined;
  if (hn !== undefined && unitAt(x, i + 2) === undefined) nth(hn, 3600, i + 2);
  // 开场后十分钟, 开始后的五分钟: the first span after the start.
  if (t.roles.has('start') && t.cjk && is(x, i + 1, 'afterAfter')) for (const q of durations(x, i + 2)) if (q.hasNum) first(q.s, q.end);
  // "los diez primeros minutos", "los 10 minutos iniciales".
  const n = num(x, i, false);
  const u = unitAt(x, i + 2);
  if (n !== undefined && u !== undefined) {
    if (is(x, i + 1, 'first')) first(n * u, i + 3);
    if (is(x, i + 1, 'last')) last(n * u, i + 3);
  }
  for (const q of durations(x, i)) {
    if (!q.hasNum) continue;
    if (is(x, q.end, 'firstAfter')) first(q.s, q.end + 1);
    if (is(x, q.end, 'lastAfter')) last(q.s, q.end + 1);
  }
  // Halves and thirds of the item: "the second half", "la primera mitad", 后半段, 上半场, "la parte final", 结尾部分.
  const share = (a: number, b: number, end: number): void => void out.push({ c: d ? { startS: Math.round(a * d), endS: Math.round(b * d) } : null, end: inside(end) });
  const part = (which: 'firstHalf' | 'secondHalf' | 'firstThird' | 'lastThird' | 'middleThird', end: number): void => {
    const [a, b] = { firstHalf: [0, 0.5], secondHalf: [0.5, 1], firstThird: [0, 1 / 3], lastThird: [2 / 3, 1], middleThird: [1 / 3, 2 / 3] }[which];
    share(a!, b!, end);
  };
  let j = i + 1;
  if (num(x, j, true) === 1 && t.cjk) j++;
  const ord = t.roles.has('ord') ? t.ord : undefined;
  const isFirst = t.roles.has('upper') || ord === 1 || (t.roles.has('first') && ord === undefined);
  const isSecond = t.roles.has('lower') || ord === 2 || t.roles.has('last');
  if (is(x, j, 'partHalf') && !unitAt(x, j + 1) && !is(x, j + 1, 'num')) {
    if (isFirst) part('firstHalf', j + 1);
    else if (isSecond) part('secondHalf', j + 1);
  }
  // "the first quarter (of the meeting)", "el último cuarto": a quarter of the item, not of an hour.
  if (is(x, j, 'quarter') && !quantities(x, j).length) {
    const n = t.roles.has('last') ? 4 : ord !== undefined && ord <= 4 ? ord : t.roles.has('first') ? 1 : undefined;
    if (n !== undefined) share((n - 1) / 4, n / 4, j + 1);
  }
  // "the last third", "el primer tercio"; 前三分之一, 最后四分之一.
  if (is(x, j, 'partThird') && unitAt(x, j + 1) === undefined) {
    const n = t.roles.has('last') ? 3 : ord !== undefined && ord <= 3 ? ord : t.roles.has('middle') ? 2 : t.roles.has('first') ? 1 : undefined;
    if (n !== undefined) share((n - 1) / 3, n / 3, j + 1);
  }
  const whole = num(x, i + 1, false);
  const piece = is(x, i + 2, 'fractionOf') ? num(x, i + 3, false) : undefined;
  if (whole && piece !== undefined && piece > 0 && piece < whole) {
    const end = is(x, i + 4, 'part') ? i + 5 : i + 4;
    if (t.roles.has('first')) share(0, piece / whole, end);
    else if (t.roles.has('last')) share(1 - piece / whole, 1, end);
  }
  if (is(x, j, 'part')) {
    if (ord === 1) part('firstHalf', j + 1);
    else if (ord === 2) part('secondHalf', j + 1);
    else if (t.roles.has('first')) part('firstThird', j + 1);
    else if (t.roles.has('last')) part('lastThird', j + 1);
    else if (t.roles.has('middle')) part('middleThird', j + 1);
  }
  if (t.roles.has('part')) {
    if (is(x, i + 1, 'lastAfter')) part('lastThird', i + 2);
    else if (is(x, i + 1, 'firstAfter')) part('firstThird', i + 2);
    else if (is(x, i + 1, 'middle')) part('middleThird', i + 2);
  }
  return out;
});

/** After: "after X", "X onwards", 第X分钟以后, "after the first 10 minutes"; before likewise. */
function afterBefore(x: Ctx, i: number): Parse[] {
  const out: Parse[] = [];
  const t = x.t[i];
  if (!t) return out;
  const opensAfter = t.roles.has('after') || t.roles.has('from');
  const opensBefore = t.roles.has('before');
  const afterWord = (end: number): number => (is(x, end, 'afterAfter') ? end + 1 : end);
  if (opensAfter || opensBefore) {
    for (const p of points(x, i + 1)) {
      if (opensAfter) out.push({ c: { startS: p.s, endS: null }, end: afterWord(p.end) });
      if (opensBefore) out.push({ c: { startS: 0, endS: p.s }, end: is(x, p.end, 'beforeAfter') && x.t[p.end]!.cjk ? p.end + 1 : p.end });
    }
    for (const s of spans(x, i + 1)) {
      if (opensAfter) out.push({ c: s.c && s.c.endS !== null ? { startS: s.c.endS, endS: null } : null, end: afterWord(s.end) });
      if (opensBefore) out.push({ c: s.c ? { startS: 0, endS: s.c.startS } : null, end: s.end });
    }
  }
  // "del minuto 20 en adelante".
  if (t.roles.has('fromStrong')) {
    for (const p of points(x, i + 1)) if (is(x, p.end, 'afterAfter')) out.push({ c: { startS: p.s, endS: null }, end: p.end + 1 });
  }
  for (const p of points(x, i)) {
    if (is(x, p.end, 'afterAfter')) out.push({ c: { startS: p.s, endS: null }, end: p.end + 1 });
    if (is(x, p.end, 'beforeAfter')) out.push({ c: { startS: 0, endS: p.s }, end: p.end + 1 });
  }
  for (const s of spans(x, i)) {
    if (is(x, s.end, 'afterAfter') && x.t[s.end]!.cjk) out.push({ c: s.c && s.c.endS !== null ? { startS: s.c.endS, endS: null } : null, end: s.end + 1 });
  }
  return out;
}

/** 左右, 的时候, "into"; "in" only ending the clause ("10 minutes in?", not "10 minutes in length"). */
function atAfter(x: Ctx, i: number): boolean {
  if (!is(x, i, 'atAfter')) return false;
  if (x.t[i]!.text !== 'in') return true;
  const next = x.t[i + 1];
  return !next || (next.roles.has('other') && !/\p{L}/u.test(next.text));
}

/** At a point: "at 12:30", "around minute 20", "en el minuto 20", 12:30左右, 在第20分钟的时候; a clock alone. */
function atPoint(x: Ctx, i: number): Parse[] {
  const out: Parse[] = [];
  const around = (s: number, end: number): void => void out.push({ c: { startS: Math.max(0, s - AT_MARGIN_S), endS: s + AT_MARGIN_S }, end });
  const t = x.t[i];
  if (!t) return out;
  if (t.roles.has('at') || t.roles.has('atWeak')) {
    for (const p of points(x, i + 1)) {
      if (atAfter(x, p.end)) around(p.s, p.end + 1);
      else if (t.roles.has('at') || p.kind === 'clock' || (p.kind === 'unitNum' && p.first === 60)) around(p.s, p.end);
    }
  }
  for (const p of points(x, i)) {
    if (atAfter(x, p.end)) around(p.s, p.end + 1);
    else if (p.kind === 'clock' && p.end === i + 1) around(p.s, p.end);
  }
  return out;
}

/** The productions in their order of preference at the same start and length. */
const PRODUCTIONS: ((x: Ctx, i: number) => Parse[])[] = [ranges, afterBefore, spans, atPoint];

/**
 * The first time constraint the tokens state: its constraint (start before end) and the tokens it spans.
 * Phrases that need the item's length ("the last 10 minutes", "the second half") give none without it.
 */
export function parseTimeTokens(tokens: readonly TimeToken[], durationS?: number): { constraint: TimeConstraint; from: number; to: number } | null {
  const x: Ctx = { t: tokens, durationS, memo: new Map() };
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.roles.size === 1 && tokens[i]!.roles.has('other')) continue;
    let best: Parse | null = null;
    for (const prod of PRODUCTIONS) {
      for (const p of prod(x, i)) {
        if (!p.c || Number.isNaN(p.c.startS) || (p.c.endS !== null && Number.isNaN(p.c.endS))) continue;
        if (!best || p.end > best.end) best = p;
      }
    }
    if (!best || !best.c) continue;
    let c = best.c;
    if (c.endS !== null && c.endS < c.startS) c = { startS: c.endS, endS: c.startS };
    return { constraint: c, from: i, to: best.end };
  }
  return null;
}
