/**
 * Role labels belong to their item (issue 21): a speaker label that is a role or an anonymous id
 * ("Project Manager", "PhD C", "speaker_3", "Moderador", "主持人") is a different person in each
 * item, a name ("Kirsty Williams AM") one person across items. Labels and meeting corpora are
 * generated from parts with a seeded generator, in English, Spanish and Chinese: several meetings
 * with the same role labels and generic ids, plus named people shared across meetings.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { askCorpus, describeQuery } from '../../src/core/ask/ask';
import { EntityIndex, ENTITY_INDEX_VERSION } from '../../src/core/ask/entityIndex';
import { entityStrategy } from '../../src/core/ask/strategies/entity';
import { classifySpeakerLabel, genericMentions, genericNumber, wordCaseOf } from '../../src/core/ask/speakerLabels';
import type { AskContext } from '../../src/core/ask/types';
import { understandWithRules } from '../../src/core/ask/understandRules';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const shuffle = <T>(r: () => number, xs: readonly T[]): T[] => xs.map((x) => [r(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);

const EN_FIRST = ['Kirsty', 'Huw', 'Lynne', 'Darren', 'Aisha', 'Tomasz', 'Priya', 'Oluwaseun', 'Margaret', 'Declan', 'Ingrid', 'Rafael'];
const EN_LAST = ['Williams', 'Morris', 'Neagle', 'Okafor', 'Nakamura', 'Lindqvist', 'Fairbairn', 'Castellanos', 'Whitcombe', 'Adeyemi'];
const ES_FIRST = ['Lucía', 'Jordi', 'Pep', 'Ximena', 'Iñaki', 'Carmen', 'Rocío', 'Gonzalo', 'Begoña', 'Maite'];
const ES_LAST = ['Gómez', 'Ferrer', 'Ibarra', 'Zubizarreta', 'Arrieta', 'Quintana', 'Villalobos', 'Echeverría'];
const ZH_SURNAMES = ['王', '陈', '刘', '赵', '孙', '欧阳', '郭', '林', '徐', '黄'];
const ZH_GIVEN = ['启蒙', '晓峰', '丽娟', '志强', '雨桐', '嘉怡', '建华', '思远', '婉清', '子轩'];

describe('classifySpeakerLabel: generated labels of each class, three languages', () => {
  const r = rng(21);
  test('generic ids: a noun of anonymous ids (or none) before a number or letter; letter codes after role nouns', () => {
    const labels: string[] = [];
    for (const noun of ['speaker', 'Speaker', 'SPEAKER', 'spk', 'Spk', 'S', 'participant', 'Participant', 'hablante', 'Hablante', 'Orador', 'interlocutor', 'persona', '说话人', '發言人', '发言人', '参与者', '嘉宾']) {
      for (const sep of ['', ' ', '_', '-']) labels.push(`${noun}${sep}${pick(r, ['1', '3', '07', '12', '00'])}`);
    }
    for (const noun of ['PhD', 'Grad', 'Professor', 'Postdoc', 'Undergrad', 'Dr.', 'Guest', 'Interviewer', 'Moderadora']) for (const code of 'ABCDF') labels.push(`${noun} ${code}`);
    for (let i = 0; i < 20; i++) labels.push(`${pick(r, ['ME', 'FE', 'MN', 'FN', 'P', 'S'])}${String(Math.floor(r() * 1000)).padStart(3, '0')}`);
    labels.push('A', 'B', '7', '1号', '嘉宾甲', 'Unknown', 'Desconocido', '未知', 'VO', 'INT', 'Q');
    for (const h of ['学生', '网友', '观众', '记者', '用户']) labels.push(`${h}${pick(r, ['甲', '乙', 'A', 'B', '2', '3'])}`);
    for (const l of labels) assert.equal(classifySpeakerLabel(l).kind, 'generic', l);
    // A noun unknown to the lexicon with letter codes: a scheme when the item has the same noun with other letters.
    const siblings = ['Zorblat A', 'Zorblat C', 'Zorblat F'];
    for (const l of siblings) assert.equal(classifySpeakerLabel(l, { siblings }).kind, 'generic', l);
    assert.equal(classifySpeakerLabel('Malcolm X').kind, 'name', 'a lone name with a letter stays a name');
  });

  test('roles: heads with modifiers before them, complements after of/de, articles, capitals; Chinese heads and modifiers', () => {
    const labels: string[] = [];
    const heads = ['Manager', 'Director', 'Designer', 'Lead', 'Host', 'Coordinator', 'Moderator', 'Presenter', 'Interviewer', 'Chair', 'Expert'];
    for (const m of ['Project', 'Product', 'Senior', 'Acting', 'Art', 'Account', 'Industrial', 'Marketing', 'Zorblat']) labels.push(`${m} ${pick(r, heads)}`);
    for (const h of heads) labels.push(h, `The ${h}`, h.toUpperCase());
    labels.push('Marketing', 'User Interface', 'Audience Member', 'Note Taker', 'Hosts', 'Minister of Finance', 'Leader of the Opposition', 'Chair of the Zorblat Committee', 'THE COURT', 'Parent', 'Voiceover', 'Señora');
    for (const h of ['Presentador', 'Presentadora', 'Moderador', 'Moderadora', 'Entrevistador', 'Invitada', 'Periodista', 'Anfitriona', 'Jefa', 'Tertuliano']) labels.push(h, `El ${h}`.replace(/^El (\S+a)$/u, 'La $1'));
    for (const h of ['Jefe', 'Director', 'Directora', 'Responsable']) labels.push(`${h} de ${pick(r, ['Proyecto', 'Marketing', 'Zorblat', 'Operaciones'])}`);
    labels.push('Gerente General', 'Director Adjunto');
    for (const h of ['主持人', '记者', '嘉宾', '老师', '委员', '主任', '觀眾', '主持']) labels.push(h);
    for (const m of ['项目', '产品', '技术', '市场']) labels.push(`${m}${pick(r, ['经理', '总监', '主管', '部'])}`);
    for (const l of labels) assert.equal(classifySpeakerLabel(l).kind, 'role', l);
  });

  test('names: plain, with honorifics, post-nominals, titles, parentheses and apposition; Chinese surnames and titles', () => {
    const cases: [string, string][] = [];
    for (let i = 0; i < 40; i++) {
      const [first, last] = i % 2 ? [pick(r, EN_FIRST), pick(r, EN_LAST)] : [pick(r, ES_FIRST), pick(r, ES_LAST)];
      const name = `${first} ${last}`;
      const form = pick(r, [
        [name, name], [`${name} AM`, name], [`Ms. ${name}`, name], [`Hon. ${name} (Minister of Zorblat)`, name], [`Right Hon. ${name} (Papineau, Lib.)`, name],
        [`The Chair (Hon. ${name} (Nipissing, Lib.))`, name], [`The Acting Chair (Mrs. ${name})`, name], [`Speaker 2 (${name})`, name], [`Host: ${name}`, name],
        [`Professor ${last}`, last], [`Presidente ${last}`, last], [`Dr. ${last}`, last], [`Chief Justice ${last}`, last], [name.toUpperCase(), name.toUpperCase()],
      ] as [string, string][]);
      cases.push(form);
    }
    for (let i = 0; i < 20; i++) {
      const full = `${pick(r, ZH_SURNAMES)}${pick(r, ZH_GIVEN)}`;
      const s = pick(r, ZH_SURNAMES.filter((x) => x.length === 1));
      cases.push(pick(r, [[full, full], [`主持人${full}`, full], [`${s}老师`, `${s}老师`], [`${s}主任`, `${s}主任`], [`${s}总`, `${s}总`]] as [string, string][]));
    }
    for (const [label, name] of cases) assert.deepEqual(classifySpeakerLabel(label), { kind: 'name', name }, label);
  });

  test('the item\'s own capitalisation: a word its text writes in lower case is a common word, not a name', () => {
    const text = ['The zorblat said the budget is fine.', 'Our zorblat agreed; the zorblat will check it.'];
    assert.equal(classifySpeakerLabel('Zorblat').kind, 'name');
    assert.equal(classifySpeakerLabel('Zorblat', { wordCase: wordCaseOf(text) }).kind, 'role');
    assert.equal(classifySpeakerLabel('Fairbairn', { wordCase: wordCaseOf(['Then Fairbairn said the budget is fine.', 'I agree with Fairbairn.']) }).kind, 'name');
  });

  test('generic numbers and generic ids written in a question, across languages', () => {
    for (const [label, n] of [['speaker_3', 3], ['SPEAKER 03', 3], ['说话人12', 12], ['Hablante 2', 2], ['S1', 1]] as const) assert.equal(genericNumber(label), n, label);
    assert.equal(genericNumber('Project Manager'), undefined);
    assert.deepEqual(genericMentions('说话人3对预算怎么看').map((m) => m.n), [3]);
    assert.deepEqual(genericMentions('¿Qué dijo el hablante 2 y speaker 7?').map((m) => m.n), [2, 7]);
  });
});

interface Lang {
  code: 'en' | 'es' | 'zh';
  roles: readonly string[];
  names: () => string;
  topics: readonly string[];
  shared: string;
  sentence: (topic: string, r: () => number) => string;
  ask: (role: string, topic: string) => string;
  askGeneric: (n: number, topic: string) => string;
  follow: (topic: string) => string;
  inItem: (q: string, token: string) => string;
}

const LANGS: Lang[] = [
  {
    code: 'en',
    roles: ['Project Manager', 'Marketing', 'Industrial Designer', 'User Interface', 'Account Director', 'Art Lead'],
    names: () => '',
    topics: ['casing', 'battery', 'scroll wheel', 'rubber', 'solar cell', 'remote', 'banana shape', 'voice control'],
    shared: 'budget',
    sentence: (t, r) => pick(r, [`I think the ${t} matters a lot for us.`, `We should look again at the ${t} before Friday.`, `The ${t} costs more than we planned.`, `Honestly the ${t} is what users notice first.`]),
    ask: (role, t) => `What did the ${role.toLowerCase()} say about the ${t}?`,
    askGeneric: (n, t) => `What did speaker ${n} say about the ${t}?`,
    follow: (t) => `And what did he think about the ${t}?`,
    inItem: (q, token) => q.replace(/\?$/u, ` in ${token}?`),
  },
  {
    code: 'es',
    roles: ['Moderador', 'Presentador', 'Entrevistador', 'Periodista', 'Director de Marketing'],
    names: () => '',
    topics: ['diseño', 'precio', 'batería', 'carcasa', 'mando', 'pantalla', 'contrato', 'calendario'],
    shared: 'presupuesto',
    sentence: (t, r) => pick(r, [`Creo que el ${t} es muy importante para nosotros.`, `Tenemos que revisar el ${t} antes del viernes.`, `El ${t} cuesta más de lo previsto.`, `Sinceramente el ${t} es lo primero que se nota.`]),
    ask: (role, t) => `¿Qué dijo el ${role.toLowerCase()} sobre el ${t}?`,
    askGeneric: (n, t) => `¿Qué dijo el hablante ${n} sobre el ${t}?`,
    follow: (t) => `¿Y qué opina él del ${t}?`,
    inItem: (q, token) => q.replace(/\?$/u, ` en ${token}?`),
  },
  {
    code: 'zh',
    roles: ['主持人', '记者', '项目经理', '产品经理', '技术总监'],
    names: () => '',
    topics: ['外壳', '电池', '屏幕', '价格', '合同', '渠道', '供应链', '包装'],
    shared: '预算',
    sentence: (t, r) => pick(r, [`我觉得${t}对我们很重要。`, `我们周五之前要再看一下${t}。`, `${t}的成本比计划的高。`, `说实话用户最先注意到的就是${t}。`]),
    ask: (role, t) => `${role}对${t}怎么看？`,
    askGeneric: (n, t) => `说话人${n}对${t}怎么看？`,
    follow: (t) => `他对${t}怎么看？`,
    inItem: (q, token) => `在${token}里，${q}`,
  },
];

const nameOf = (lang: Lang, r: () => number): string =>
  lang.code === 'zh' ? `${pick(r, ZH_SURNAMES)}${pick(r, ZH_GIVEN)}` : lang.code === 'es' ? `${pick(r, ES_FIRST)} ${pick(r, ES_LAST)}` : `${pick(r, EN_FIRST)} ${pick(r, EN_LAST)}`;

interface Meetings {
  lang: Lang;
  ctx: AskContext;
  itemIds: string[];
  /** The role asked about (every meeting has it) and the other roles. */
  role: string;
  /** A named person who speaks in `namedIn` meetings. */
  person: string;
  namedIn: string[];
  /** Each item's own topic (its role speaks about it and about the shared one). */
  topicOf: Map<string, string>;
  /** The short code in each item id ("KQ2041c" of "en-KQ2041c"). */
  tokenOf: Map<string, string>;
}

/** `n` meetings in `lang`: each with the same role labels and generic ids (speaker_1…3), one named person in several of them. */
function meetings(lang: Lang, seed: number, n: number): Meetings {
  const r = rng(seed);
  const roles = shuffle(r, lang.roles).slice(0, 3);
  const role = roles[0]!;
  const person = nameOf(lang, r);
  const items: CorpusItem[] = [];
  const topicOf = new Map<string, string>();
  const tokenOf = new Map<string, string>();
  const topics = shuffle(r, lang.topics);
  const namedIn: string[] = [];
  for (let i = 0; i < n; i++) {
    const token = `${pick(r, ['KQ', 'ES', 'TS', 'IB'])}${1000 + Math.floor(r() * 9000)}${'abcd'[i % 4]}`;
    const id = `${lang.code}-${token}`;
    tokenOf.set(id, token);
    const topic = topics[i % topics.length]!;
    topicOf.set(id, topic);
    const labels = [...roles, 'speaker_1', 'speaker_2', 'speaker_3'];
    if (i % 2 === 0) {
      labels.push(person);
      namedIn.push(id);
    }
    const turns: { text: string; speaker: string }[] = [];
    for (let t = 0; t < 36; t++) {
      const speaker = labels[t % labels.length]!;
      // Every speaker talks about the shared topic; the meeting's own topic too.
      const text = `${lang.sentence(lang.shared, r)} ${lang.sentence(t % 2 ? topic : pick(r, topics), r)}`;
      turns.push({ text, speaker });
    }
    items.push(itemOf(id, { transcript: transcriptPart(turns, `${id}.json`) }));
  }
  const corpus: Corpus = { root: '/nonexistent', items, problems: [], stats: { items: items.length, transcripts: items.length, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 } };
  const ctx: AskContext = { corpus, index: CorpusIndex.build(corpus), entities: EntityIndex.build(corpus).index, markers: new Map() };
  return { lang, ctx, itemIds: items.map((i) => i.id), role, person, namedIn, topicOf, tokenOf };
}

/** The items of the entity strategy's candidates for a question (all of them, not only the top hits). */
function entityItems(m: Meetings, question: string, itemId?: string, session: string[] = []): { items: Set<string>; q: ReturnType<typeof understandWithRules> } {
  const q = understandWithRules({ question, ...(itemId ? { itemId } : {}), session }, { entities: m.ctx.entities, corpus: m.ctx.corpus });
  const out = entityStrategy.run(q, itemId ? { itemIds: [itemId] } : {}, m.ctx) as { list: { itemId: string; why?: string }[] };
  for (const c of out.list) if (c.why?.startsWith('speaker ') && q.entities.some((e) => e.speakerItems)) assert.ok(c.why.endsWith(` · ${c.itemId}`), `a role's hit says whose it is: ${c.why}`);
  return { items: new Set(out.list.map((c) => c.itemId)), q };
}

describe('role labels belong to their item: generated meeting corpora in three languages', () => {
  for (const lang of LANGS) {
    for (const seed of [1, 2, 3]) {
      const m = meetings(lang, seed * 97 + lang.code.length, 4 + seed % 2);

      test(`${lang.code} #${seed}: the entity index keys a role and a generic id per item, a name across items`, () => {
        const lookup = [...m.ctx.entities.names().values()].flat();
        const roleEntries = lookup.filter((k) => k.kind === 'speaker' && k.name === m.role);
        assert.equal(roleEntries.length, m.itemIds.length, 'one entity per (item, role)');
        for (const k of roleEntries) assert.equal(k.itemIds.length, 1);
        assert.equal(lookup.filter((k) => k.kind === 'speaker' && k.name === 'speaker_2').length, m.itemIds.length, 'one entity per (item, generic id)');
        const person = lookup.filter((k) => k.kind === 'speaker' && k.name === m.person);
        assert.equal(person.length, 1, 'a named speaker is one entity');
        assert.deepEqual([...person[0]!.itemIds].sort(), [...m.namedIn].sort());
        for (const id of m.itemIds) {
          assert.equal(m.ctx.entities.roleKind(id, m.role), 'role');
          assert.equal(m.ctx.entities.roleKind(id, 'speaker_3'), 'generic');
          assert.equal(m.ctx.entities.roleKind(id, m.person), undefined);
        }
        assert.ok(ENTITY_INDEX_VERSION >= 2, 'the persisted format changed: version bumped');
      });

      test(`${lang.code} #${seed}: with an item in focus, the role's hits come from that item only and say so`, async () => {
        for (const x of m.itemIds) {
          const { items, q } = entityItems(m, lang.ask(m.role, lang.shared), x);
          assert.deepEqual(q.entities[0]?.speakerItems, [x]);
          assert.deepEqual([...items], [x]);
          const res = await askCorpus(m.ctx, { question: lang.ask(m.role, lang.shared), itemId: x });
          assert.ok(describeQuery(res.query).includes(`${m.role} · ${x}`), describeQuery(res.query));
          assert.ok(res.hits.filter((h) => h.matchedBy.includes('entity')).every((h) => h.itemId === x));
          assert.ok(!res.notes.some((n) => /Which one/.test(n)), 'nothing to ask with an item in focus');
        }
      });

      test(`${lang.code} #${seed}: with no item in focus, the answer says which items have the role and asks which one`, async () => {
        const question = lang.ask(m.role, lang.shared);
        const { items, q } = entityItems(m, question);
        assert.deepEqual([...(q.entities[0]?.speakerItems ?? [])].sort(), [...m.itemIds].sort());
        assert.ok(items.size > 1, 'hits of several items, each saying whose role it is');
        const res = await askCorpus(m.ctx, { question });
        const note = res.notes.find((n) => n.includes(JSON.stringify(m.role)));
        assert.ok(note, `a note about ${m.role}: ${res.notes.join(' | ')}`);
        assert.ok(note.includes(`${m.itemIds.length} items`) && m.itemIds.every((id) => note.includes(id)), note);
        assert.match(note, /Which one/);
        assert.ok(describeQuery(res.query).includes(`${m.role} · ${m.itemIds.length} items`), describeQuery(res.query));
        // A generic id too ("speaker 2", "hablante 2", "说话人2" for speaker_2).
        const g = understandWithRules({ question: lang.askGeneric(2, lang.shared) }, { entities: m.ctx.entities, corpus: m.ctx.corpus });
        assert.equal(g.entities[0]?.label, 'speaker_2');
        assert.equal(g.entities[0]?.speakerItems?.length, m.itemIds.length);
        const gr = await askCorpus(m.ctx, { question: lang.askGeneric(2, lang.shared) });
        assert.ok(gr.notes.some((n) => n.includes('"speaker_2"') && /anonymous speaker id/.test(n)), gr.notes.join(' | '));
      });

      test(`${lang.code} #${seed}: a pronoun after a question about a role resolves within the item in focus, or the item the question named`, async () => {
        const first = lang.ask(m.role, lang.shared);
        for (const x of m.itemIds) {
          const follow = lang.follow(m.topicOf.get(x)!);
          const { items, q } = entityItems(m, follow, x, [first]);
          const e = q.entities.find((en) => en.fromSession);
          assert.equal(e?.label, m.role, `${follow} → ${JSON.stringify(q.entities)}`);
          assert.deepEqual(e?.speakerItems, [x]);
          assert.deepEqual([...items], [x]);
        }
        // No item in focus, but the earlier question named one: the pronoun is that item's speaker.
        const y = m.itemIds[m.itemIds.length - 1]!;
        const named = lang.inItem(first, m.tokenOf.get(y)!);
        const { items, q } = entityItems(m, lang.follow(m.topicOf.get(y)!), undefined, [named]);
        assert.deepEqual(q.entities.find((en) => en.fromSession)?.speakerItems, [y], JSON.stringify(q.entities));
        assert.deepEqual([...items], [y], 'no other meeting\'s speaker answers for the pronoun');
        const res = await askCorpus(m.ctx, { question: lang.follow(m.topicOf.get(y)!), session: [named] });
        assert.ok(!res.notes.some((n) => /Which one/.test(n)), res.notes.join(' | '));
        // No item in focus and none named: the pronoun's role is in every meeting, and the answer asks which.
        const open = await askCorpus(m.ctx, { question: lang.follow(lang.shared), session: [first] });
        assert.ok(open.notes.some((n) => n.includes(JSON.stringify(m.role)) && /earlier question/.test(n) && /Which one/.test(n)), open.notes.join(' | '));
      });

      test(`${lang.code} #${seed}: a named person stays one entity across meetings`, async () => {
        const question = lang.code === 'zh' ? `${m.person}对${lang.shared}怎么看？` : lang.code === 'es' ? `¿Qué dijo ${m.person} sobre el ${lang.shared}?` : `What did ${m.person} say about the ${lang.shared}?`;
        const { items, q } = entityItems(m, question);
        const e = q.entities.find((en) => en.label === m.person);
        assert.ok(e, JSON.stringify(q.entities));
        assert.equal(e.speakerItems, undefined);
        assert.deepEqual([...e.itemIds].sort(), [...m.namedIn].sort());
        assert.deepEqual([...items].sort(), [...m.namedIn].sort(), 'hits from every meeting the person speaks in');
        const res = await askCorpus(m.ctx, { question });
        assert.ok(!res.notes.some((n) => /Which one/.test(n)));
      });
    }
  }

  test('a name a generic id introduced itself with speaks as that id in its own item only', () => {
    const r = rng(5);
    for (let trial = 0; trial < 4; trial++) {
      const name = `${pick(r, ZH_SURNAMES.filter((s) => s.length === 1))}${pick(r, ZH_GIVEN)}`;
      const other = pick(r, ['外壳', '电池', '屏幕']);
      const a = itemOf('zh-A', { transcript: transcriptPart([
        { speaker: 'speaker_1', text: '欢迎大家，我们开始讨论预算。' },
        { speaker: 'speaker_2', text: `大家好，我叫${name}，我来说说预算。` },
        { speaker: 'speaker_1', text: `好的，请${name}继续。` },
        { speaker: 'speaker_2', text: '我觉得预算要控制在一半以内。' },
      ], 'a.json') });
      const b = itemOf('zh-B', { transcript: transcriptPart([
        { speaker: 'speaker_1', text: `上次${name}提到了预算的问题。` },
        { speaker: 'speaker_2', text: `我对${other}和预算都有担心。` },
        { speaker: 'speaker_3', text: '预算今年比较紧张。' },
      ], 'b.json') });
      const corpus: Corpus = { root: '/nonexistent', items: [a, b], problems: [], stats: { items: 2, transcripts: 2, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 } };
      const ctx: AskContext = { corpus, index: CorpusIndex.build(corpus), entities: EntityIndex.build(corpus).index, markers: new Map() };
      const q = understandWithRules({ question: `${name}对预算怎么看？` }, { entities: ctx.entities, corpus });
      const e = q.entities.find((en) => en.label === name);
      assert.ok(e, JSON.stringify(q.entities));
      assert.equal(e.speaker, 'speaker_2');
      assert.deepEqual(e.speakerItems, ['zh-A']);
      const out = entityStrategy.run(q, {}, ctx) as { list: { itemId: string; why?: string }[] };
      const speaking = out.list.filter((c) => c.why?.startsWith('speaker'));
      assert.ok(speaking.length > 0 && speaking.every((c) => c.itemId === 'zh-A'), JSON.stringify(out.list));
    }
  });
});
