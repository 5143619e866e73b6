/**
 * Offline research goals (issue 12): stopword lists in three languages, Spanish detection, goals
 * built from distinctive topics in the corpus's language that name the items they cover, and no
 * question about commenters where there are no comments. Fixtures are generated: a small Spanish
 * podcast corpus whose speech is full of fillers ("creo", "bien", "ahí", "hacer", "tío").
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { detectLanguage, detectLanguageEsEnZh } from '../../src/core/llm/langDetect';
import { extractItem } from '../../src/core/markers/extractive';
import { TopicStats, topicCandidates } from '../../src/core/markers/keyphrases';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { distinctiveTopics, goalLanguage, itemNoun, scopeText, shortTitle } from '../../src/core/research/goalTopics';
import { extractiveGoals, extractivePlanSteps } from '../../src/core/research/plan';
import { openSession, type Session } from '../../src/core/research/session';
import { isStopword, isStopwordTopic } from '../../src/core/text/stopwords';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** The stopword topics issue 12 saw as goals on the Spanish podcast corpus, and more of their kind. */
const SPANISH_FILLERS = ['creo', 'bien', 'ahí', 'hacer', 'tío', 'gente', 'cosa', 'cosas', 'sabes', 'bueno', 'pues', 'vale', 'entonces', 'hecho'];

/** Spanish items: each talks about its own subject, wrapped in the same fillers. */
const ES_ITEMS: { id: string; title: string; words: string[] }[] = [
  { id: 'ep-hacker', title: 'Alcasec en Ibiza: los secretos del hacker que cambió el juego 💻', words: ['ciberseguridad', 'contraseñas', 'hackers', 'policía', 'prisión', 'servidores'] },
  { id: 'ep-boxeo', title: 'Campeón del mundo: disciplina, combate y gimnasio | Podcast', words: ['combate', 'entrenamiento', 'campeón', 'gimnasio', 'rivales', 'cinturón'] },
  { id: 'ep-zapas', title: 'Zapatillas de colección en Madrid', words: ['zapatillas', 'coleccionistas', 'reventa', 'marcas', 'tiendas', 'ediciones'] },
  { id: 'ep-startups', title: 'Startups en Londres: inversores, rondas y patinetes eléctricos', words: ['inversores', 'startups', 'financiación', 'patinetes', 'rondas', 'fundadores'] },
];

/** Caption lines of one item: its words in sentences a speaker says, fillers everywhere. */
function spanishTranscript(words: readonly string[]): string {
  const [a, b, c, d, e, f] = words as [string, string, string, string, string, string];
  const lines = [
    `Bueno, creo que ahí la ${a} es bien importante, tío, porque los ${b} cambian todo el rato.`,
    `O sea, hay que hacer las cosas bien con la ${a}, sabes, y con los ${c} también.`,
    `En 2021 conté 340 ${b} distintos y creo que el 45 por ciento tenían problemas de ${d}.`,
    `Pues la gente no sabe lo que pasa ahí con los ${e}, tío, y eso hay que hacerlo bien.`,
    `Creo que los ${c} y la ${d} explican casi todo lo que pasó con los ${f} aquel año.`,
    `Entonces vale, tuvimos 12 ${e} nuevos en un mes y la ${a} mejoró un 30 por ciento.`,
    `Yo pienso que deberíamos hablar más de ${d} y de ${f}, porque ahí está la clave de los ${b}.`,
    `Bueno, sabes, hacer ${c} bien cuesta mucho, creo que nadie lo cuenta así.`,
    `La verdad es que los ${f} y los ${e} me parecen lo mejor de la ${a} hoy en día.`,
    `Al final, tío, la ${d} depende de los ${b} y de cómo se organizan los ${c}.`,
  ];
  return lines.join('\n') + '\n';
}

async function writeSpanishCorpus(root: string): Promise<void> {
  for (const it of ES_ITEMS) {
    const dir = path.join(root, it.id);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'meta.json'), JSON.stringify({ title: it.title, source: 'YouTube', video_id: it.id, language: 'es' }));
    await writeFile(path.join(dir, 'transcript.txt'), spanishTranscript(it.words));
  }
}

/** Extractive markers of every item (in memory; nothing is written). */
function markersOf(corpus: Corpus): Map<string, ItemMarkers> {
  const stats = new TopicStats();
  for (const item of corpus.items) stats.addDocument(topicCandidates(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`));
  return new Map(
    corpus.items.map((item) => [
      item.id,
      { item_id: item.id, title: item.title, content_hash: item.contentHash, engine: 'extractive', model: null, prompt_version: null, cache_key: 'k', generated_at: '', ...extractItem(item, stats), usage: { promptTokens: 0, completionTokens: 0, calls: 0 } } satisfies ItemMarkers,
    ]),
  );
}

async function sessionOf(corpus: Corpus): Promise<Session> {
  return openSession({ corpus, engine: 'extractive', promptsDir: PROMPTS, markers: markersOf(corpus) });
}

/** The topics a Spanish topic goal names: "¿Qué se dice sobre A, B y C en …?". */
function namedTopics(title: string): string[] {
  const m = /sobre (.+?) en [«\d]/u.exec(title);
  return m ? m[1]!.split(/, | y /u).map((t) => t.trim()) : [];
}

describe('stopwords (English, Spanish, Chinese)', () => {
  test('the fillers issue 12 saw as goal topics are stopwords; real topics are not', () => {
    for (const w of SPANISH_FILLERS) assert.ok(isStopwordTopic(w, 'es'), w);
    for (const w of ['Ahí', 'AHI', 'Creo']) assert.ok(isStopwordTopic(w, 'es'), `${w} (case and accents do not matter)`);
    for (const w of ['ciberseguridad', 'zapatillas', 'movilidad eléctrica', 'nueva york', 'centro comercial']) assert.ok(!isStopwordTopic(w, 'es'), w);
    for (const w of ['I mean', 'people', 'gonna', 'the lanes', 'things']) assert.ok(isStopwordTopic(w, 'en'), w);
    for (const w of ['remote work', 'new york', 'protected bike lanes', 'coffee']) assert.ok(!isStopwordTopic(w, 'en'), w);
    for (const w of ['然后', '就是', '我们', '东西', '二十']) assert.ok(isStopwordTopic(w, 'zh'), w);
    for (const w of ['续航', '区块', '教育']) assert.ok(!isStopwordTopic(w, 'zh'), w);
  });

  test('phrases: a function word at either end, or stopwords only, make no topic', () => {
    // "primer round": both words are stopwords-iso words (es "primer", en "round"), so it is stopwords only.
    for (const p of ['tengo muchas', 'así decirlo', 'hacían era', 'cierta parte', 'mucha gente', 'ahí tío', 'cada vídeo', 'acuerdo perfectamente', 'primer round']) assert.ok(isStopwordTopic(p, 'es'), p);
    for (const p of ['pequeño nicolás', 'carrera política', 'primer combate']) assert.ok(!isStopwordTopic(p, 'es'), p);
    assert.ok(isStopword('literalmente', 'es'), 'adverbs in -mente');
    assert.ok(isStopword('2021', 'es') && isStopword('cincuenta', 'es'), 'numbers');
    assert.ok(!isStopword('era', 'en'), 'Spanish lists do not apply to an English corpus ("era" is a topic there)');
  });
});

describe('language detection with Spanish', () => {
  test('Spanish, English and Chinese; detectLanguage itself is unchanged', () => {
    assert.equal(detectLanguageEsEnZh('Creo que la gente no sabe lo que pasa ahí con los servidores'), 'es');
    assert.equal(detectLanguageEsEnZh('¿Qué opinas?'), 'es');
    assert.equal(detectLanguageEsEnZh('I think people do not know what goes on with the servers'), 'en');
    assert.equal(detectLanguageEsEnZh('今天我们讨论一下新的排名系统'), 'zh');
    assert.equal(detectLanguageEsEnZh(''), 'en');
    assert.equal(detectLanguage('Creo que la gente no sabe lo que pasa'), 'en', 'the two-language detector keeps its contract');
  });
});

describe('titles and scopes in goal sentences', () => {
  test('short titles: emoji, id parentheses and subtitles go; short titles stay whole', () => {
    assert.equal(shortTitle('Cena Millonaria con Pep Gómez: Secretos de un Emprendedor de Éxito | Podcast en Cipriani, Londres 🍝💼'), 'Cena Millonaria con Pep Gómez');
    assert.equal(shortTitle('Katy Perry - Roar'), 'Katy Perry - Roar');
    assert.equal(shortTitle('VCSum meeting 102 (bilibili av415021211)'), 'VCSum meeting 102');
    assert.equal(shortTitle('Coffee Prices (2024)'), 'Coffee Prices (2024)');
    const cut = shortTitle('Parliamentary committee meeting about education and schools education_18');
    assert.ok(cut.endsWith('education_18') && cut.includes('…') && [...cut].length <= 44, cut);
  });

  test('a scope names one item by its title, several by count and titles (a shared beginning once)', () => {
    assert.equal(scopeText('es', 'video', ['Ilia Topuria: Su Título Mundial y Su Mente Prodigiosa en una larga charla']), '«Ilia Topuria»');
    assert.equal(scopeText('en', 'meeting', ['Committee meeting covid_6', 'Committee meeting covid_8']), '2 meetings: Committee meeting covid_6; covid_8');
    assert.equal(scopeText('en', 'video', ['A video', 'B video', 'C video', 'D video']), '4 videos: A video; B video; C video and 1 more');
    assert.equal(scopeText('zh', 'meeting', ['会议一', '会议二']), '2 场会议（会议一、会议二）');
  });
});

describe('offline goals on a Spanish corpus (generated fixture)', () => {
  let root: string;
  let corpus: Corpus;
  let s: Session;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-goals-es-'));
    await writeSpanishCorpus(root);
    corpus = await loadCorpus(root);
    assert.equal(corpus.items.length, ES_ITEMS.length);
    s = await sessionOf(corpus);
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('the corpus is Spanish and its items are videos', () => {
    assert.equal(goalLanguage(s.inputs), 'es');
    assert.equal(itemNoun(corpus.items), 'video');
  });

  test('goals are Spanish questions; none is about a stopword, none asks about comments', () => {
    const goals = extractiveGoals(s, 5);
    assert.ok(goals.length >= 3, `goals: ${goals.map((g) => g.title).join(' | ')}`);
    for (const g of goals) {
      assert.match(g.title, /^¿.+\?$/u, g.title);
      assert.doesNotMatch(g.title, /What|items say|commenters/u, g.title);
      assert.doesNotMatch(g.title, /comentarista/u, `no comments in the corpus: ${g.title}`);
      assert.doesNotMatch(g.rationale, /extractive, no model/u, g.rationale);
    }
    assert.match(goals[0]!.title, /^¿Cuáles son los principales hechos, opiniones y datos de los 4 vídeos\?$/u);
    const topics = goals.slice(1).flatMap((g) => namedTopics(g.title));
    assert.ok(topics.length >= 2, `topics: ${topics.join(', ')}`);
    for (const t of topics) {
      assert.ok(!isStopwordTopic(t, 'es'), `stopword topic "${t}"`);
      assert.ok(!SPANISH_FILLERS.includes(t.toLowerCase()), `filler topic "${t}"`);
    }
    const subjects = new Set(ES_ITEMS.flatMap((it) => it.words));
    assert.ok(topics.some((t) => subjects.has(t.toLowerCase())), `the goals name the items' subjects: ${topics.join(', ')}`);
  });

  test('a topic goal names the items it covers and is supported by their markers', () => {
    const goals = extractiveGoals(s, 5).slice(1);
    for (const g of goals) {
      const titles = g.item_ids.map((id) => corpus.items.find((it) => it.id === id)!.title);
      if (titles.length === 1) assert.ok(g.title.includes(`«${shortTitle(titles[0]!)}»`), `${g.title} names ${titles[0]}`);
      else assert.ok(g.title.includes(`${titles.length} vídeos`), g.title);
      assert.ok(g.marker_ids.length > 0, `${g.title}: supporting markers`);
      const own = new Set(g.item_ids);
      for (const m of g.marker_ids) assert.ok(own.has(m.split(':')[0]!), `marker ${m} belongs to the goal's items`);
    }
    assert.ok(shortTitle(ES_ITEMS[0]!.title) === 'Alcasec en Ibiza', 'emoji and subtitle are dropped');
  });

  test('distinctive topics: no stopword label, each cluster supported by markers of its items', () => {
    const clusters = distinctiveTopics(s.inputs, 'es', 6);
    assert.ok(clusters.length >= 2);
    for (const c of clusters) {
      for (const l of c.labels) assert.ok(!isStopwordTopic(l, 'es'), l);
      assert.ok(c.markerIds.length > 0 && c.itemIds.length > 0 && c.score > 0);
      assert.ok(c.df >= c.itemIds.length && c.df < corpus.items.length, `df ${c.df}`);
    }
  });

  test('plan steps of a Spanish goal are labelled in Spanish; no reception step without comments', () => {
    const goal = extractiveGoals(s, 5)[0]!;
    const steps = extractivePlanSteps(s, goal, 'medium');
    assert.deepEqual(steps.map((st) => st.goal.split(':')[0]), ['Hechos y datos', 'Opiniones y argumentos']);
  });
});

describe('offline goals on the demo corpus (English, Chinese items, comments)', () => {
  let corpus: Corpus;
  before(async () => {
    corpus = await loadCorpus(DEMO);
  });

  test('with comments the overview asks how commenters respond; without, it does not', async () => {
    const withComments = extractiveGoals(await sessionOf(corpus), 5);
    assert.match(withComments[0]!.title, /^What are the main facts, opinions and figures in all 5 videos, and how do commenters respond\?$/u);
    const bare: Corpus = { ...corpus, items: corpus.items.map((it) => ({ ...it, comments: undefined })) };
    const goals = extractiveGoals(await sessionOf(bare), 5);
    assert.equal(goals[0]!.title, 'What are the main facts, opinions and figures in all 5 videos?');
    for (const g of goals) assert.doesNotMatch(g.title, /commenter/u, g.title);
  });

  test('every topic goal is about named items, no stopword topics; deep plans add topic steps without the overview', async () => {
    const s = await sessionOf(corpus);
    const goals = extractiveGoals(s, 5);
    assert.ok(goals.length >= 3);
    for (const g of goals.slice(1)) {
      assert.match(g.title, /^What (is said|do commenters say) about .+ in (".+"|\d+ videos: .+)\?$/u, g.title);
      const topics = /about (.+?) in ["\d]/u.exec(g.title)![1]!.split(/, | and /u);
      for (const t of topics) assert.ok(!isStopwordTopic(t, 'en'), t);
    }
    const topicOnly = extractiveGoals(s, 2, { overview: false });
    assert.ok(topicOnly.every((g) => !g.title.startsWith('What are the main facts')), 'no overview among deep-dive topics');
    const deep = extractivePlanSteps(s, goals[0]!, 'deep');
    assert.ok(deep.some((st) => st.step_id.endsWith('-topic')), 'deep plans dive into topics');
  });
});
