/**
 * Time phrases (issue 23): `node --import tsx bench/timePhrases.ts [--quick] [--report-only]`.
 * Offline, no corpus. Phrases come from test/support/timePhraseGenerator.ts — language × form
 * (first/last N, the nth unit, after/before, ranges, open ends, from the start, halves and parts,
 * "at", negatives) × numbers (digits, words, Chinese numerals) × durations × a question around
 * them — with the expected seconds the generator computed from the parts it composed. Each is
 * read by `findTimeConstraint` (with the item's length when the phrase needs it) and graded by
 * the ASK.md convention: both ends within 5 s, open ends both null, null for null.
 *
 * Target: exact ≥ 0.98 per language (en, es, zh-Hans, zh-Hant), standalone and in questions.
 * Seed 2024 (the unit tests use another), 5,000 phrases per language (500 with --quick).
 * Writes bench/results/timePhrases.md.
 */
import { performance } from 'node:perf_hooks';
import { findTimeConstraint } from '../src/core/ask/timePhrases';
import { generateTimeCases, sameTime, TIME_LANGS, type TimeCase } from '../test/support/timePhraseGenerator';
import { type BenchReport, runBench, writeBenchResult } from './benchSupport';

const TARGET = 0.98;
const SEED = 2024;

interface Tally {
  n: number;
  ok: number;
}

const rate = (t: Tally): number => (t.n ? t.ok / t.n : 0);

async function body(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const perLanguage = quick ? 500 : 5000;
  const cases = generateTimeCases({ seed: SEED, perLanguage });
  const byLang = new Map<string, { alone: Tally; embedded: Tally }>();
  const byForm = new Map<string, Tally>();
  const misses: { c: TimeCase; got: unknown }[] = [];
  const started = performance.now();
  for (const c of cases) {
    const got = findTimeConstraint(c.text, c.durationS)?.constraint ?? null;
    const ok = sameTime(got, c.expected);
    const l = byLang.get(c.lang) ?? { alone: { n: 0, ok: 0 }, embedded: { n: 0, ok: 0 } };
    byLang.set(c.lang, l);
    const t = c.embedded ? l.embedded : l.alone;
    t.n++;
    const f = byForm.get(`${c.lang} ${c.form}`) ?? { n: 0, ok: 0 };
    byForm.set(`${c.lang} ${c.form}`, f);
    f.n++;
    if (ok) {
      t.ok++;
      f.ok++;
    } else misses.push({ c, got });
  }
  const msPerPhrase = (performance.now() - started) / cases.length;

  const rows: string[] = [];
  for (const lang of TIME_LANGS) {
    const l = byLang.get(lang)!;
    const all = { n: l.alone.n + l.embedded.n, ok: l.alone.ok + l.embedded.ok };
    const alone = report.check(`${lang} standalone exact ≥ ${TARGET}`, rate(l.alone) >= TARGET, rate(l.alone).toFixed(3));
    const embedded = report.check(`${lang} in questions exact ≥ ${TARGET}`, rate(l.embedded) >= TARGET, rate(l.embedded).toFixed(3));
    rows.push(`| ${lang} | ${all.n} | ${alone} (${l.alone.n}) | ${embedded} (${l.embedded.n}) | ${rate(all).toFixed(3)} |`);
  }
  const forms = [...new Set(cases.map((c) => c.form))];
  const formRows = forms.map((f) => `| ${f} | ${TIME_LANGS.map((l) => {
    const t = byForm.get(`${l} ${f}`);
    return t ? `${rate(t).toFixed(3)} (${t.n})` : '–';
  }).join(' | ')} |`);
  const md = [
    `# Time phrases (${quick ? 'quick' : 'full'}: ${cases.length} generated phrases, seed ${SEED})`,
    '',
    'Exact = both ends within 5 s (open ends both null; null for the negatives). Target ≥ 0.98 per language, standalone and in questions.',
    '',
    '| language | phrases | standalone (n) | in questions (n) | all |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'By form:',
    '',
    `| form | ${TIME_LANGS.join(' | ')} |`,
    `| --- | ${TIME_LANGS.map(() => '---').join(' | ')} |`,
    ...formRows,
    '',
    `Parse time: ${(msPerPhrase * 1000).toFixed(0)} µs per phrase on average (figure only).`,
    '',
    ...(misses.length ? [`Missed (${misses.length}; first 20):`, ...misses.slice(0, 20).map(({ c, got }) => `- [${c.lang} ${c.form}] ${c.text}${c.durationS ? ` (duration ${c.durationS} s)` : ''} → ${JSON.stringify(got)}, want ${JSON.stringify(c.expected)}`)] : ['Nothing missed.']),
    '',
  ].join('\n');
  await writeBenchResult('timePhrases.md', md);
  process.stdout.write(md);
}

void runBench('timePhrases', body);
