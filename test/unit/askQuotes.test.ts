/**
 * What Ask quotes and opens (issue 21): a hit's focus is whole sentences — in a caption
 * transcript the segmenter's sentences, never a caption line — and says something: never a
 * backchannel, filler or annotation ("Yeah .", "Mm-hmm .", "{vocalsound}", "sí", "vale", "嗯",
 * "对对对"). Generated caption transcripts (English, Spanish, Chinese; .srt/.vtt/.txt/.json; with
 * and without timestamps) and generated meetings full of backchannels, asked offline.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { askCorpus } from '../../src/core/ask/ask';
import { openAskContext } from '../../src/core/ask/askContext';
import type { AskContext, AskHit } from '../../src/core/ask/types';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus, CorpusItem, TranscriptSegment } from '../../src/core/corpus/types';
import { partSentences } from '../../src/core/markers/sentences';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { contentWords, isContentFree } from '../../src/core/text/contentFree';
import { countWords } from '../../src/core/text/words';
import { hitView, quoteOf } from '../../src/server/askViews';
import { rng } from '../support/testing';
import { captionLines, meetingTurns, MEETING_SPEAKERS, writeCaptionItem, type CaptionFormat, type CaptionLang } from '../support/captionCorpus';

const TERM: Record<CaptionLang, string> = { en: 'zeppelin', es: 'zepelín', zh: '飞艇' };
const ABOUT: Record<CaptionLang, (x: string) => string> = {
  en: (x) => `What did they say about the ${x}?`,
  es: (x) => `¿Qué dijeron sobre el ${x}?`,
  zh: (x) => `关于${x}说了什么？`,
};
const SPEAKER_QUESTIONS: Record<CaptionLang, ((who: string, x: string) => string)[]> = {
  en: [(w) => `What did ${w} say?`, (w, x) => `What did ${w} say about the ${x}?`, (_, x) => `Summarize the discussion about the ${x}`],
  es: [(w) => `¿Qué dijo ${w}?`, (w, x) => `¿Qué dijo ${w} sobre el ${x}?`, (_, x) => `Resume la discusión sobre el ${x}`],
  zh: [(w) => `${w}说了什么？`, (w, x) => `${w}对${x}怎么看？`, (_, x) => `总结一下关于${x}的讨论`],
};

/** The segment holding `offset` (the last one starting at or before it). */
const segmentAt = (segs: readonly TranscriptSegment[], offset: number): TranscriptSegment => segs.filter((s) => s.offset <= offset).pop() ?? segs[0]!;

const text = (item: CorpusItem, h: AskHit): string => (h.part === 'transcript' ? item.transcript! : item.comments!).text.slice(h.focus.start, h.focus.end);

describe('Ask quotes whole sentences of a caption transcript, never a caption line', () => {
  let dir: string;
  let corpus: Corpus;
  let ctx: AskContext;
  const cases: { id: string; lang: CaptionLang }[] = [];
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-askquotes-captions-'));
    let seed = 0;
    for (const lang of ['en', 'es', 'zh'] as const) {
      for (const [format, timed] of [['srt', true], ['vtt', true], ['txt', false], ['txt', true], ['json', false], ['json', true]] as [CaptionFormat, boolean][]) {
        const id = `${lang}-${format}-${timed ? 'timed' : 'untimed'}`;
        await writeCaptionItem(dir, id, captionLines({ lang, lines: 240, timed, seed: ++seed * 104_729, term: TERM[lang] }), format);
        cases.push({ id, lang });
      }
    }
    corpus = await loadCorpus(dir);
    const { index } = await CorpusIndex.open(corpus);
    ctx = await openAskContext(corpus, index, { markers: new Map() });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('every hit\'s focus is one or more whole sentences of at least 8 words, the top one about the question, its quote too', async () => {
    let hits = 0;
    for (const c of cases) {
      const item = corpus.items.find((i) => i.id === c.id)!;
      const t = item.transcript!;
      const sentences = partSentences(t);
      const starts = new Set(sentences.map((s) => s.start));
      const ends = new Set(sentences.map((s) => s.end));
      const r = await askCorpus(ctx, { question: ABOUT[c.lang](TERM[c.lang]), itemId: c.id }, { k: 5 });
      assert.ok(r.hits.length >= 3, `${c.id}: ${r.hits.length} hits`);
      assert.ok(text(item, r.hits[0]!).includes(TERM[c.lang]), `${c.id}: the top focus «${text(item, r.hits[0]!)}» is about ${TERM[c.lang]}`);
      for (const h of r.hits) {
        const f = text(item, h);
        assert.ok(starts.has(h.focus.start) && ends.has(h.focus.end), `${c.id}: focus «${f}» is not whole sentences`);
        assert.ok(countWords(f) >= 8, `${c.id}: focus «${f}» has fewer than 8 words`);
        assert.ok(!t.segments.some((s) => s.text.trim() === f.trim()), `${c.id}: focus «${f}» is a single caption line`);
        assert.ok(h.start <= h.focus.start && h.focus.end <= h.end, `${c.id}: the hit's span holds its focus`);
        const quote = hitView(h, [...r.query.keywords], item).quote.replace(/…/g, ' ');
        assert.ok(countWords(quote) >= 8, `${c.id}: quote «${quote}»`);
        hits++;
      }
    }
    assert.ok(hits >= cases.length * 3);
  });
});

describe('Ask never quotes a backchannel, filler or annotation', () => {
  let dir: string;
  let corpus: Corpus;
  let ctx: AskContext;
  const langs = ['en', 'es', 'zh'] as const;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-askquotes-meetings-'));
    let seed = 0;
    for (const lang of langs) {
      for (let k = 0; k < 3; k++) {
        await mkdir(path.join(dir, `${lang}-meeting-${k}`));
        await writeFile(path.join(dir, `${lang}-meeting-${k}`, 'transcript.json'), JSON.stringify({ turns: meetingTurns(lang, 220, ++seed * 7_919, TERM[lang]) }));
      }
    }
    corpus = await loadCorpus(dir);
    const { index } = await CorpusIndex.open(corpus);
    ctx = await openAskContext(corpus, index, { markers: new Map() });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('about a speaker or a topic: every focus begins and ends with a turn that says something, and says enough', async () => {
    let checked = 0;
    for (const item of corpus.items) {
      const lang = item.id.slice(0, 2) as CaptionLang;
      const segs = item.transcript!.segments;
      for (const who of MEETING_SPEAKERS[lang]) {
        for (const ask of SPEAKER_QUESTIONS[lang]) {
          const r = await askCorpus(ctx, { question: ask(who, TERM[lang]), itemId: item.id }, { k: 5 });
          for (const h of r.hits) {
            const f = text(item, h);
            const first = segmentAt(segs, h.focus.start);
            const last = segmentAt(segs, h.focus.end - 1);
            const edge = (s: typeof first): string => item.transcript!.text.slice(Math.max(s.offset, h.focus.start), Math.min(s.offset + s.text.length, h.focus.end));
            assert.ok(!isContentFree(f, lang), `${item.id} «${ask(who, TERM[lang])}»: focus «${f}» is content-free`);
            assert.ok(!isContentFree(edge(first), lang) && !isContentFree(edge(last), lang), `${item.id}: focus «${f}» begins or ends with a backchannel`);
            assert.ok(contentWords(f, lang).length >= 3, `${item.id}: focus «${f}» says too little`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked >= corpus.items.length * 9 * 3, `${checked} hits checked`);
  });
});

describe('the quote of a focus shows as much of it as fits, its keyword in view', () => {
  test('generated focus texts with the keyword anywhere: the whole text when it fits, else a full-length piece from a sentence or word start', () => {
    const r = rng(280);
    const words = ['the', 'remote', 'battery', 'we', 'decided', 'colour', 'el', 'precio', 'sube', 'budget', 'design', 'case'];
    for (let k = 0; k < 400; k++) {
      const sentences = Array.from({ length: 1 + Math.floor(r() * 8) }, () => `${Array.from({ length: 4 + Math.floor(r() * 14) }, () => words[Math.floor(r() * words.length)]).join(' ')}.`);
      const at = Math.floor(r() * sentences.length);
      sentences[at] = sentences[at]!.replace(/\.$/, ' zeppelin.');
      const text = sentences.join(' ');
      const q = quoteOf(text, ['zeppelin']);
      const body = q.replace(/^…/, '').replace(/…$/, '');
      assert.ok(body.includes('zeppelin'), `«${q}» shows the keyword`);
      assert.ok(text.includes(body), `«${q}» is a piece of the text`);
      if (text.length <= 280) assert.equal(q, text, 'a text that fits is quoted whole');
      else {
        assert.ok(body.length >= 280 - 280 / 3 - 1, `«${q}» (${body.length} characters) fills its line`);
        const start = text.indexOf(body);
        assert.ok(start === 0 || text[start - 1] === ' ', `«${q}» starts at a word`);
      }
    }
  });
});

