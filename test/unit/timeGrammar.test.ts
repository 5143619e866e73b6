/**
 * Time expressions as a grammar (issue 23): a seeded sample of generated phrases
 * (test/support/timePhraseGenerator.ts — language × form × numbers × durations × question around
 * them, expected seconds computed by the generator) must be read exactly (both ends within 5 s) at
 * ≥ 0.98 per language, standalone and in questions; then one test per class of phrase, each
 * composing its inputs from small lists written here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseNumber } from '../../src/core/ask/numbers';
import { findTimeConstraint } from '../../src/core/ask/timePhrases';
import { rng } from '../support/testing';
import { generateTimeCases, inQuestion, sameTime, TIME_LANGS, type TimeCase, type TimeLang, writtenClock, writtenNumber } from '../support/timePhraseGenerator';

type Want = { startS: number; endS: number | null } | null;
/** A text, what it means, and the item's length given with it. */
type Case = [string, Want, number?];

/** Reads every [text, want, duration?] and fails with the misses listed. */
function expectAll(cases: readonly Case[]): void {
  const misses = cases
    .map(([text, want, d]) => ({ text, want, got: findTimeConstraint(text, d)?.constraint ?? null, d }))
    .filter((c) => !sameTime(c.got, c.want));
  assert.equal(misses.length, 0, `${misses.length}/${cases.length} missed:\n${misses.slice(0, 12).map((m) => `  ${m.text}${m.d ? ` (d=${m.d})` : ''} → ${JSON.stringify(m.got)}, want ${JSON.stringify(m.want)}`).join('\n')}`);
}

/** Every phrase alone and in a few questions of its language. */
function withQuestions(lang: TimeLang, phrase: string, want: Want, d?: number): Case[] {
  return [phrase, inQuestion(lang, phrase, phrase.length), inQuestion(lang, phrase, phrase.length + 7)].map((t) => [t, want, d]);
}

describe('generated time phrases', () => {
  const cases = generateTimeCases({ seed: 23, perLanguage: 1200 });
  for (const lang of TIME_LANGS) {
    for (const embedded of [false, true]) {
      test(`${lang}, ${embedded ? 'in questions' : 'alone'}: ≥ 0.98 exact`, () => {
        const mine = cases.filter((c) => c.lang === lang && c.embedded === embedded);
        const misses: TimeCase[] = mine.filter((c) => !sameTime(findTimeConstraint(c.text, c.durationS)?.constraint ?? null, c.expected));
        const rate = 1 - misses.length / mine.length;
        assert.ok(mine.length >= 500, 'a sample of hundreds');
        assert.ok(rate >= 0.98, `${lang}: ${rate.toFixed(3)} exact; misses:\n${misses.slice(0, 10).map((m) => `  ${m.text} → ${JSON.stringify(findTimeConstraint(m.text, m.durationS)?.constraint ?? null)}, want ${JSON.stringify(m.expected)}`).join('\n')}`);
      });
    }
  }
  test('the phrase found lies inside the phrase the generator put in the question', () => {
    const bad: string[] = [];
    for (const c of cases.filter((k) => k.embedded && k.expected)) {
      const found = findTimeConstraint(c.text, c.durationS);
      const at = c.text.toLowerCase().indexOf(c.phrase.toLowerCase());
      if (!found || at < 0) continue;
      // One word before the phrase may join it: "come up until minute 44" reads "up until minute 44".
      const slack = /(\S+\s)$/u.exec(c.text.slice(0, at))?.[1]?.length ?? 0;
      if (found.match[0] < at - slack || found.match[1] > at + c.phrase.length || found.match[1] <= found.match[0]) bad.push(`${c.text} → ${JSON.stringify(c.text.slice(...found.match))}`);
    }
    assert.deepEqual(bad.slice(0, 5), []);
  });
});

describe('classes of time phrases', () => {
  const r = rng(7);
  const int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  const clocks = (n: number): [number, number][] => Array.from({ length: n }, () => {
    const a = int(0, 7000);
    return [a, a + int(20, 1500)];
  });

  test('clock ranges: between H:MM:SS and H:MM:SS, from/to, dashes, in each language (either order)', () => {
    const forms: Record<TimeLang, ((a: string, b: string) => string)[]> = {
      en: [(a, b) => `between ${a} and ${b}`, (a, b) => `from ${a} to ${b}`, (a, b) => `${a}–${b}`, (a, b) => `${a} ~ ${b}`],
      es: [(a, b) => `entre ${a} y ${b}`, (a, b) => `de ${a} a ${b}`, (a, b) => `desde ${a} hasta ${b}`],
      'zh-Hans': [(a, b) => `在${a}和${b}之间`, (a, b) => `从${a}到${b}`, (a, b) => `${a}至${b}`],
      'zh-Hant': [(a, b) => `在${a}與${b}之間`, (a, b) => `從${a}到${b}`, (a, b) => `${a}到${b}之間`],
    };
    const cases: Case[] = [];
    for (const [a, b] of clocks(12)) {
      for (const lang of TIME_LANGS) {
        for (const f of forms[lang]) {
          cases.push(...withQuestions(lang, f(writtenClock(a, a), writtenClock(b, b)), { startS: a, endS: b }));
          cases.push([f(writtenClock(b, a), writtenClock(a, b)), { startS: a, endS: b }]);
        }
      }
    }
    expectAll(cases);
  });

  test('Spanish fractional hours and quarters, with after/before/open end', () => {
    const durations: [string, number][] = [['una hora y media', 5400], ['hora y media', 5400], ['dos horas y media', 9000], ['media hora', 1800], ['1,5 horas', 5400], ['2,5 horas', 9000], ['un cuarto de hora', 900], ['una hora y cuarto', 4500], ['tres horas y media', 12600]];
    const frames: [(d: string) => string, (s: number) => Want][] = [
      [(d) => `después de ${d}`, (s) => ({ startS: s, endS: null })],
      [(d) => `a partir de ${d}`, (s) => ({ startS: s, endS: null })],
      [(d) => `antes de ${d}`, (s) => ({ startS: 0, endS: s })],
      [(d) => `desde ${d} hasta el final`, (s) => ({ startS: s, endS: null })],
      [(d) => `pasada ${d}`, (s) => ({ startS: s, endS: null })],
    ];
    expectAll(durations.flatMap(([d, s]) => frames.flatMap(([f, w]) => withQuestions('es', f(d), w(s)))));
  });

  test('Spanish open ends: hasta el final, al final', () => {
    const cases: Case[] = [];
    for (const m of [3, 15, 20, 21, 35, 48, 59, 90]) {
      for (const n of [String(m), writtenNumber('es', m)]) {
        for (const f of [`desde el minuto ${n} hasta el final`, `del minuto ${n} al final`, `a partir del minuto ${n} hasta el final`, `desde el minuto ${n} hasta el fin`]) cases.push(...withQuestions('es', f, { startS: m * 60, endS: null }));
      }
    }
    for (const [a] of clocks(6)) cases.push([`desde ${writtenClock(a)} hasta el final`, { startS: a, endS: null }]);
    expectAll(cases);
  });

  test('Chinese opening segments: 开场/開場/开头/開頭 + a duration, both scripts', () => {
    const cases: Case[] = [];
    const leads: Record<'zh-Hans' | 'zh-Hant', string[]> = { 'zh-Hans': ['开场', '开场的', '开头', '开头的', '开场后', '最开始的'], 'zh-Hant': ['開場', '開場的', '開頭', '開頭的', '開場後', '最開始的'] };
    for (const lang of ['zh-Hans', 'zh-Hant'] as const) {
      const min = lang === 'zh-Hans' ? '分钟' : '分鐘';
      const hour = lang === 'zh-Hans' ? '小时' : '小時';
      const ge = lang === 'zh-Hans' ? '个' : '個';
      const durations: [string, number][] = [
        ...[2, 5, 10, 15, 25, 40].map((n): [string, number] => [`${writtenNumber(lang, n, { counted: true })}${min}`, n * 60]),
        [`8${min}`, 480], [`半${hour}`, 1800], [`半${ge}${hour}`, 1800], [`一${ge}半${hour}`, 5400], [`一${hour}`, 3600],
      ];
      for (const lead of leads[lang]) for (const [d, s] of durations) for (const tail of ['', lang === 'zh-Hans' ? '里' : '裡', '内']) cases.push(...withQuestions(lang, `${lead}${d}${tail}`, { startS: 0, endS: s }));
    }
    expectAll(cases);
  });

  test('fractions and compound durations in English and Chinese', () => {
    const en: [string, number][] = [['an hour and a half', 5400], ['half an hour', 1800], ['one and a half hours', 5400], ['1.5 hours', 5400], ['two and a half hours', 9000], ['a quarter of an hour', 900], ['a minute and a half', 90], ['1h20', 4800], ['1h 20m', 4800], ['1 hour 20 minutes', 4800], ['an hour and twenty minutes', 4800], ['2 hours and 5 minutes', 7500]];
    const zh: [string, number][] = [['一个半小时', 5400], ['一個半小時', 5400], ['半小时', 1800], ['半個小時', 1800], ['两个半小时', 9000], ['兩個半小時', 9000], ['1.5小时', 5400], ['1小时20分', 4800], ['1小時20分鐘', 4800], ['一小时二十分钟', 4800], ['一刻钟', 900], ['1分30秒', 90]];
    const es: [string, number][] = [['1 hora 20 minutos', 4800], ['una hora y veinte minutos', 4800], ['una hora y veinte', 4800], ['1h20', 4800], ['noventa segundos', 90]];
    const cases: Case[] = [
      ...en.flatMap(([d, s]) => [...withQuestions('en', `after ${d}`, { startS: s, endS: null }), ...withQuestions('en', `before ${d}`, { startS: 0, endS: s }), [`in the first ${d.replace(/^(an|a) /, '')}`, { startS: 0, endS: s }] as Case]),
      ...zh.flatMap(([d, s]) => [...withQuestions('zh-Hans', `${d}以后`, { startS: s, endS: null }), [`${d}之前`, { startS: 0, endS: s }], [`前${d}`, { startS: 0, endS: s }]] as Case[]),
      ...es.flatMap(([d, s]) => withQuestions('es', `después de ${d}`, { startS: s, endS: null })),
    ];
    expectAll(cases);
  });

  test('numbers as words and Chinese numerals, with every unit', () => {
    const cases: Case[] = [];
    for (let k = 0; k < 40; k++) {
      const n = int(1, 99);
      const en = writtenNumber('en', n, { seed: k });
      const es = writtenNumber('es', n, { gender: 'm' });
      cases.push([`after ${en} ${n === 1 ? 'minute' : 'minutes'}`, { startS: n * 60, endS: null }]);
      cases.push([`after ${en} ${n === 1 ? 'second' : 'seconds'}`, { startS: n, endS: null }]);
      cases.push([`después de ${es} ${n === 1 ? 'minuto' : 'minutos'}`, { startS: n * 60, endS: null }]);
      cases.push([`después de ${es} segundos`.replace(/^después de (un|uno) segundos$/, 'después de un segundo'), { startS: n, endS: null }]);
      cases.push([`${writtenNumber('zh-Hans', n, { counted: true })}分钟以后`, { startS: n * 60, endS: null }]);
      cases.push([`${writtenNumber('zh-Hant', n, { counted: true })}秒以後`, { startS: n, endS: null }]);
      cases.push([`前${writtenNumber('zh-Hant', n)}分鐘`, { startS: 0, endS: n * 60 }]);
    }
    for (const [zh, v] of [['一百二十', 120], ['两', 2], ['兩', 2], ['十', 10], ['二十五', 25]] as const) cases.push([`${zh}分钟之后`, { startS: v * 60, endS: null }]);
    expectAll(cases);
    for (const [s, v] of [['twenty-five', 25], ['twenty five', 25], ['treinta y cinco', 35], ['ciento veinte', 120], ['veintidós', 22], ['一百二十', 120], ['1,5', 1.5], ['cuarenta', 40]] as const) assert.equal(parseNumber(s), v, s);
  });

  test('unit words and abbreviations in the three languages', () => {
    const units: [string, number][] = [['min', 60], ['mins', 60], ['minutes', 60], ['hrs', 3600], ['hours', 3600], ['secs', 1], ['seconds', 1], ['minutos', 60], ['horas', 3600], ['segundos', 1], ['分钟', 60], ['分鐘', 60], ['分', 60], ['小时', 3600], ['小時', 3600], ['钟头', 3600], ['鐘頭', 3600], ['秒', 1]];
    const cases: Case[] = [];
    for (const [u, k] of units) {
      const n = int(2, 9);
      const cjk = /[\u4e00-\u9fff]/u.test(u);
      cases.push([cjk ? `${n}${u}以后` : u.endsWith('s') && /os$/.test(u) ? `después de ${n} ${u}` : `after ${n} ${u}`, { startS: n * k, endS: null }]);
    }
    for (const [t, s] of [['after 20m', 1200], ['after 1h', 3600], ['after 90s', 90], ['after 1h20m', 4800]] as const) cases.push([t, { startS: s, endS: null }]);
    expectAll(cases);
  });

  test('open ends and the start in each language', () => {
    const cases: Case[] = [];
    for (const m of [5, 20, 42]) {
      const s = m * 60;
      cases.push(...withQuestions('en', `from minute ${m} until the end`, { startS: s, endS: null }), [`from the ${m}-minute mark to the end`, { startS: s, endS: null }]);
      cases.push(...withQuestions('zh-Hans', `从第${writtenNumber('zh-Hans', m)}分钟到结束`, { startS: s, endS: null }), [`第${m}分钟到最后`, { startS: s, endS: null }], [`從第${m}分鐘一直到最後`, { startS: s, endS: null }]);
      cases.push([`from the beginning to minute ${m}`, { startS: 0, endS: s }], [`desde el principio hasta el minuto ${m}`, { startS: 0, endS: s }], [`从开头到第${m}分钟`, { startS: 0, endS: s }], [`從開頭到第${m}分鐘`, { startS: 0, endS: s }]);
    }
    expectAll(cases);
    // An open end alone limits nothing.
    for (const q of ['until the end', 'hasta el final', '到最后', 'from the start to the end']) assert.equal(findTimeConstraint(q), null, q);
  });

  test('relative parts need the duration: halves, thirds, quarters, the last N', () => {
    const cases: Case[] = [];
    for (const d of [1200, 3000, 5400]) {
      for (const [p, a, b] of [['the first half', 0, 0.5], ['the second half', 0.5, 1], ['la primera mitad', 0, 0.5], ['la segunda mitad', 0.5, 1], ['前半段', 0, 0.5], ['后半段', 0.5, 1], ['後半段', 0.5, 1], ['下半場', 0.5, 1], ['la parte final', 2 / 3, 1], ['the final part', 2 / 3, 1], ['结尾部分', 2 / 3, 1], ['the last third', 2 / 3, 1], ['el primer tercio', 0, 1 / 3], ['最後三分之一', 2 / 3, 1], ['the first quarter', 0, 0.25], ['el último cuarto', 0.75, 1], ['前四分之一', 0, 0.25]] as const) {
        cases.push([p, { startS: a * d, endS: b * d }, d], [p, null]);
      }
      for (const m of [1, 5, 10]) {
        const want = { startS: d - m * 60, endS: d };
        cases.push([`the last ${m === 1 ? 'minute' : `${m} minutes`}`, want, d], [`los últimos ${m} minutos`.replace('los últimos 1 minutos', 'el último minuto'), want, d], [`最后${writtenNumber('zh-Hans', m)}分钟`, want, d], [`最後${m}分鐘`, want, d], [`最后${m}分钟`, null]);
      }
    }
    expectAll(cases);
  });

  test('the nth unit: the second hour, la segunda hora, 第二个小时', () => {
    const cases: Case[] = [];
    for (const [n, en, es] of [[2, 'second', 'segunda'], [3, 'third', 'tercera'], [4, 'fourth', 'cuarta']] as const) {
      const want = { startS: (n - 1) * 3600, endS: n * 3600 };
      cases.push(...withQuestions('en', `in the ${en} hour`, want), ...withQuestions('es', `en la ${es} hora`, want));
      cases.push(...withQuestions('zh-Hans', `第${writtenNumber('zh-Hans', n)}个小时`, want), ...withQuestions('zh-Hant', `第${writtenNumber('zh-Hant', n)}個小時`, want));
      cases.push([`the ${en} half hour`, { startS: (n - 1) * 1800, endS: n * 1800 }], [`la ${es} media hora`, { startS: (n - 1) * 1800, endS: n * 1800 }]);
    }
    expectAll(cases);
  });

  test('after, before, at (±30 s, never below 0)', () => {
    const cases: Case[] = [];
    for (const s of [10, 95, 754, 3725]) {
      const c = writtenClock(s);
      const at = { startS: Math.max(0, s - 30), endS: s + 30 };
      cases.push(...withQuestions('en', `at ${c}`, at), [`around ${c}`, at], [`en ${c}`, at], [`在${c}`, at], [`${c}左右`, at]);
      cases.push([`after ${c}`, { startS: s, endS: null }], [`después de ${c}`, { startS: s, endS: null }], [`${c}以后`, { startS: s, endS: null }]);
      cases.push([`before ${c}`, { startS: 0, endS: s }], [`antes de ${c}`, { startS: 0, endS: s }], [`${c}之前`, { startS: 0, endS: s }]);
    }
    expectAll(cases);
  });

  test('a range given end first is swapped', () => {
    const cases: Case[] = [];
    for (const [a, b] of clocks(8)) {
      const want = { startS: a, endS: b };
      cases.push([`between ${writtenClock(b)} and ${writtenClock(a)}`, want], [`entre ${writtenClock(b)} y ${writtenClock(a)}`, want], [`从${writtenClock(b)}到${writtenClock(a)}`, want]);
    }
    cases.push(['between minute 30 and 10', { startS: 600, endS: 1800 }]);
    expectAll(cases);
  });

  test('numbers that are not times give no constraint', () => {
    const cases: Case[] = [];
    const nouns: Record<TimeLang, string[]> = { en: ['goals', 'speakers', 'people', 'comments', 'votes'], es: ['goles', 'oradores', 'personas', 'comentarios', 'votos'], 'zh-Hans': ['个人', '条评论', '个问题', '位嘉宾'], 'zh-Hant': ['個人', '條評論', '個問題', '位嘉賓'] };
    const frames: Record<TimeLang, ((n: string, w: string) => string)[]> = {
      en: [(n, w) => `after ${n} ${w}`, (n, w) => `the first ${n} ${w}`, (n, w) => `between ${n} and 12 ${w}`, (n, w) => `the last ${n} ${w}`, (n, w) => `more than ${n} ${w}`, (n, w) => `from ${n} to 12 ${w}`],
      es: [(n, w) => `después de ${n} ${w}`, (n, w) => `los primeros ${n} ${w}`, (n, w) => `entre ${n} y 12 ${w}`, (n, w) => `más de ${n} ${w}`, (n, w) => `de ${n} a 12 ${w}`],
      'zh-Hans': [(n, w) => `前${n}${w}`, (n, w) => `最后${n}${w}`, (n, w) => `${n}${w}之后`, (n, w) => `第${n}${w}`],
      'zh-Hant': [(n, w) => `前${n}${w}`, (n, w) => `最後${n}${w}`, (n, w) => `${n}${w}之後`, (n, w) => `第${n}${w}`],
    };
    for (const lang of TIME_LANGS) {
      for (const w of nouns[lang]) for (const f of frames[lang]) for (const n of [3, 7]) cases.push(...withQuestions(lang, f(r() < 0.5 ? String(n) : writtenNumber(lang, n, { gender: 'm', counted: true }), w), null));
    }
    cases.push(['Recommend 30-second clips', null], ['un clip de 30 segundos', null], ['the first few minutes', null], ['in 2021', null], ['30 minutes in length', null]);
    expectAll(cases);
  });
});
