/**
 * Location labels (issue 12, item 2): a span reads as speaker · time · item, speaker · turn n ·
 * item without timestamps, @author · likes · date · item for a comment — in English and
 * Chinese items — with file:line kept for tooltips; and the report's source list uses them. The
 * label's own words (turn, likes, comment) are in the language of the text the span is in (issue 24).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { clipLabel, fileLineLabel, locationLabel, storedLocationLabel } from '../../src/core/corpus/locationLabel';
import { locationWords, type LocationLanguage } from '../../src/core/corpus/locationWords';
import { mapSpan, storedRange } from '../../src/core/corpus/spans';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import type { ItemMarkers, Marker } from '../../src/core/markers/schema';
import { describeSource } from '../../src/core/research/synthesis';
import { itemMarkersView } from '../../src/shared/sidebarModel';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** The span of the `n`-th (0-based) turn or non-empty comment. */
function unit(item: CorpusItem, part: 'transcript' | 'comments', n: number): { start: number; end: number } {
  const u = part === 'transcript' ? item.transcript!.segments[n]! : item.comments!.comments.filter((c) => c.text.trim())[n]!;
  return { start: u.offset, end: u.offset + u.text.length };
}

describe('locationLabel', () => {
  let demo: Corpus;
  let dir: string;
  let plain: CorpusItem;
  before(async () => {
    demo = await loadCorpus(DEMO);
    dir = await mkdtemp(path.join(tmpdir(), 'mr-location-'));
    await mkdir(path.join(dir, 'meeting'));
    // No timestamps; one turn without a speaker; comments without author, likes or date.
    await writeFile(path.join(dir, 'meeting', 'transcript.json'), JSON.stringify({ turns: [
      { speaker: 'PhD A', text: 'We start with the budget.' },
      { speaker: 'Professor B', text: 'The budget is tight this year.' },
      { text: 'Someone coughs and says nothing else.' },
      { speaker: 'PhD A', text: 'Then the schedule.' },
    ] }));
    await writeFile(path.join(dir, 'meeting', 'comments.jsonl'), [
      { comment_id: 'k1', text: 'No author here.' },
      { comment_id: 'k2', author: 'solo', text: 'One like only.', likes: 1, published_at: 'last week' },
    ].map((c) => JSON.stringify(c)).join('\n'));
    await writeFile(path.join(dir, 'meeting', 'meta.json'), JSON.stringify({ title: 'Weekly research meeting of the speech group, room 3' }));
    plain = (await loadCorpus(dir)).items[0]!;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a transcript with timestamps: speaker · start time · title (clipped)', () => {
    const city = demo.items.find((i) => i.id === 'city-cycling-podcast')!;
    const second = unit(city, 'transcript', 1);
    assert.equal(locationLabel(city, 'transcript', second.start, second.end), 'Daniel · 0:09 · Protected Bike Lanes: What the Data Says');
    assert.equal(locationLabel(city, 'transcript', second.start + 5, second.start + 20, { title: false }), 'Daniel · 0:09');
    assert.equal(locationLabel(city, 'transcript', second.start, second.end, { titleChars: 12 }), 'Daniel · 0:09 · Protected…');
    // across turns of two speakers: both named, the time of the first
    const first = unit(city, 'transcript', 0);
    const label = locationLabel(city, 'transcript', first.start, second.end, { title: false });
    assert.match(label, /^\S.*, Daniel · 0:00$|^Daniel, \S.* · 0:00$/u);
  });

  test('no timestamps: speaker · turn n (as the readable view numbers turns); turns n–m across turns; no speaker, just the turn', () => {
    const t1 = unit(plain, 'transcript', 1);
    assert.equal(locationLabel(plain, 'transcript', t1.start, t1.end), 'Professor B · turn 2 · Weekly research meeting of the speech…');
    const t2 = unit(plain, 'transcript', 2);
    assert.equal(locationLabel(plain, 'transcript', t2.start, t2.end, { title: false }), 'turn 3');
    const all = plain.transcript!.text.length;
    assert.equal(locationLabel(plain, 'transcript', 0, all, { title: false }), 'PhD A, Professor B · turns 1–4');
    // an empty span labels the turn it sits in
    assert.equal(locationLabel(plain, 'transcript', t1.start + 3, t1.start + 3, { title: false }), 'Professor B · turn 2');
  });

  test('comments: @author · likes · date; no author: comment #n; no likes said when there are none; +n comments', () => {
    const city = demo.items.find((i) => i.id === 'city-cycling-podcast')!;
    const c1 = unit(city, 'comments', 0);
    assert.equal(locationLabel(city, 'comments', c1.start, c1.end), '@ridewithlena · 214 likes · 2024-03-14 · Protected Bike Lanes: What the Data Says');
    const c2 = unit(city, 'comments', 1);
    assert.equal(locationLabel(city, 'comments', c1.start, c2.end, { title: false }), '@ridewithlena · 214 likes · 2024-03-14 · +1 comment');
    const k1 = unit(plain, 'comments', 0);
    assert.equal(locationLabel(plain, 'comments', k1.start, k1.end, { title: false }), 'comment #1');
    const k2 = unit(plain, 'comments', 1);
    assert.equal(locationLabel(plain, 'comments', k2.start, k2.end, { title: false }), '@solo · 1 like · last week');
  });

  test('Chinese items: Chinese speakers, authors and titles, clipped by characters', () => {
    const ev = demo.items.find((i) => i.id === 'ev-winter-range')!;
    const t2 = unit(ev, 'transcript', 2);
    assert.equal(locationLabel(ev, 'transcript', t2.start, t2.end), '工程师 · 0:15 · 电动车冬季续航实测：零下十度掉电多少？');
    assert.equal(locationLabel(ev, 'transcript', t2.start, t2.end, { titleChars: 6 }), '工程师 · 0:15 · 电动车冬季…');
    const z1 = unit(ev, 'comments', 0);
    // the label's words are the comments' language (issue 24): a Chinese thread's likes are 赞
    assert.equal(locationLabel(ev, 'comments', z1.start, z1.end, { title: false }), '@东北老司机 · 1,520 赞 · 2024-01-20');
    assert.equal(locationLabel(ev, 'comments', z1.start, z1.end, { title: false, language: 'en' }), '@东北老司机 · 1,520 likes · 2024-01-20');
    assert.equal(clipLabel('😀😀😀😀', 3), '😀😀…');
  });

  test('an item without the part, or a span outside it: the part and the title', () => {
    const ev = demo.items.find((i) => i.id === 'ev-winter-range')!;
    assert.equal(locationLabel({ ...ev, comments: undefined }, 'comments', 0, 5, { title: false }), 'comments');
  });

  test('stored spans: speakers and time, comment authors, else the file and line; fileLineLabel for tooltips', () => {
    const city = demo.items.find((i) => i.id === 'city-cycling-podcast')!;
    const second = unit(city, 'transcript', 1);
    const src = storedRange(mapSpan(city, { part: 'transcript', ...second })!);
    assert.equal(storedLocationLabel(src, 'transcript', city.title), 'Daniel · 0:09 · Protected Bike Lanes: What the Data Says');
    const c = unit(city, 'comments', 0);
    const csrc = storedRange(mapSpan(city, { part: 'comments', ...c })!);
    assert.equal(storedLocationLabel(csrc, 'comments'), '@ridewithlena');
    assert.equal(storedLocationLabel({ file: 'a/transcript.json', startLine: 2214, startColumn: 3, endLine: 2214, endColumn: 90 }, 'transcript'), 'transcript.json:2215');
    assert.equal(fileLineLabel(src), `transcript.vtt:${src.startLine + 1}`);
  });

  test('the sidebar\'s marker rows: the label of the first evidence without the title (the row sits under its item); file:line stays in `where`', () => {
    const city = demo.items.find((i) => i.id === 'city-cycling-podcast')!;
    const t = unit(city, 'transcript', 1);
    const c = unit(city, 'comments', 0);
    const marker = (id: string, part: 'transcript' | 'comments', span: { start: number; end: number }): Marker => ({
      id, kind: 'FACT', text: 'x', topic: 'y', confidence: 1, grounded: true,
      evidence: [{ quote: 'q', part, ...span, match: 'exact', source: storedRange(mapSpan(city, { part, ...span })!) }],
    });
    const stale = marker('m3', 'transcript', { start: 0, end: city.transcript!.text.length + 10 });
    const markers: ItemMarkers = {
      item_id: city.id, title: city.title, content_hash: city.contentHash, engine: 'extractive', model: null, prompt_version: null, cache_key: 'k', generated_at: '2024-01-01T00:00:00Z',
      transcript_summary: { key_facts: [marker('m1', 'transcript', t), stale], key_opinions: [], key_datapoints: [], topic_areas: [], word_count: 1, total_markers: 2 },
      comments_summary: { key_facts_from_comments: [marker('m2', 'comments', c)], key_opinions_from_comments: [], key_datapoints_from_comments: [], major_themes: [], sentiment_overview: 'mixed', top_engagement_markers: [], total_comments: 1, total_markers: 1 },
      coverage: { transcript: null, comments: null }, usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
    };
    const shown = itemMarkersView(city, markers).groups.flatMap((g) => g.markers);
    assert.deepEqual(shown.map((m) => m.location), ['Daniel · 0:09', null, '@ridewithlena · 214 likes · 2024-03-14']);
    assert.match(shown[0]!.where!, /^transcript\.vtt:\d+/);
  });

  test('the report\'s source list: where in words first, then the part and the file\'s lines', () => {
    const city = demo.items.find((i) => i.id === 'city-cycling-podcast')!;
    const second = unit(city, 'transcript', 1);
    const src = storedRange(mapSpan(city, { part: 'transcript', ...second })!);
    const span = { source_id: 'S1', item_id: city.id, part: 'transcript' as const, ...second, source: src };
    assert.equal(describeSource(3, span, city), `[3] Daniel · 0:09 · Protected Bike Lanes: What the Data Says — transcript · ${src.file}:L${src.startLine + 1}`);
    // without the item: what the span stored; the id stands for the title
    assert.equal(describeSource(3, span), `[3] Daniel · 0:09 · city-cycling-podcast — transcript · ${src.file}:L${src.startLine + 1}`);
    // brackets of a title are escaped (not a citation)
    assert.match(describeSource(1, span, { ...city, title: 'Episode [3] *live*' }), /^\[1\] Daniel · 0:09 · Episode \\\[3\\\] \\\*live\\\* — /);
  });
});

/** Sentence parts per language: a meeting's turns and a thread's comments are composed from them (seeded). */
const PARTS: Record<LocationLanguage, { subjects: string[]; verbs: string[]; objects: string[]; title: string }> = {
  en: { subjects: ['The committee', 'Our team', 'The mayor', 'Everyone here'], verbs: ['discussed', 'approved', 'questioned', 'postponed'], objects: ['the budget for the new bike lanes', 'the schedule of the next phase', 'the results of the survey', 'the cost of the heating system'], title: 'Planning meeting' },
  zh: { subjects: ['委员会', '我们团队', '市长', '在座各位'], verbs: ['讨论了', '批准了', '质疑了', '推迟了'], objects: ['新自行车道的预算', '下一阶段的时间表', '调查的结果', '供暖系统的成本'], title: '规划会议' },
  es: { subjects: ['El comité', 'Nuestro equipo', 'La alcaldesa', 'Todos aquí'], verbs: ['discutió', 'aprobó', 'cuestionó', 'aplazó'], objects: ['el presupuesto de los nuevos carriles bici', 'el calendario de la siguiente fase', 'los resultados de la encuesta', 'el coste de la calefacción'], title: 'Reunión de planificación' },
};

describe('locationLabel in the language of the text (generated items)', () => {
  let dir: string;
  let corpus: Corpus;
  const LANGS: LocationLanguage[] = ['en', 'zh', 'es'];
  const SEEDS = 4;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-location-lang-'));
    for (const lang of LANGS) {
      const P = PARTS[lang];
      for (let seed = 0; seed < SEEDS; seed++) {
        const pick = <T>(xs: T[], i: number): T => xs[(seed * 7 + i * 3) % xs.length]!;
        const sentence = (i: number): string => `${pick(P.subjects, i)} ${pick(P.verbs, i + 1)} ${pick(P.objects, i + 2)}${lang === 'zh' ? '。' : '.'}`;
        const id = `${lang}-${seed}`;
        await mkdir(path.join(dir, id));
        // No timestamps (labels say the turn); an English title on a Chinese or Spanish item must not decide the words.
        await writeFile(path.join(dir, id, 'transcript.json'), JSON.stringify({ turns: Array.from({ length: 6 + seed }, (_, i) => ({ speaker: `S${i % 2}`, text: `${sentence(i)} ${sentence(i + 5)}` })) }));
        await writeFile(path.join(dir, id, 'comments.jsonl'), Array.from({ length: 3 }, (_, i) => JSON.stringify({ id: `c${i}`, text: `${sentence(i + 2)} ${sentence(i + 3)}`, likes: i === 0 ? 0 : i === 1 ? 1 : 1200 + seed })).join('\n'));
        await writeFile(path.join(dir, id, 'meta.json'), JSON.stringify({ title: seed % 2 ? 'Episode 12' : P.title }));
        // Caption lines without speakers or times, a blank line every few (so a line's number in the file is not its segment's).
        const lines = Array.from({ length: 8 + seed }, (_, i) => sentence(i + seed));
        await mkdir(path.join(dir, `${id}-captions`));
        await writeFile(path.join(dir, `${id}-captions`, 'transcript.txt'), lines.map((l, i) => (i % (2 + seed) === 1 ? `\n${l}` : l)).join('\n'));
      }
    }
    corpus = await loadCorpus(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('turns, likes, comment numbers and further comments in each item\'s language; the language option overrides', () => {
    let checked = 0;
    for (const lang of LANGS) {
      const W = locationWords(lang);
      for (let seed = 0; seed < SEEDS; seed++) {
        const item = corpus.items.find((i) => i.id === `${lang}-${seed}`)!;
        const n = item.transcript!.segments.length;
        for (let k = 0; k < n; k++) {
          const a = unit(item, 'transcript', k);
          assert.equal(locationLabel(item, 'transcript', a.start, a.end, { title: false }), `S${k % 2} · ${W.turn(k + 1)}`, `${item.id} turn ${k + 1}`);
          if (k + 1 < n) {
            const b = unit(item, 'transcript', k + 1);
            assert.equal(locationLabel(item, 'transcript', a.start, b.end, { title: false }), `S${k % 2}, S${(k + 1) % 2} · ${W.turns(k + 1, k + 2)}`, `${item.id} turns ${k + 1}–${k + 2}`);
          }
          checked++;
        }
        const [c0, c1, c2] = [0, 1, 2].map((i) => unit(item, 'comments', i));
        assert.equal(locationLabel(item, 'comments', c0!.start, c0!.end, { title: false }), W.commentNo(1), `${item.id}: no likes said for 0`);
        assert.equal(locationLabel(item, 'comments', c1!.start, c1!.end, { title: false }), `${W.commentNo(2)} · ${W.likes(1)}`);
        assert.equal(locationLabel(item, 'comments', c1!.start, c2!.end, { title: false }), `${W.commentNo(2)} · ${W.likes(1)} · ${W.moreComments(1)}`);
        assert.equal(locationLabel(item, 'comments', c2!.start, c2!.end, { title: false, language: 'en' }), `comment #3 · ${(1200 + seed).toLocaleString('en-US')} likes`);
      }
    }
    assert.ok(checked > 60, `${checked} turn labels`);
    // the words themselves: one table per language, none of them English but the English one
    assert.deepEqual(
      [locationWords('zh').turn(3), locationWords('es').turns(2, 4), locationWords('zh').likes(1520), locationWords('es').likes(1), locationWords('zh').comments(3), locationWords('es').comments(1)],
      ['第 3 次发言', 'turnos 2–4', '1,520 赞', '1 me gusta', '3 条评论', '1 comentario'],
    );
  });

  test('a transcript without speakers or times (caption lines, plain text): the file\'s line or lines, in the item\'s language — never turns', () => {
    let checked = 0;
    for (const lang of LANGS) {
      const W = locationWords(lang);
      for (let seed = 0; seed < SEEDS; seed++) {
        const item = corpus.items.find((i) => i.id === `${lang}-${seed}-captions`)!;
        const segs = item.transcript!.segments;
        assert.ok(segs.length >= 8 && segs.every((sg) => !sg.speaker && sg.start === undefined), item.id);
        for (let k = 0; k < segs.length; k++) {
          const a = unit(item, 'transcript', k);
          const line = segs[k]!.source.startLine + 1;
          assert.equal(locationLabel(item, 'transcript', a.start, a.end, { title: false }), W.line(line), `${item.id} segment ${k}`);
          if (k + 2 < segs.length) {
            const c = unit(item, 'transcript', k + 2);
            assert.equal(locationLabel(item, 'transcript', a.start, c.end, { title: false }), W.lines(line, segs[k + 2]!.source.startLine + 1), `${item.id} segments ${k}–${k + 2}`);
          }
          checked++;
        }
        assert.ok(segs.some((sg, k) => sg.source.startLine !== k), `${item.id}: file lines differ from segment numbers`);
      }
    }
    assert.ok(checked > 100, `${checked} labels`);
    assert.deepEqual([locationWords('en').lines(3, 5), locationWords('es').line(7), locationWords('zh').lines(2, 4)], ['lines 3–5', 'línea 7', '第 2–4 行']);
  });

  test('a stored span (no item at hand) takes the language it is given', () => {
    const src = { file: 'comments.jsonl', startLine: 0, commentIds: ['abc', 'def', 'ghi'] };
    assert.equal(storedLocationLabel(src, 'comments'), 'comment abc · +2 comments');
    assert.equal(storedLocationLabel(src, 'comments', undefined, 'zh'), '评论 abc · 另 2 条评论');
    assert.equal(storedLocationLabel(src, 'comments', undefined, 'es'), 'comentario abc · +2 comentarios');
  });
});
