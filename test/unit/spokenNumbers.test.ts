/**
 * Number recognition (issue 11): digits and spoken numbers in English, Chinese and Spanish, with
 * the unit that makes them a data point. The labelled sentences below were written by hand (the
 * Spanish and Chinese ones after the shapes seen in the podcast and meeting corpora); every
 * positive must be found with its kind and value, every negative must not count as a data point.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findNumbers, hasDataPoint, type NumberMention } from '../../src/core/text/spokenNumbers';
import { assertNearLinear } from '../support/scaling';

/** [sentence, expected mentions as [text, kind, value]]; an empty list is a negative. */
type Labelled = [string, Array<[string, NumberMention['kind'], number]>];

const ENGLISH: Labelled[] = [
  ['The filter cuts everything above ninety hertz.', [['ninety hertz', 'measure', 90]]],
  ['We have had four meetings on this so far.', [['four meetings', 'count', 4]]],
  ['About twenty five percent of the users dropped out.', [['twenty five percent', 'percent', 25]]],
  ['The grant is two point five million dollars.', [['two point five million dollars', 'money', 2_500_000]]],
  ['That was back in nineteen ninety eight.', [['nineteen ninety eight', 'date', 1998]]],
  ['Our survey of 1,200 employees found that 64 percent work from home.', [['1,200 employees', 'count', 1200], ['64 percent', 'percent', 64]]],
  ['Arabica futures closed at 2.31 dollars per pound on Friday.', [['2.31 dollars', 'money', 2.31]]],
  ['The deadline is March 3, 2019.', [['March 3, 2019', 'date', 3]]],
  ['It takes half an hour to train.', [['half an hour', 'duration', 0.5]]],
  ['We need ten to a hundred hours to train the tools.', [['ten to a hundred hours', 'duration', 10]]],
  ['Onboarding takes about three weeks longer.', [['three weeks', 'duration', 3]]],
  ['Latency went down to 40 ms.', [['40 ms', 'duration', 40]]],
  ['The battery lost range below minus ten degrees.', [['ten degrees', 'measure', 10]]],
  ['It costs $2.5 million a year.', [['$2.5 million', 'money', 2_500_000]]],
  ['Let us meet at 8:30 pm.', [['8:30 pm', 'date', 8.5]]],
  ['Twenty twenty was a hard year.', [['Twenty twenty', 'date', 2020]]],
  ['We sampled at eight kilohertz and used a five-minute window.', [['eight kilohertz', 'measure', 8], ['five-minute', 'duration', 5]]],
  ['A hundred and twenty people came.', [['A hundred and twenty people', 'count', 120]]],
  ['The one that we used before is better.', []],
  ['First of all, thanks for coming.', []],
  ['I only have a couple of comments.', []],
  ['One of the things I noticed is the noise.', []],
  ['Once a week we meet.', []],
  ['That is the second point.', []],
  ['Point eight is the threshold.', []],
  ['There are two things I want to say.', []],
  ['No one knows.', []],
  ['Wait one second.', []],
  ['Just a moment, one more thing.', []],
  ['Everyone has an opinion on the first draft.', []],
];

const CHINESE: Labelled[] = [
  ['百分之三十的用户选择了退出。', [['百分之三十', 'percent', 30]]],
  ['这个项目做了三个月。', [['三个月', 'duration', 3]]],
  ['门票两千元一张。', [['两千元', 'money', 2000]]],
  ['现场来了二十多个人。', [['二十多个人', 'count', 20]]],
  ['公司去年营收3.5亿。', [['3.5亿', 'number', 350_000_000]]],
  ['2019年我们开始做区块链。', [['2019年', 'date', 2019]]],
  ['泰晤士报在 09 年的 1 月 3 号发表了文章。', [['09 年', 'date', 9], ['1 月', 'date', 1], ['3 号', 'date', 3]]],
  ['成本年均下降10.9%。', [['10.9%', 'percent', 10.9]]],
  ['续航掉了百分之三十八。', [['百分之三十八', 'percent', 38]]],
  ['测试路线全长一百二十公里。', [['一百二十公里', 'measure', 120]]],
  ['他花了十分钟就完成了。', [['十分钟', 'duration', 10]]],
  ['九十年代的时候大家都用这个。', [['九十年代', 'date', 90]]],
  ['我们有三家公司参与。', [['三家', 'count', 3]]],
  ['173 亿的销售额里面，汽车占了很大一部分。', [['173 亿', 'number', 17_300_000_000]]],
  ['这三成的收入来自海外。', [['三成', 'percent', 30]]],
  ['我们地平线和 14 个企业签了合作。', [['14 个', 'count', 14]]],
  ['它的 28 纳米工艺已经落后了。', [['28 纳米', 'measure', 28]]],
  ['这是一个很好的问题。', []],
  ['第一是炒币，第二是开会。', []],
  ['我们一起讨论一下。', []],
  ['这个十分重要。', []],
  ['万一失败了怎么办？', []],
  ['千万不要这样做。', []],
  ['我觉得一定要做。', []],
  ['唯一的办法就是坚持。', []],
  ['一方面是成本，另一方面是效率。', []],
  ['七上八下的心情。', []],
  ['对于基础设施建设这一块，我们还要再看。', []],
  ['这两个行业都需要长时间的积累。', []],
  ['中国的汽车零部件有核心竞争力。', []],
  ['小学三年级他对计算机不是太有兴趣。', []],
];

const SPANISH: Labelled[] = [
  ['El veinte por ciento de los clientes se fue.', [['veinte por ciento', 'percent', 20]]],
  ['Invirtieron tres millones de euros en la empresa.', [['tres millones de euros', 'money', 3_000_000]]],
  ['La reunión duró cuarenta y cinco minutos.', [['cuarenta y cinco minutos', 'duration', 45]]],
  ['Empezamos en 2019 con dos personas.', [['2019', 'date', 2019], ['dos personas', 'count', 2]]],
  ['tío tiene 19 años o sea', [['19 años', 'duration', 19]]],
  ['reclamaban 400.000 euros y no los tenía', [['400.000 euros', 'money', 400_000]]],
  ['no sé si a las 8:15 me dice dónde estás', [['8:15', 'date', 8.25]]],
  ['tiene que comerse 6 horas de viaje', [['6 horas', 'duration', 6]]],
  ['durante 40 días todos los días', [['40 días', 'duration', 40]]],
  ['facturamos 250.000 dólares el primer año', [['250.000 dólares', 'money', 250_000]]],
  ['dos mil diecinueve fue un gran año', [['dos mil diecinueve', 'date', 2019]]],
  ['trabajamos con cuatro empresas', [['cuatro empresas', 'count', 4]]],
  ['quedamos a las nueve de la mañana', [['nueve', 'date', 9]]],
  ['hace tres años que empecé', [['tres años', 'duration', 3]]],
  ['ganó un millón de euros con eso', [['un millón de euros', 'money', 1_000_000]]],
  ['el 3 de enero de 2020 salió el vídeo', [['3 de enero de 2020', 'date', 3]]],
  ['el coste por mil visitas era del 1,5%', [['mil visitas', 'count', 1000], ['1,5%', 'percent', 1.5]]],
  ['uno nunca sabe lo que pasa', []],
  ['una de las cosas más importantes', []],
  ['es la primera vez que vengo', []],
  ['dos cosas te digo', []],
  ['o sea no sé', []],
  ['los dos lo sabemos', []],
  ['mil gracias por venir', []],
  ['de uno en uno', []],
  ['este año ha sido duro', []],
  ['una vez más gracias', []],
];

function check(cases: Labelled[]): void {
  for (const [sentence, expected] of cases) {
    const found = findNumbers(sentence);
    for (const m of found) assert.equal(sentence.slice(m.start, m.end), m.text, `offsets of ${m.text} in ${sentence}`);
    if (!expected.length) {
      assert.equal(hasDataPoint(sentence), false, `no data point in "${sentence}" (found ${JSON.stringify(found)})`);
      continue;
    }
    assert.equal(hasDataPoint(sentence), true, `a data point in "${sentence}"`);
    for (const [text, kind, value] of expected) {
      const m = found.find((x) => x.text === text);
      assert.ok(m, `"${text}" found in "${sentence}" (found ${JSON.stringify(found.map((x) => x.text))})`);
      assert.equal(m.kind, kind, `kind of "${text}"`);
      assert.equal(m.value, value, `value of "${text}"`);
    }
  }
}

describe('spoken and written numbers in three languages', () => {
  test('the fixture has at least fifteen labelled sentences per language, positives and negatives', () => {
    for (const cases of [ENGLISH, CHINESE, SPANISH]) {
      assert.ok(cases.length >= 15);
      assert.ok(cases.filter(([, e]) => e.length).length >= 10);
      assert.ok(cases.filter(([, e]) => !e.length).length >= 8);
    }
  });
  test('English: units, percentages, money, spoken years, ranges; not pronoun "one", "a couple" or ordinals', () => check(ENGLISH));
  test('Chinese: 百分之, 个月, 元, 多个人, 亿, 年代; not 一个, 第一, 十分, 万一, 千万, 这一块', () => check(CHINESE));
  test('Spanish: por ciento, millones de euros, y cinco minutos, en 2019; not uno pronoun, primera vez, mil gracias', () => check(SPANISH));

  test('values of spoken numbers', () => {
    const v = (s: string): number | undefined => findNumbers(s)[0]?.value;
    assert.equal(v('two thousand and nine people'), 2009);
    assert.equal(v('three hundred thousand dollars'), 300_000);
    assert.equal(v('one and a half hours'), 1.5);
    assert.equal(v('seventy-five percent'), 75);
    assert.equal(v('novecientos noventa y nueve euros'), 999);
    assert.equal(v('dos mil millones de dólares'), 2e9);
    assert.equal(v('三万五千元'), 35_000);
    assert.equal(v('一千二百万人'), 12_000_000);
    assert.equal(v('二〇一九年'), 2019);
    assert.equal(findNumbers('二〇一九年')[0]!.kind, 'date');
    assert.equal(v('三点五公里'), 3.5);
    assert.equal(v('5k users'), 5000);
  });

  test('bounded work on large and hostile inputs', async () => {
    const inputs = [
      'We had four meetings and twenty five percent of the budget. '.repeat(40_000), // 2.4 MB
      '1'.repeat(3_000_000),
      'twenty '.repeat(300_000),
      '一二三四五六七八九十百千万亿'.repeat(150_000),
      '百分之'.repeat(500_000),
      'x '.repeat(1_000_000),
    ];
    for (const s of inputs) {
      const found = findNumbers(s);
      for (const m of found.slice(0, 100)) assert.equal(s.slice(m.start, m.end), m.text);
    }
    assert.equal(findNumbers(inputs[0]!).length, 80_000);
    // The work grows linearly with each input's length (a quarter of it against the whole).
    for (const s of inputs) await assertNearLinear({ name: `findNumbers(${JSON.stringify(s.slice(0, 12))}…)`, n: Math.floor(s.length / 4), prepare: (n) => s.slice(0, n), run: (x: string) => findNumbers(x), tries: 2 });
  });
});
