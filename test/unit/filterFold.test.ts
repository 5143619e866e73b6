import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  confidenceInformative, filterCountText, indexItems, matchItem, noMatchText, parseFilter, sortItems, textMatches,
} from '../../src/shared/sidebarModel';
import { SIMPLIFIED, TRADITIONAL } from '../../src/shared/hanziVariants';
import { foldedMatches, foldText } from '../../src/shared/textFold';
import type { ItemSummary, MarkerGroup, MarkerKindName, MarkerSummary } from '../../src/shared/webviewProtocol';

const finds = (query: string, text: string): boolean => textMatches(parseFilter(query).terms, text);

describe('foldText: case, accents, width and Chinese script fold away', () => {
  test('accents: "nicolas" finds "Nicolás", and the other way round', () => {
    assert.equal(foldText('Nicolás'), 'nicolas');
    assert.ok(finds('nicolas', 'El Pequeño Nicolás habla'));
    assert.ok(finds('Nicolás', 'nicolas'));
    assert.ok(finds('pequeno', 'Pequeño'));
    assert.ok(finds('creme brulee', 'Crème Brûlée'));
    assert.ok(finds('sao paulo', 'São Paulo'));
  });
  test('width: "ＡＢＣ" finds "abc"; full-width digits fold to ASCII', () => {
    assert.equal(foldText('ＡＢＣ'), 'abc');
    assert.ok(finds('ＡＢＣ', 'abc'));
    assert.ok(finds('abc', 'ＡＢＣ'));
    assert.ok(finds('2024', '２０２４年'));
    assert.equal(foldText('ｶﾀｶﾅ'), foldText('カタカナ'));
  });
  test('case, ligatures and letters NFKD keeps: ß, ø, ł', () => {
    assert.ok(finds('STRASSE', 'Straße'));
    assert.ok(finds('orsted', 'Ørsted'));
    assert.ok(finds('lodz', 'Łódź'));
    assert.ok(finds('office', 'the oﬃce'));
  });
  test('Chinese: "電動車" finds "电动车" and the other way round', () => {
    assert.equal(foldText('電動車'), '电动车');
    assert.ok(finds('電動車', '电动车冬季续航实测'));
    assert.ok(finds('电动车', '電動車冬季續航實測'));
    assert.ok(finds('續航', '续航四百零五公里'));
    assert.ok(!finds('續航', '今天带大家去成都'));
  });
  test('what must stay apart stays apart', () => {
    assert.ok(!finds('nicolas', 'Nicola'));
    assert.ok(!finds('abc', 'ａｂｄ'));
    assert.equal(foldText('电动车'), '电动车');
  });
  test('the traditional → simplified table is aligned, one character for one', () => {
    const t = [...TRADITIONAL];
    const s = [...SIMPLIFIED];
    assert.equal(t.length, s.length);
    assert.ok(t.length > 2000);
    assert.equal(new Set(t).size, t.length, 'no traditional character twice');
    for (const [trad, simp] of [['電', '电'], ['動', '动'], ['車', '车'], ['語', '语'], ['國', '国'], ['後', '后']] as const) assert.equal(s[t.indexOf(trad)], simp);
  });
});

// ---- the tree filter over items ----------------------------------------------------------------

let n = 0;
function marker(kind: MarkerKindName, text: string, extra: Partial<MarkerSummary> = {}): MarkerSummary {
  return { id: `m${++n}`, kind, text, topic: '', confidence: 1, grounded: true, engine: 'extractive', where: null, location: null, likes: null, replies: null, speakers: [], ...extra };
}
function item(id: string, title: string, groups: MarkerGroup[], extra: Partial<ItemSummary> = {}): ItemSummary {
  const all = groups.flatMap((g) => g.markers);
  return {
    id, title, transcriptSegments: 10, comments: null, words: 100, publishedAt: null, likes: null, commentLikes: null, speakers: [], transcriptFile: `${id}/transcript.json`, commentsFile: null,
    markers: { engine: 'extractive', model: null, generatedAt: '2024-01-01T00:00:00Z', total: all.length, grounded: all.length, stale: false, topics: [], groups, spamExcluded: 0, confidenceInformative: false },
    markersProblem: null,
    ...extra,
  };
}
const facts = (...markers: MarkerSummary[]): MarkerGroup => ({ key: 'facts', label: 'Facts', markers, values: [] });
const data = (...markers: MarkerSummary[]): MarkerGroup => ({ key: 'data', label: 'Data', markers, values: [] });
const themes = (...values: string[]): MarkerGroup => ({ key: 'themes', label: 'Comment themes', markers: [], values });

const corpus = indexItems([
  item('nico', 'Pequeño Nicolás: la verdad', [facts(marker('FACT', 'Nicolás conoció al rey en 2014'), marker('FACT', 'El juicio empezó tarde')), data(marker('DATA', 'Cobraba 3.000 euros por cita'))]),
  item('ev', '電動車冬季續航實測', [facts(marker('FACT', '第二款车配备热泵，实测续航四百零五公里')), themes('续航 焦虑')]),
  item('cafe', 'Coffee prices', [data(marker('DATA', 'Prices rose 40 percent', { speakers: ['Daniel Ortega'] })), facts(marker('FACT', 'Brazil had a frost'))], { speakers: ['Daniel Ortega', 'Ana'] }),
  item('panel', 'Remote work panel', [facts(marker('FACT', 'Offices are half empty'))], { speakers: ['José Núñez'] }),
]);
const byId = (id: string) => corpus.find((x) => x.item.id === id)!;

describe('matchItem: the tree filter over marker text, topics, speakers and titles', () => {
  test('an empty filter shows everything, opens nothing', () => {
    for (const ix of corpus) {
      const m = matchItem(ix, parseFilter(''));
      assert.ok(m.visible && !m.reveal);
      assert.ok(m.groups.every((g) => g.shown && g.markers.every(Boolean)));
    }
  });
  test('a term in marker text shows that marker only, and reveals it', () => {
    const m = matchItem(byId('cafe'), parseFilter('frost'));
    assert.ok(m.visible && m.reveal);
    assert.equal(m.markers, 1);
    assert.deepEqual(m.groups.map((g) => g.shown), [false, true]);
    assert.ok(!matchItem(byId('nico'), parseFilter('frost')).visible);
  });
  test('"nicolas" (no accent) in the title: the markers naming Nicolás, revealed', () => {
    const m = matchItem(byId('nico'), parseFilter('nicolas'));
    assert.ok(m.visible && m.reveal);
    assert.equal(m.markers, 1);
  });
  test('a title match whose markers do not name the term lists the item with all its markers, closed', () => {
    const m = matchItem(byId('nico'), parseFilter('verdad'));
    assert.ok(m.visible && !m.reveal);
    assert.equal(m.markers, 3);
  });
  test('terms split between title and marker: "nicolas euros"', () => {
    const m = matchItem(byId('nico'), parseFilter('nicolas euros'));
    assert.equal(m.markers, 1);
    assert.ok(m.groups[1]!.markers[0]);
  });
  test('traditional title, simplified query (and values of comment themes)', () => {
    const m = matchItem(byId('ev'), parseFilter('续航'));
    assert.ok(m.visible && m.reveal);
    assert.equal(m.markers, 1);
    assert.equal(m.groups[1]!.count, 1);
  });
  test("the item's topic areas count like its title", () => {
    const it = item('t', 'Cena', [facts(marker('FACT', 'Hablamos de Fever'), marker('FACT', 'Otra cosa'))]);
    it.markers!.topics = ['fever', 'silicon valley'];
    const ix = indexItems([it])[0]!;
    const m = matchItem(ix, parseFilter('ＦＥＶＥＲ'));
    assert.ok(m.visible && m.reveal);
    assert.equal(m.markers, 1);
    const valley = matchItem(ix, parseFilter('valley'));
    assert.ok(valley.visible && !valley.reveal);
    assert.equal(valley.markers, 2);
  });
  test('speakers: a marker by the speaker, or the item where they speak', () => {
    const m = matchItem(byId('cafe'), parseFilter('ortega'));
    assert.equal(m.markers, 1);
    const panel = matchItem(byId('panel'), parseFilter('jose nunez'));
    assert.ok(panel.visible);
    assert.equal(panel.markers, 0);
  });
  test('kinds narrow markers; an item with none of the kinds shown leaves the list', () => {
    const f = parseFilter('', ['FACT', 'OPINION', 'ENGAGEMENT']);
    const m = matchItem(byId('cafe'), f);
    assert.equal(m.markers, 1);
    assert.deepEqual(m.groups.map((g) => g.shown), [false, true]);
    assert.ok(!matchItem(indexItems([item('d', 'Only data', [data(marker('DATA', '5 percent'))])])[0]!, f).visible);
  });
});

describe('the counts line and the "nothing matches" message', () => {
  test('counts follow the filter', () => {
    assert.equal(filterCountText(340, 340, 3412, 3412, false), '340 items · 3,412 markers');
    assert.equal(filterCountText(12, 340, 48, 3412, true), '12 of 340 items · 48 of 3,412 markers');
    assert.equal(filterCountText(1, 1, 1, 1, false), '1 item · 1 marker');
  });
  test('the message names the kinds switched off', () => {
    assert.equal(noMatchText('x', new Set(['FACT', 'OPINION', 'ENGAGEMENT'])), 'No items or markers match "x" with DATA hidden.');
    assert.equal(noMatchText('  x ', new Set(['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'])), 'No items or markers match "x".');
    assert.equal(noMatchText('', new Set(['FACT'])), 'No markers with OPINION, DATA, ENGAGEMENT hidden.');
    assert.match(noMatchText('', new Set()), /Every marker kind is hidden/);
  });
});

describe('sortItems', () => {
  const items = [
    item('b', 'beta', [], { publishedAt: '2023-01-01T00:00:00Z', words: 10, comments: 5, likes: null, commentLikes: 7 }),
    item('a', 'Álpha', [], { publishedAt: null, words: 30, comments: null, likes: 100, commentLikes: 1 }),
    item('c', 'gamma', [], { publishedAt: '2024-06-01T00:00:00Z', words: 20, comments: 2, likes: null, commentLikes: null }),
  ];
  const order = (sort: Parameters<typeof sortItems>[1]): string[] => sortItems(items, sort).map((i) => i.id);
  test('title A→Z (accents aside), the rest largest first, missing values last', () => {
    assert.deepEqual(order('title'), ['a', 'b', 'c']);
    assert.deepEqual(order('date'), ['c', 'b', 'a']);
    assert.deepEqual(order('words'), ['a', 'c', 'b']);
    assert.deepEqual(order('comments'), ['b', 'c', 'a']);
    assert.deepEqual(order('likes'), ['a', 'b', 'c']);
  });
  test('a new array; the input is left as it was', () => {
    const before = items.map((i) => i.id);
    sortItems(items, 'words');
    assert.deepEqual(items.map((i) => i.id), before);
  });
});

describe('confidenceInformative: confidence is shown only when it tells markers apart', () => {
  test('never for the extractive engine, nor when all are equal', () => {
    assert.equal(confidenceInformative('extractive', [{ confidence: 0.2 }, { confidence: 0.9 }]), false);
    assert.equal(confidenceInformative('openai', [{ confidence: 0.8 }, { confidence: 0.8 }]), false);
    assert.equal(confidenceInformative('openai', [{ confidence: 0.8 }]), false);
    assert.equal(confidenceInformative('ollama', [{ confidence: 0.8 }, { confidence: 0.6 }]), true);
  });
});

describe('foldedMatches: what to highlight', () => {
  test('ranges of the original text, whatever was folded', () => {
    const text = 'El Pequeño Nicolás y NICOLAS';
    assert.deepEqual(foldedMatches(text, ['nicolas']).map(([a, b]) => text.slice(a, b)), ['Nicolás', 'NICOLAS']);
    assert.deepEqual(foldedMatches('ＡＢＣ abc', ['abc']), [[0, 3], [4, 7]]);
    assert.deepEqual(foldedMatches('電動車很好', ['电动车']), [[0, 3]]);
  });
  test('overlapping terms merge; nothing to find, nothing to mark', () => {
    assert.deepEqual(foldedMatches('abcdef', ['abc', 'cde']), [[0, 5]]);
    assert.deepEqual(foldedMatches('abc', []), []);
    assert.deepEqual(foldedMatches('abc', ['x']), []);
  });
  test('a letter with a combining accent is one character', () => {
    const text = 'Jose\u0301 Nun\u0303ez';
    assert.deepEqual(foldedMatches(text, ['jose']).map(([a, b]) => text.slice(a, b)), ['Jose\u0301']);
  });
});
