/**
 * Coreference over the session (issue 23): `node --import tsx bench/coreference.ts [--quick] [--report-only]`.
 *
 * The cases are generated (test/support/corefGenerator.ts): person (full names in English, Spanish
 * and Chinese; a role that is a speaker label in two meetings; a person named in the text) ×
 * reference form (pronoun, possessive, Spanish clitic, Spanish null subject, definite description,
 * plural) × question template × language (en, es, zh-Hans, zh-Hant) × with or without another
 * entity the question names itself × one to three earlier questions; plus negatives (articles "la",
 * "lo", "el", impersonal "se", 其他/其实/应该, questions with no reference) that must take no one
 * from the session. Each is run through the offline understanding (`understandWithRules`) over the
 * generated corpus, with the meeting in focus.
 *
 * A case is right when the question's entities are exactly the expected ones (each expected string
 * found, case-insensitive containment either way as `eval ask` grades, and nothing else).
 * Three seeds, six cases per template and negative (`--quick`: one seed, two).
 * Target: accuracy ≥ 0.95 in each language. Also per form, with and without another entity, by
 * session length, and the mean understanding time per case (a figure, no target).
 * Writes bench/results/coreference.md.
 */
import { entityStrings } from '../src/core/ask/ask';
import { understandWithRules } from '../src/core/ask/understandRules';
import { COREF_LANGS, type CorefCase, type CorefForm, corefWorld, sameEntities } from '../test/support/corefGenerator';
import { runBench, writeBenchResult, type BenchReport } from './benchSupport';

const TARGET = 0.95;
const FORMS: readonly CorefForm[] = ['pronoun', 'possessive', 'clitic', 'null-subject', 'definite', 'plural', 'none'];

interface Tally {
  ok: number;
  n: number;
}

const add = (m: Map<string, Tally>, key: string, ok: boolean): void => {
  const t = m.get(key) ?? { ok: 0, n: 0 };
  t.n++;
  if (ok) t.ok++;
  m.set(key, t);
};
const cell = (t: Tally | undefined): string => (t ? `${(t.ok / t.n).toFixed(3)} (${t.ok}/${t.n})` : '–');

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const seeds = quick ? [101] : [101, 202, 303];
  const perTemplate = quick ? 2 : 6;
  const tally = new Map<string, Tally>();
  const missed: string[] = [];
  let ms = 0;
  let cases = 0;
  for (const seed of seeds) {
    const world = corefWorld(seed, perTemplate);
    for (const c of world.cases) {
      const t0 = performance.now();
      const q = understandWithRules({ question: c.question, itemId: c.itemId, session: c.session }, { entities: world.entities, corpus: world.corpus });
      ms += performance.now() - t0;
      cases++;
      const got = entityStrings(q);
      const ok = sameEntities(got, c.expected);
      for (const key of keys(c)) add(tally, key, ok);
      if (!ok) missed.push(`- ${c.lang} ${c.form}: ${JSON.stringify(c.session)} → ${c.question} → ${JSON.stringify(got)} (expected ${JSON.stringify(c.expected)}; read as “${q.resolvedQuery}”)`);
    }
  }
  const rows: string[] = [];
  for (const lang of COREF_LANGS) {
    const t = tally.get(lang)!;
    rows.push(`| ${lang} | ${report.check(`${lang}: generated coreference accuracy ≥ ${TARGET}`, t.ok / t.n >= TARGET, (t.ok / t.n).toFixed(3))} | ${t.n} | ${FORMS.map((f) => cell(tally.get(`${lang}|${f}`))).join(' | ')} |`);
  }
  const all = [...COREF_LANGS].reduce((a, l) => ({ ok: a.ok + tally.get(l)!.ok, n: a.n + tally.get(l)!.n }), { ok: 0, n: 0 });
  const lines = [
    `# Coreference over the session, generated cases (${cases} cases, seeds ${seeds.join(', ')}, ${perTemplate} per template${quick ? ', --quick' : ''})`,
    '',
    `Overall ${cell(all)}; target ≥ ${TARGET} in each language. Mean understanding time ${(ms / Math.max(1, cases)).toFixed(1)} ms per case (the whole offline understanding, earlier questions included).`,
    '',
    `| language | accuracy | cases | ${FORMS.join(' | ')} |`,
    `| --- | --- | --- | ${FORMS.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
    '`none`: negatives (no reference, or words that look like one), which must take no one from the session.',
    '',
    '| language | no other entity | another entity named | session 1 | session 2 | session 3 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...COREF_LANGS.map((l) => `| ${l} | ${cell(tally.get(`${l}|alone`))} | ${cell(tally.get(`${l}|other`))} | ${[1, 2, 3].map((n) => cell(tally.get(`${l}|s${n}`))).join(' | ')} |`),
    '',
    ...(missed.length ? [`Missed (${missed.length}${missed.length > 40 ? ', first 40' : ''}):`, ...missed.slice(0, 40)] : ['Nothing missed.']),
    '',
    report.lines().join('\n'),
    '',
  ];
  await writeBenchResult('coreference.md', lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

/** The tallies a case counts in. */
function keys(c: CorefCase): string[] {
  return [c.lang, `${c.lang}|${c.form}`, `${c.lang}|${c.withOther ? 'other' : 'alone'}`, `${c.lang}|s${c.session.length}`];
}

void runBench('coreference', bench);
