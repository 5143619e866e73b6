/**
 * The offline report as an evidence brief (issue 22): findings ranked by relevance to the step's
 * question (not by place or marker order), one per turn or comment (a comment never split),
 * near-repeats and what other steps quoted left out, never content-free, never spam; each line
 * names who said it and where; a short heading; an "Across the corpus" line whose counts are
 * those of the corpus; figures in a table; the fixed words in English, Spanish or Chinese.
 *
 * Inputs are generated (test/support/briefCorpus.ts): meetings in three languages with filler,
 * other topics and the goal's topic at known places, one with comments (a long one, spam).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import { generateMarkers } from '../../src/core/markers/generate';
import { spamFreeComments } from '../../src/core/markers/spamFree';
import { acrossCounts, acrossLine } from '../../src/core/research/acrossCorpus';
import { dataRows, dataTableLines } from '../../src/core/research/dataTable';
import type { FindingPlace } from '../../src/core/research/findingPlace';
import { selectFindings, type SelectionOptions } from '../../src/core/research/findingSelection';
import { readRun, runResearch, type StoredRun } from '../../src/core/research/pipeline';
import { reportWords, type ReportLanguage } from '../../src/core/research/reportWords';
import { stepHeading, topicPhrase } from '../../src/core/research/stepHeading';
import { stepQuestion } from '../../src/core/research/stepQuestion';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { isContentFree } from '../../src/core/text/contentFree';
import { markdownText } from '../../src/core/text/markdownSafe';
import { countWords } from '../../src/core/text/words';
import { BRIEF_VOCABULARY, writeBriefCorpus, type BriefLang, type BriefMeeting } from '../support/briefCorpus';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const LANGS: readonly BriefLang[] = ['en', 'es', 'zh'];
const ITEMS = 6;
const MENTIONING = 4;

interface Fixture {
  corpus: Corpus;
  index: CorpusIndex;
  meetings: BriefMeeting[];
}

let work: string;
const fixtures = new Map<BriefLang, Fixture>();

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mr-evidence-brief-'));
  for (const [k, lang] of LANGS.entries()) {
    const dir = path.join(work, lang);
    const meetings = await writeBriefCorpus(dir, lang, { items: ITEMS, mentioning: MENTIONING, seed: 31 + k });
    await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
    const corpus = await loadCorpus(dir);
    fixtures.set(lang, { corpus, index: CorpusIndex.build(corpus), meetings });
  }
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

const fixture = (lang: BriefLang): Fixture => fixtures.get(lang)!;
const item = (f: Fixture, id: string): CorpusItem => f.corpus.items.find((i) => i.id === id)!;
const partOf = (f: Fixture): SelectionOptions['partOf'] => (it, part) => (part === 'transcript' ? it.transcript : spamFreeComments(it, f.corpus));
/** Whitespace and case out, for comparing a finding's (cleaned) text with what the generator wrote. */
const flat = (t: string): string => t.replace(/\s+/g, '').toLowerCase();

describe('the findings of an offline step (generated meetings, en/es/zh)', () => {
  test('ranked by relevance to the question, not by their place: the densest turn (written last) comes first', () => {
    for (const lang of LANGS) {
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      for (const id of ['meeting-01', 'meeting-02', 'meeting-03']) {
        const it = item(f, id);
        const k = Number(id.slice(-2));
        const question = stepQuestion(`Facts: ${V.goal}`, V.goal, [it], f.index);
        const out = selectFindings([{ item: it, part: 'transcript', start: 0, end: it.transcript!.text.length }], [], { question, kinds: ['FACT', 'DATA', 'OPINION'], partOf: partOf(f), limit: 8 });
        assert.ok(out.length >= 3, `${lang} ${id}: ${out.length} findings`);
        assert.equal(flat(out[0]!.text), flat(V.twice(k)), `${lang} ${id}: the turn that says the topic twice leads: ${out[0]!.text}`);
        for (let i = 1; i < out.length; i++) assert.ok(out[i - 1]!.score >= out[i]!.score, `${lang} ${id}: scores never rise`);
        const starts = out.map((x) => x.start);
        assert.notDeepEqual(starts, [...starts].sort((a, b) => a - b), `${lang} ${id}: not in the order of the transcript`);
        // Every finding holds the topic: talk about other things is never a finding when the question has terms.
        for (const x of out) assert.ok(!V.other.some((o) => flat(o) === flat(x.text)), `${lang} ${id}: off-topic "${x.text}"`);
      }
    }
  });

  test('never content-free: fillers and the turn that only echoes the topic are never findings', () => {
    for (const lang of LANGS) {
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      for (const it of f.corpus.items) {
        const question = stepQuestion(V.goal, undefined, [it], f.index);
        const spans = [{ item: it, part: 'transcript' as const, start: 0, end: it.transcript!.text.length }];
        for (const kinds of [['FACT', 'DATA'], ['OPINION']] as const) {
          for (const x of selectFindings(spans, [], { question, kinds, partOf: partOf(f), limit: 12 })) {
            assert.ok(!isContentFree(x.text, lang, { strict: true }), `${lang} ${it.id}: content-free "${x.text}"`);
            assert.notEqual(flat(x.text), flat(V.echo), `${lang} ${it.id}: the echo`);
            assert.ok(!V.filler.some((w) => flat(w) === flat(x.text)), `${lang} ${it.id}: a filler`);
          }
        }
      }
    }
  });

  test('one comment is one finding, however its sentences were served; spam naming the topic is never one', () => {
    for (const lang of LANGS) {
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      const it = item(f, 'meeting-01');
      const raw = it.comments!;
      const long = raw.comments.find((c) => c.id === 'c1')!;
      const spam = raw.comments.find((c) => c.id === 'c2')!;
      const question = stepQuestion(V.goal, undefined, [it], f.index);
      // The whole part, the long comment alone, and each third of it served separately: always one finding for it.
      const third = Math.floor(long.text.length / 3);
      const servings = [
        [{ start: 0, end: raw.text.length }],
        [{ start: long.offset, end: long.offset + long.text.length }],
        [0, 1, 2].map((j) => ({ start: long.offset + j * third, end: long.offset + (j === 2 ? long.text.length : (j + 1) * third) })),
        [{ start: spam.offset, end: spam.offset + spam.text.length }, { start: long.offset, end: long.offset + 10 }],
      ];
      for (const spans of servings) {
        const out = selectFindings(spans.map((s) => ({ item: it, part: 'comments' as const, ...s })), [], { question, kinds: ['OPINION', 'FACT'], partOf: partOf(f) });
        const inLong = out.filter((x) => x.start >= long.offset && x.end <= long.offset + long.text.length);
        assert.equal(inLong.length, 1, `${lang}: ${JSON.stringify(out.map((x) => x.text))}`);
        assert.ok(!out.some((x) => x.start < spam.offset + spam.text.length && x.end > spam.offset), `${lang}: spam quoted`);
      }
      // A short comment is quoted whole.
      const whole = selectFindings([{ item: it, part: 'comments', start: 0, end: raw.text.length }], [], { question, kinds: ['OPINION'], partOf: partOf(f) });
      assert.equal(flat(whole[0]!.text), flat(V.longComment), `${lang}: the long comment whole (it is under the word limit)`);
    }
  });

  test('the same claim said again is one finding citing each place; what another step quoted is never quoted again', () => {
    for (const lang of LANGS) {
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      // The repeated line is said several times in every meeting: a question about it gets it once.
      const it = item(f, 'meeting-01');
      const question = stepQuestion(V.repeated, undefined, [it], f.index);
      const spans = f.corpus.items.map((x) => ({ item: x, part: 'transcript' as const, start: 0, end: x.transcript!.text.length }));
      const out = selectFindings(spans, [], { question, kinds: ['FACT'], partOf: partOf(f), limit: 12, perItem: 12 });
      const repeated = out.filter((x) => flat(x.text) === flat(V.repeated));
      assert.equal(repeated.length, 1, `${lang}: ${JSON.stringify(out.map((x) => x.text))}`);
      // It was said in several places: they are cited with it, each a different span saying it.
      const places = [repeated[0]!, ...(repeated[0]!.also ?? [])];
      assert.ok(places.length >= 2, `${lang}: ${places.length} places`);
      for (const p of places) assert.equal(flat(f.corpus.items.find((x) => x.id === p.itemId)!.transcript!.text.slice(p.start, p.end)), flat(V.repeated), lang);
      assert.equal(new Set(places.map((p) => `${p.itemId}:${p.start}`)).size, places.length, `${lang}: distinct places`);
      // The topic question over every meeting; then again with the first answer's findings excluded.
      const q2 = stepQuestion(V.goal, undefined, f.corpus.items, f.index);
      const first = selectFindings(spans, [], { question: q2, kinds: ['FACT', 'DATA'], partOf: partOf(f), limit: 3 });
      const second = selectFindings(spans, [], { question: q2, kinds: ['FACT', 'DATA'], partOf: partOf(f), limit: 3, exclude: first.flatMap((z) => [z, ...(z.also ?? [])]) });
      assert.ok(second.length > 0, lang);
      for (const x of second) for (const y of first.flatMap((z) => [z, ...(z.also ?? [])])) assert.ok(!(x.itemId === y.itemId && x.start < y.end && y.start < x.end), `${lang}: overlaps an excluded span`);
      // Not the first answer again: the next best places.
      assert.notDeepEqual(second.map((x) => `${x.itemId}:${x.start}`), first.map((x) => `${x.itemId}:${x.start}`), lang);
    }
  });
});

/** The report's sections: heading → lines up to the next "## ". */
function sections(report: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let cur: string[] | undefined;
  for (const l of report.split('\n')) {
    if (l.startsWith('## ')) out.set(l.slice(3), (cur = []));
    else cur?.push(l);
  }
  return out;
}

const FIXED: Record<ReportLanguage, string[]> = {
  en: ['Data', 'Not covered', 'Sources'],
  es: ['Datos', 'No cubierto', 'Fuentes'],
  zh: ['数据', '未覆盖', '来源'],
};

/** "mentioned in 4 of 6 meetings" in each language, and the speakers part. */
const COUNTS: Record<ReportLanguage, { mentioned: (k: number, n: number) => string; speakers: RegExp; lead: string }> = {
  en: { mentioned: (k, n) => `mentioned in ${k} of ${n} meetings`, speakers: /(\d+) speakers?/, lead: '*Across the corpus:* ' },
  es: { mentioned: (k, n) => `mencionado en ${k} de ${n} reuniones`, speakers: /(\d+) hablantes?/, lead: '*En todo el corpus:* ' },
  zh: { mentioned: (k, n) => `在 ${n} 场会议中的 ${k} 场提到`, speakers: /(\d+) 位发言人/, lead: '*全部语料：* ' },
};

describe('the report of an offline run (generated meetings, en/es/zh)', () => {
  const runs = new Map<BriefLang, { report: string; run: StoredRun }>();
  before(async () => {
    for (const lang of LANGS) {
      const f = fixture(lang);
      const r = await runResearch({ corpus: f.corpus, index: f.index, engine: 'extractive', promptsDir: PROMPTS }, { goal: BRIEF_VOCABULARY[lang].goal });
      assert.equal(r.manifest.status, 'done');
      runs.set(lang, { report: await readFile(r.reportPath!, 'utf8'), run: await readRun(f.corpus.root, r.runId) });
    }
  });

  test('short step headings, the fixed words in the corpus language, every citation resolving', () => {
    for (const lang of LANGS) {
      const { report, run } = runs.get(lang)!;
      const V = BRIEF_VOCABULARY[lang];
      const W = reportWords(lang);
      const heads = [...sections(report).keys()];
      for (const fixed of FIXED[lang]) assert.ok(heads.includes(fixed), `${lang}: "## ${fixed}" in ${JSON.stringify(heads)}`);
      const steps = heads.filter((h) => !FIXED[lang].includes(h));
      assert.equal(steps.length, run.plan!.steps.length, `${lang}: one heading per step`);
      for (const h of steps) {
        assert.ok(!h.includes(V.goal), `${lang}: the heading repeats the goal: ${h}`);
        const topic = h.split(/[:：]\s*/u)[1] ?? '';
        assert.ok(topic && countWords(topic) <= 6 && flat(topic).includes(flat(V.topic).slice(0, 4)), `${lang}: heading topic "${topic}"`);
      }
      assert.ok(report.startsWith(`# ${W.extractiveTitle}`), `${lang}: title`);
      assert.ok(report.includes(W.extractiveNote), `${lang}: the note`);
      if (lang !== 'en') for (const english of ['## Sources', '## Data', '## Not covered', 'Across the corpus', '(no findings)']) assert.ok(!report.includes(english), `${lang}: English "${english}"`);
      const cited = new Set([...report.split(/^## (?:Sources|Fuentes|来源)$/mu)[0]!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
      const known = new Set(run.sources!.citations.map((c) => c.number));
      assert.ok(cited.size > 0);
      for (const n of cited) assert.ok(known.has(n), `${lang}: [${n}] resolves`);
    }
  });

  test('the "Across the corpus" line counts the meetings that mention the topic and the speakers its findings quote', () => {
    for (const lang of LANGS) {
      const { report, run } = runs.get(lang)!;
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      const C = COUNTS[lang];
      // Counted here from the generated text, not from what the run says.
      const mentioning = f.meetings.filter((m) => m.turns.some((t) => t.text.includes(V.topic))).length;
      assert.equal(mentioning, MENTIONING);
      const spans = new Map(run.sources!.citations.map((c) => [c.number, c.span]));
      for (const [head, lines] of sections(report)) {
        if (FIXED[lang].includes(head)) continue;
        const across = lines.find((l) => l.startsWith(C.lead));
        assert.ok(across, `${lang} ${head}: no counts line`);
        assert.ok(across.includes(C.mentioned(MENTIONING, ITEMS)), `${lang} ${head}: ${across}`);
        const findings = lines.filter((l) => l.startsWith('- '));
        const speakers = new Set(
          findings.flatMap((l) => {
            const span = spans.get(Number(/\[(\d+)\]/.exec(l)?.[1]));
            return span?.part === 'transcript' ? (span.source.speakers ?? []).map((s) => `${span.item_id}/${s}`) : [];
          }),
        );
        const said = C.speakers.exec(across);
        assert.equal(said ? Number(said[1]) : 0, speakers.size, `${lang} ${head}: ${across}`);
      }
    }
  });

  test('each finding names who said it and in which meeting, quoted; no spam, no content-free quote', () => {
    for (const lang of LANGS) {
      const { report, run } = runs.get(lang)!;
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      const W = reportWords(lang);
      const spans = new Map(run.sources!.citations.map((c) => [c.number, c.span]));
      const lines = [...sections(report)].filter(([h]) => !FIXED[lang].includes(h)).flatMap(([, ls]) => ls.filter((l) => l.startsWith('- ')));
      assert.ok(lines.length >= MENTIONING, `${lang}: ${lines.length} findings`);
      for (const l of lines) {
        const span = spans.get(Number(/\[(\d+)\]/.exec(l)?.[1]))!;
        const who = /^- \*\*(.+?)\*\* · /.exec(l)?.[1];
        const expected = span.part === 'comments' ? `@${span.source.speakers?.[0]}` : span.source.speakers?.[0];
        assert.equal(who, markdownText(expected ?? ''), `${lang}: ${l}`);
        assert.ok(l.includes(item(f, span.item_id).title), `${lang}: the meeting is named: ${l}`);
        const quote = l.slice(l.indexOf(W.quote[0]) + 1, l.lastIndexOf(W.quote[1]));
        assert.ok(quote && !isContentFree(quote, lang, { strict: true }), `${lang}: ${l}`);
        assert.ok(!flat(quote).includes(flat(V.spam).slice(0, 12)), `${lang}: spam quoted`);
      }
      assert.ok(!run.sources!.citations.some((c) => c.span.part === 'comments' && c.span.source.commentIds?.includes('c2')), `${lang}: spam cited`);
    }
  });

  test('the figures the findings state are in the data table, with who said them and where', () => {
    for (const lang of LANGS) {
      const { report, run } = runs.get(lang)!;
      const V = BRIEF_VOCABULARY[lang];
      const W = reportWords(lang);
      const table = sections(report).get(W.data)!;
      const rows = table.filter((l) => l.startsWith('| ') && !l.startsWith(`| ${W.dataColumns[0]}`));
      assert.ok(rows.length > 0, `${lang}: no rows`);
      const spans = new Map(run.sources!.citations.map((c) => [c.number, c.span]));
      const figures = Array.from({ length: MENTIONING }, (_, k) => V.figure(k + 1));
      const withFigure = rows.filter((r) => figures.some((x) => r.includes(x.replace('.', '\\.'))));
      assert.ok(withFigure.length > 0, `${lang}: ${rows.join('\n')}`);
      for (const r of withFigure) {
        const cells = r.split(' | ');
        const n = Number(/\[(\d+)\]/.exec(cells[3] ?? '')?.[1]);
        const span = spans.get(n);
        assert.ok(span, `${lang}: the row cites a source: ${r}`);
        assert.equal(cells[2], span.source.speakers?.[0], `${lang}: who: ${r}`);
      }
    }
  });

  test('--items scopes the run: one meeting, its citations only, counted as one of one', async () => {
    for (const lang of LANGS) {
      const f = fixture(lang);
      const V = BRIEF_VOCABULARY[lang];
      const r = await runResearch({ corpus: f.corpus, index: f.index, engine: 'extractive', promptsDir: PROMPTS, scope: ['meeting-02'] }, { goal: V.goal });
      const run = await readRun(f.corpus.root, r.runId);
      assert.ok(run.sources!.citations.length > 0, lang);
      assert.ok(run.sources!.citations.every((c) => c.span.item_id === 'meeting-02'), lang);
      const report = await readFile(r.reportPath!, 'utf8');
      const one = lang === 'zh' ? '在 1 场会议中的 1 场提到' : lang === 'es' ? 'mencionado en 1 de 1 reunión' : 'mentioned in 1 of 1 meeting';
      assert.ok(report.includes(one), `${lang}: ${report.split('\n').find((l) => l.startsWith('*')) ?? ''}`);
    }
  });
});

describe('headings, counts and data rows, composed', () => {
  test('a step heading is its label and the topic of its goal, short, in every language', () => {
    const topics: Record<BriefLang, string[]> = { en: ['solar panels', 'the remote control price', 'winter battery range'], es: ['los paneles solares', 'el precio del mando', 'la pelea del sábado'], zh: ['太阳能板', '遥控器的价格', '冬季续航'] };
    const frames: Record<BriefLang, ((t: string) => string)[]> = {
      en: [(t) => `What did the team think about ${t}?`, (t) => `What did the project manager and the designers say about ${t} in the last three meetings?`, (t) => t],
      es: [(t) => `¿Qué opinan sobre ${t}?`, (t) => `¿Qué dijeron los comentaristas de los vídeos sobre ${t} durante el último mes?`, (t) => t],
      zh: [(t) => `团队对${t}有什么看法？`, (t) => `在最近三场会议中，大家是如何讨论${t}的？`, (t) => t],
    };
    const labels: Record<BriefLang, string> = { en: 'Facts and figures', es: 'Hechos y datos', zh: '事实与数据' };
    for (const lang of LANGS) {
      for (const t of topics[lang]) {
        for (const frame of frames[lang]) {
          const goal = frame(t);
          const sep = lang === 'zh' ? '：' : ': ';
          for (const suffix of ['', lang === 'zh' ? '（第 1/3 部分，20 个内容项）' : ' (part 1 of 3: 20 items)']) {
            const h = stepHeading(`${labels[lang]}${sep}${goal}${suffix}`, goal);
            assert.ok(h.startsWith(`${labels[lang]}${sep}`), `${lang}: ${h}`);
            assert.ok(h.endsWith(suffix.trim()), `${lang}: the part stays: ${h}`);
            const topic = h.slice(labels[lang].length + sep.length, h.length - suffix.trim().length).trim();
            assert.ok(countWords(topic) <= 6, `${lang}: "${goal}" → "${topic}"`);
            const core = lang === 'zh' ? t.slice(-2) : t.split(' ').pop()!;
            assert.ok(topic.includes(core), `${lang}: "${goal}" → "${topic}" keeps "${core}"`);
          }
        }
      }
      assert.equal(topicPhrase(lang === 'zh' ? '全部会议的主要事实、观点和数据是什么？' : lang === 'es' ? '¿Cuáles son los hechos, opiniones y datos principales?' : 'What are the main facts, opinions and figures?'), '', `${lang}: an overview goal has no topic`);
    }
  });

  test('the counts line in three languages, singular and plural, speakers and commenters', () => {
    const place = (itemId: string, part: 'transcript' | 'comments', who: string): FindingPlace => ({ label: '', who: [who], part, itemId });
    const places = [place('a', 'transcript', 'Ana'), place('a', 'transcript', 'Ben'), place('b', 'transcript', 'Ana'), place('b', 'comments', 'lena'), place('a', 'comments', 'lena')];
    const counts = acrossCounts(undefined, [], ['a', 'b', 'c'], places);
    assert.deepEqual(counts, { findingItems: 2, scope: 3, speakers: 3, commenters: 1 });
    assert.equal(acrossLine({ mentioning: 7, ...counts, scope: 12 }, reportWords('en'), 'meeting'), '*Across the corpus:* mentioned in 7 of 12 meetings; 3 speakers; 1 commenter.');
    assert.equal(acrossLine({ mentioning: 7, ...counts, scope: 12 }, reportWords('es'), 'video'), '*En todo el corpus:* mencionado en 7 de 12 vídeos; 3 hablantes; 1 comentarista.');
    assert.equal(acrossLine({ mentioning: 7, ...counts, scope: 12 }, reportWords('zh'), 'meeting'), '*全部语料：* 在 12 场会议中的 7 场提到；3 位发言人；1 位评论者。');
    assert.equal(acrossLine({ findingItems: 1, scope: 1, speakers: 1, commenters: 0 }, reportWords('en'), 'item'), '*Across the corpus:* findings from 1 of 1 item; 1 speaker.');
  });

  test('data rows: figures with a unit or in digits, what they measure, who, where; cells escaped', () => {
    const W = reportWords('en');
    const rows = dataRows(
      [
        { text: 'We could sell the remote for twenty five Euros and keep a margin of 50 %.', who: ['Project | Manager'], cite: '[S1]' },
        { text: 'I think two friends came along, and it was fun.', who: ['Ana'], cite: '[S2]' },
        { text: 'The survey of 1,200 employees ran for three weeks.', who: ['@lena'], cite: '[S3]' },
      ],
      W,
      'en',
    );
    assert.deepEqual(rows.map((r) => [r.figure, r.cite]), [['twenty five Euros', '[S1]'], ['50 %', '[S1]'], ['1,200 employees', '[S3]'], ['three weeks', '[S3]']].slice(0, rows.length));
    assert.ok(!rows.some((r) => r.cite === '[S2]'), 'a count of two is no figure');
    assert.match(rows[0]!.measures, /sell remote \(an amount of money\)/);
    const lines = dataTableLines(rows, W);
    assert.equal(lines[0], '## Data');
    assert.ok(lines.some((l) => l.includes('Project \\| Manager')), 'a pipe in a cell is escaped');
    assert.ok(lines.filter((l) => l.startsWith('| ')).every((l) => l.split(/(?<!\\)\|/).length === 6), 'four cells a row');
  });
});
