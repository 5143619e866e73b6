/**
 * Generated coreference cases (issue 23): person × reference form × question template × language
 * (English, Spanish, simplified and traditional Chinese) × with or without another entity the
 * question names itself × session of one to three earlier questions, each with the entity labels
 * the question should come out with; and negatives (Spanish articles "la", "lo", "el"; Chinese
 * 其他, 其实, 应该; English words with "he" inside; questions without any reference), which take no
 * person from the session.
 *
 * The corpus is generated too: per language two meetings where the people are speakers (full
 * names, and a role label, "Project Manager", "Moderador", "主持人", that both meetings have, so it
 * is a different person in each), one more person named in the text (English and Spanish: a
 * capitalised name others talk about; Chinese: a generic speaker who introduces themself, "我叫…").
 *
 * Session rules the expectations follow (coreference.ts): a singular reference is the first person
 * of the latest earlier question that named one, skipping the person the question names itself; a
 * plural one is the persons of that question, plus the person of the nearest question before it
 * when it named one only; a possessive after a name of the question is that name's.
 */
import { EntityIndex } from '../../src/core/ask/entityIndex';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import { itemOf, transcriptPart } from './parts';
import { rng } from './testing';

export type CorefLang = 'en' | 'es' | 'zh-Hans' | 'zh-Hant';
export const COREF_LANGS: readonly CorefLang[] = ['en', 'es', 'zh-Hans', 'zh-Hant'];
/** The reference forms of the cases; `none` for the negatives. */
export type CorefForm = 'pronoun' | 'possessive' | 'clitic' | 'null-subject' | 'definite' | 'plural' | 'none';

export interface CorefCase {
  lang: CorefLang;
  form: CorefForm;
  /** The question names another entity itself. */
  withOther: boolean;
  session: string[];
  question: string;
  itemId: string;
  /** Entity strings as `entityStrings` gives them (a speaker's label, a name as written). */
  expected: string[];
  /** The session's person(s) the question refers to (empty for negatives and possessives of its own name). */
  referents: string[];
  /** The latest earlier question named the question's own other entity: the reference skips to the one before. */
  skipsOwn?: boolean;
}

export interface CorefWorld {
  corpus: Corpus;
  entities: EntityIndex;
  cases: CorefCase[];
}

/** A person: the label the corpus gives them, and how a question names them. */
interface Person {
  label: string;
  asked: string;
  /** A role: the same label in both meetings of the language. */
  role?: boolean;
}

const EN_FIRST = ['Kirsty', 'Huw', 'Lynne', 'Darren', 'Aisha', 'Tomasz', 'Priya', 'Oluwaseun', 'Margaret', 'Declan', 'Ingrid', 'Rafael', 'Gwen', 'Malcolm'];
const EN_LAST = ['Williams', 'Morris', 'Neagle', 'Okafor', 'Nakamura', 'Lindqvist', 'Fairbairn', 'Castellanos', 'Whitcombe', 'Adeyemi', 'Pritchard'];
const ES_FIRST = ['Lucía', 'Jordi', 'Ximena', 'Iñaki', 'Carmen', 'Rocío', 'Gonzalo', 'Begoña', 'Maite', 'Álvaro', 'Nuria', 'Rodrigo'];
const ES_LAST = ['Gómez', 'Ferrer', 'Ibarra', 'Zubizarreta', 'Arrieta', 'Quintana', 'Villalobos', 'Echeverría', 'Castaño', 'Olmedo'];
const ZH_SURNAMES = ['王', '陈', '刘', '赵', '孙', '郭', '林', '徐', '黄', '欧阳', '马', '罗'];
const ZH_GIVEN = ['启蒙', '晓峰', '丽娟', '志强', '雨桐', '嘉怡', '建华', '思远', '婉清', '子轩', '明辉', '春燕'];

/** Simplified → traditional for the characters of these templates, names and topics. */
const HANT: Record<string, string> = Object.fromEntries(
  [...'对對说說么麼吗嗎论論评評价價为為这這该該发發们們还還决決个個题題见見观觀点點样樣团團队隊里裡场場时時师師宾賓后後关關两兩议議计計划劃电電预預认認没沒区區处處问問陈陳刘劉赵趙孙孫郭郭黄黃罗羅马馬晓曉丽麗娟娟强強远遠婉婉轩軒辉輝欢歡营營销銷遥遙控控器器户戶调調查查节節讲講论論讨討话話题題么麼谁誰内內容容议議员員长長师師经經从從态態应應实實尤尤级級体體广廣告告间間会會问問术術网網称稱赞贊显顯现現给給听聽应應项項目目产產计計开開头頭结結束束执執为為织織总總欧歐阳陽启啟于於觉覺'.match(/../gu)!.map((p) => [p[0]!, p[1]!])],
);
const toHant = (s: string): string => [...s].map((c) => HANT[c] ?? c).join('');

const TOPICS: Record<CorefLang, readonly string[]> = {
  en: ['budget', 'battery', 'pricing', 'remote control', 'marketing plan', 'deadline', 'user survey'],
  es: ['el presupuesto', 'la batería', 'el precio', 'el mando', 'la campaña', 'el contrato', 'la IA'],
  'zh-Hans': ['预算', '电池', '价格', '遥控器', '营销方案', '用户调查'],
  'zh-Hant': ['预算', '电池', '价格', '遥控器', '营销方案', '用户调查'].map(toHant),
};

/** Sentences for the meetings, with `{t}` a topic and `{n}` the person named in the text. */
const SENTENCES: Record<CorefLang, readonly string[]> = {
  en: ['I think the {t} matters a lot for us.', 'We should look again at the {t} before Friday.', '{n} sent new figures on the {t} yesterday.', 'Honestly the {t} is what users notice first.', 'I talked to {n} about the {t} this morning.'],
  es: ['Creo que {t} es muy importante para nosotros.', 'Tenemos que revisar {t} antes del viernes.', '{n} mandó datos nuevos sobre {t} ayer.', 'Sinceramente {t} es lo primero que se nota.', 'Hablé con {n} de {t} esta mañana.'],
  'zh-Hans': ['我觉得{t}对我们很重要。', '我们周五之前要再看一下{t}。', '{t}的成本比计划的高。', '说实话用户最先注意到的就是{t}。'],
  'zh-Hant': ['我覺得{t}對我們很重要。', '我們週五之前要再看一下{t}。', '{t}的成本比計劃的高。', '說實話用戶最先注意到的就是{t}。'],
};

/** Question templates: `{P}` the reference (a variant of the form), `{X}` another entity the question names, `{T}` a topic. */
interface Template {
  form: CorefForm;
  text: string;
  /** Variants of `{P}`. */
  p?: readonly string[];
  /** The possessive belongs to `{X}`: the question takes no one from the session. */
  ownOnly?: boolean;
}

const EN_HE = ['he', 'she'];
const EN_HIM = ['him', 'her'];
const EN_HIS = ['his', 'her'];
const TEMPLATES: Record<'en' | 'es' | 'zh', readonly Template[]> = {
  en: [
    { form: 'pronoun', text: 'What did {P} say about the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'And what does {P} think of the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'Did {P} mention the {T} at all?', p: EN_HE },
    { form: 'pronoun', text: 'Why was {P} worried about the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'What do the comments say about {P}?', p: EN_HIM },
    { form: 'pronoun', text: 'When did {P} first bring up the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'Did {P} agree with {X} about the {T}?', p: EN_HE },
    { form: 'pronoun', text: "What did {P} say about {X}'s proposal?", p: EN_HE },
    { form: 'pronoun', text: 'How did {X} respond to {P}?', p: EN_HIM },
    { form: 'pronoun', text: 'Does {P} side with {X} on the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'Was {P} convinced by the {T} figures?', p: EN_HE },
    { form: 'pronoun', text: 'What did {P} suggest for the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'Can you show me where {P} talks about the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'Did anyone disagree with {P}?', p: EN_HIM },
    { form: 'pronoun', text: 'Is {P} for or against the {T}?', p: EN_HE },
    { form: 'pronoun', text: 'What did {P} and {X} decide?', p: EN_HE },
    { form: 'pronoun', text: "What was {X}'s reaction to {P}?", p: EN_HIM },
    { form: 'possessive', text: 'What was {P} position on the {T}?', p: EN_HIS },
    { form: 'possessive', text: 'What is {P} role in this meeting?', p: EN_HIS },
    { form: 'possessive', text: 'Summarize {P} arguments about the {T}.', p: EN_HIS },
    { form: 'possessive', text: 'What does {X} say about {P} own plans for the {T}?', p: EN_HIS, ownOnly: true },
    { form: 'possessive', text: 'How did {X} explain {P} view of the {T}?', p: EN_HIS, ownOnly: true },
    { form: 'possessive', text: 'How did people react to {P} comments on the {T}?', p: EN_HIS },
    { form: 'possessive', text: 'What is {P} opinion of {X}?', p: EN_HIS },
    { form: 'possessive', text: 'Did {X} criticise {P} plan for the {T}?', p: ['his'], ownOnly: true },
    { form: 'definite', text: 'What else did {P} say about the {T}?', p: ['the same speaker', 'this speaker', 'that guy', 'this guest'] },
    { form: 'definite', text: 'Did {P} agree with {X}?', p: ['the same speaker', 'this speaker', 'that guy'] },
    { form: 'definite', text: 'What did {P} say next?', p: ['that woman', 'the same person', 'this person', 'that man'] },
    { form: 'plural', text: 'Did {P} agree on the {T}?', p: ['they'] },
    { form: 'plural', text: 'What did {P} decide about the {T}?', p: ['they'] },
    { form: 'plural', text: 'Summarize {P} positions on the {T}.', p: ['their'] },
    { form: 'plural', text: 'What do the comments say about {P}?', p: ['them', 'the two of them'] },
    { form: 'plural', text: 'Did {P} agree with {X} on the {T}?', p: ['they'] },
    { form: 'plural', text: 'How do {P} differ on the {T}?', p: ['they', 'the two speakers'] },
    { form: 'plural', text: 'What did {P} say about the {T}?', p: ['both of them', 'they'] },
    { form: 'plural', text: 'Do {P} agree with each other?', p: ['they'] },
  ],
  es: [
    { form: 'pronoun', text: '¿Y qué dice {P} sobre {T}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Qué dicen los comentarios sobre {P}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Cómo reaccionó {P} ante las críticas a {T}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Está {P} de acuerdo con {X}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Qué dijo {X} sobre {P}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Qué más contó {P}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Y {P} qué piensa de {T}?', p: ['él', 'ella'] },
    { form: 'pronoun', text: '¿Por qué {P} no estaba de acuerdo?', p: ['él', 'ella'] },
    { form: 'clitic', text: '¿Qué {P} preguntaron sobre {T}?', p: ['le'] },
    { form: 'clitic', text: '¿{P} preguntaron por {T}?', p: ['Le'] },
    { form: 'clitic', text: '¿{P} critican los comentarios?', p: ['Lo', 'La'] },
    { form: 'clitic', text: '¿Por qué {P} critican tanto por {T}?', p: ['lo', 'la'] },
    { form: 'clitic', text: '¿Quién {P} invitó al programa?', p: ['lo', 'la'] },
    { form: 'clitic', text: '¿Qué quisieron {P} sobre {T}?', p: ['preguntarle'] },
    { form: 'clitic', text: '¿Hay comentarios {P}?', p: ['criticándolo', 'criticándola'] },
    { form: 'clitic', text: '¿Qué {P} respondió {X}?', p: ['le'] },
    { form: 'clitic', text: '¿Por qué {P} critica {X}?', p: ['lo', 'la'] },
    { form: 'clitic', text: '¿Qué {P} contestaron los oyentes?', p: ['le'] },
    { form: 'clitic', text: '¿{P} apoyan en los comentarios?', p: ['Lo', 'La'] },
    { form: 'clitic', text: '¿Alguien {P} defendió?', p: ['lo', 'la'] },
    { form: 'clitic', text: '¿Cómo {P} describen los comentarios?', p: ['lo', 'la'] },
    { form: 'clitic', text: '¿Quieren {P} otra vez?', p: ['entrevistarlo', 'entrevistarla'] },
    { form: 'clitic', text: '¿Qué {P} parece {T}?', p: ['le'] },
    { form: 'clitic', text: '¿{P} gustó {T}?', p: ['Le'] },
    { form: 'clitic', text: '¿Qué {P} preguntó {X} sobre {T}?', p: ['le'] },
    { form: 'clitic', text: '¿Por qué {P} eligieron para {T}?', p: ['lo', 'la'] },
    { form: 'possessive', text: '¿Y qué opinan de {P} libro?', p: ['su'] },
    { form: 'possessive', text: '¿Cuál es {P} postura sobre {T}?', p: ['su'] },
    { form: 'possessive', text: '¿Qué dicen los comentarios de {P} ideas?', p: ['sus'] },
    { form: 'possessive', text: '¿Qué cuenta {X} sobre {P} experiencia con {T}?', p: ['su'], ownOnly: true },
    { form: 'possessive', text: '¿Cómo explica {X} {P} postura sobre {T}?', p: ['su'], ownOnly: true },
    { form: 'possessive', text: '¿Qué opinan los comentarios de {P} postura sobre {T}?', p: ['su'] },
    { form: 'possessive', text: '¿Cuál es {P} opinión sobre {X}?', p: ['su'] },
    { form: 'null-subject', text: '¿Y qué opina sobre {T}?' },
    { form: 'null-subject', text: '¿Qué dijo después?' },
    { form: 'null-subject', text: '¿Qué piensa de {T}?' },
    { form: 'null-subject', text: '¿Qué propuso para {T}?' },
    { form: 'null-subject', text: '¿Qué ha dicho sobre {T}?' },
    { form: 'null-subject', text: '¿Por qué cree que {T} es importante?' },
    { form: 'null-subject', text: '¿Qué opina de {X}?' },
    { form: 'null-subject', text: '¿Qué dijo sobre la propuesta de {X}?' },
    { form: 'null-subject', text: '¿Está de acuerdo con {X} sobre {T}?' },
    { form: 'null-subject', text: '¿Qué contestó cuando le preguntaron por {T}?' },
    { form: 'null-subject', text: '¿Dónde trabaja ahora?' },
    { form: 'null-subject', text: '¿Qué recomienda para {T}?' },
    { form: 'null-subject', text: '¿Mencionó {T}?' },
    { form: 'null-subject', text: '¿Cómo justificó {T}?' },
    { form: 'null-subject', text: '¿Qué va a hacer con {T}?' },
    { form: 'null-subject', text: '¿Sigue pensando lo mismo de {T}?' },
    { form: 'null-subject', text: '¿Qué respondió a {X}?' },
    { form: 'null-subject', text: '¿Dónde nació?' },
    { form: 'null-subject', text: '¿Cuántos años tiene?' },
    { form: 'null-subject', text: '¿Qué empresa fundó?' },
    { form: 'definite', text: '¿Qué dijo {P} sobre {T}?', p: ['el invitado', 'la invitada'] },
    { form: 'definite', text: '¿Y qué opina {P} de {T}?', p: ['este señor', 'esta persona'] },
    { form: 'definite', text: '¿Está {P} de acuerdo con {X}?', p: ['el invitado', 'la misma persona'] },
    { form: 'definite', text: '¿Qué opina {P} de {T}?', p: ['el entrevistado', 'la entrevistada', 'aquel señor'] },
    { form: 'plural', text: '¿Qué opinan {P} de {T}?', p: ['ellos', 'ellas', 'los dos'] },
    { form: 'plural', text: '¿Qué {P} preguntaron sobre {T}?', p: ['les'] },
    { form: 'plural', text: '¿Qué dicen los comentarios de {P}?', p: ['ellos', 'ambos'] },
    { form: 'plural', text: '¿Están {P} de acuerdo con {X}?', p: ['ellos'] },
    { form: 'plural', text: '¿En qué coinciden {P}?', p: ['los dos', 'ambos'] },
    { form: 'plural', text: '¿Qué {P} parece {T}?', p: ['les'] },
  ],
  zh: [
    { form: 'pronoun', text: '{P}对{T}怎么看？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}还说了什么？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}提到{T}了吗？', p: ['他', '她'] },
    { form: 'pronoun', text: '那{P}最后怎么决定{T}的？', p: ['他', '她'] },
    { form: 'pronoun', text: '评论里怎么评价{P}？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}对{X}的方案怎么看？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}和{X}在{T}上看法一致吗？', p: ['他', '她'] },
    { form: 'pronoun', text: '{X}怎么评价{P}？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}同意{X}关于{T}的说法吗？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}是怎么评价{T}的？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}为什么反对{T}？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}后来改变看法了吗？', p: ['他', '她'] },
    { form: 'pronoun', text: '大家怎么看{P}的观点？', p: ['他', '她'] },
    { form: 'pronoun', text: '{X}同意{P}的看法吗？', p: ['他', '她'] },
    { form: 'pronoun', text: '{P}对{X}提出的{T}有什么意见？', p: ['他', '她'] },
    { form: 'possessive', text: '{P}对{T}的主要观点是什么？', p: ['其'] },
    { form: 'possessive', text: '{X}及{P}团队对{T}怎么看？', p: ['其'], ownOnly: true },
    { form: 'possessive', text: '{P}对{X}的评价如何？', p: ['其'] },
    { form: 'definite', text: '{P}对{T}怎么看？', p: ['这位嘉宾', '那位老师', '该发言人', '这个人'] },
    { form: 'definite', text: '{P}还提到了什么？', p: ['这位', '此人'] },
    { form: 'definite', text: '{P}同意{X}的看法吗？', p: ['这位嘉宾', '这个人'] },
    { form: 'definite', text: '{P}怎么看{T}？', p: ['这位专家', '那位先生', '该嘉宾'] },
    { form: 'plural', text: '{P}对{T}的看法一致吗？', p: ['他们', '她们'] },
    { form: 'plural', text: '{P}在{T}上有什么分歧？', p: ['他们', '两人'] },
    { form: 'plural', text: '评论怎么评价{P}？', p: ['他们', '这两位'] },
    { form: 'plural', text: '{P}和{X}对{T}的看法一样吗？', p: ['他们'] },
    { form: 'plural', text: '{P}对{T}意见一致吗？', p: ['他们两个人', '两位嘉宾'] },
  ],
};

/** Questions with no reference to a person (some with words that look like one), and the entity they name themselves (`{X}`) if any. */
const NEGATIVES: Record<'en' | 'es' | 'zh', readonly string[]> = {
  en: ['What did the speakers say about the {T}?', 'Who spoke about the {T}?', 'Which speaker mentioned the {T} first?', 'Show me the chapter on the {T}.', 'What about the {T}?', 'What is the main topic?', 'Which comments mention the {T}?', 'Where is the shelter in the story?', 'What does the report say about the {T}?', 'Summarize the discussion of the {T}.', 'What are the other options for the {T}?', 'What did {X} say about the {T}?', 'Is there a theme here?'],
  es: [
    '¿Qué es lo importante de {T}?', '¿Qué opinan los comentarios sobre la IA?', '¿Cuál fue la pregunta más comentada?', '¿Qué se dijo sobre {T}?', '¿De qué trata el episodio?',
    '¿Quién habló de {T}?', '¿Qué se comentó sobre {T}?', '¿Cuál es la opinión general sobre {T}?', '¿Hay críticas a {T}?', '¿Qué dicen los oyentes?', '¿Qué cuenta el episodio sobre {T}?', '¿Qué tal está el audio?', '¿Cómo se llama el programa?',
    '¿Qué pasó con {T}?', '¿Qué se aprobó en la reunión?', '¿Cómo se llama el programa?', '¿Cuándo lo fundaron?',
    '¿Qué dice el vídeo sobre {T}?', '¿Qué opina la gente de la IA?', '¿La entrevista fue larga?', '¿Qué pasó con la cuenta del proyecto?', '¿Qué opina {X} de {T}?', '¿Lo mejor del episodio fue {T}?', '¿Qué dice el artículo sobre la crítica?',
  ],
  zh: ['大家对{T}怎么看？', '其中最重要的是什么？', '这期节目讨论了{T}吗？', '谁提到了{T}？', '该话题有什么争议？', '这个问题怎么看？', '其他人对{T}怎么看？', '其实{T}的问题是什么？', '尤其是{T}方面有什么讨论？', '关于{T}讨论了什么？', '应该怎么处理{T}？', '评论区对{T}的看法是什么？', '{X}对{T}怎么看？', '吉他的部分讲了什么？'],
};

/** Earlier questions: naming one person `{A}`, two `{A}` `{B}`, or none. */
const SESSION: Record<'en' | 'es' | 'zh', { one: readonly string[]; two: readonly string[]; none: readonly string[] }> = {
  en: {
    one: ['What did {A} say about the {T}?', 'Who is {A}?', "What was {A}'s main point?", 'Tell me what {A} thinks of the {T}.'],
    two: ['What did {A} and {B} say about the {T}?', 'Did {A} and {B} discuss the {T}?'],
    none: ['What is this meeting about?', 'Which topics came up?', 'Summarize the first part.'],
  },
  es: {
    one: ['¿Qué dijo {A} sobre {T}?', '¿Quién es {A}?', '¿Qué opina {A} de {T}?', '¿Cuál fue la idea principal de {A}?'],
    two: ['¿Qué dijeron {A} y {B} sobre {T}?', '¿Hablaron {A} y {B} de {T}?'],
    none: ['¿De qué trata el episodio?', '¿Qué temas se trataron?', 'Resume la primera parte.'],
  },
  zh: {
    one: ['{A}提出了什么？', '{A}对{T}怎么看？', '{A}是谁？', '{A}说了什么关于{T}的内容？'],
    two: ['{A}和{B}对{T}怎么看？', '{A}和{B}讨论了{T}吗？'],
    none: ['这期节目讲了什么？', '讨论了哪些话题？', '总结一下开头的部分。'],
  },
};

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const shuffle = <T>(r: () => number, xs: readonly T[]): T[] => xs.map((x) => [r(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
const family = (lang: CorefLang): 'en' | 'es' | 'zh' => (lang === 'en' ? 'en' : lang === 'es' ? 'es' : 'zh');

/** A template filled in; Spanish "de el" / "a el" contracted, traditional characters for zh-Hant. */
function fill(lang: CorefLang, text: string, slots: Record<string, string>): string {
  let out = text.replace(/\{(\w)\}/gu, (_, k: string) => slots[k] ?? '');
  if (lang === 'es') out = out.replace(/\b(de|a) el\b/gu, (_, p: string) => (p === 'de' ? 'del' : 'al'));
  return lang === 'zh-Hant' ? toHant(out) : out;
}

/** The people of one language: speakers with full names, a role, one person named in the text. */
function peopleOf(lang: CorefLang, r: () => number): { speakers: Person[]; role: Person; named: Person } {
  if (lang === 'en' || lang === 'es') {
    const [first, last] = lang === 'en' ? [EN_FIRST, EN_LAST] : [ES_FIRST, ES_LAST];
    const firsts = shuffle(r, first);
    const lasts = shuffle(r, last);
    const names = firsts.slice(0, 5).map((f, i) => `${f} ${lasts[i]!}`);
    const speakers = names.slice(0, 4).map((n) => ({ label: n, asked: n }));
    const role = lang === 'en' ? { label: 'Project Manager', asked: 'the project manager', role: true } : { label: 'Moderador', asked: 'el moderador', role: true };
    return { speakers, role, named: { label: names[4]!, asked: names[4]! } };
  }
  const surnames = shuffle(r, ZH_SURNAMES);
  const given = shuffle(r, ZH_GIVEN);
  const conv = lang === 'zh-Hant' ? toHant : (s: string) => s;
  const names = surnames.slice(0, 5).map((s, i) => conv(`${s}${given[i]!}`));
  return { speakers: names.slice(0, 4).map((n) => ({ label: n, asked: n })), role: { label: '主持人', asked: '主持人', role: true }, named: { label: names[4]!, asked: names[4]! } };
}

/** Two meetings of one language: the people speak about the topics; the named person is talked about (or introduces themself). */
function meetingsOf(lang: CorefLang, people: { speakers: Person[]; role: Person; named: Person }, r: () => number): CorpusItem[] {
  const items: CorpusItem[] = [];
  for (const n of [1, 2]) {
    const id = `${lang}-meeting-${n}`;
    const labels = n === 1 ? [...people.speakers.map((p) => p.label), people.role.label] : [people.role.label, 'speaker_1', 'speaker_2'];
    const turns: { speaker: string; text: string }[] = [];
    if (n === 1 && family(lang) === 'zh') turns.push({ speaker: 'speaker_3', text: fill(lang, `大家好，我叫${people.named.label}，我来说说{T}。`, { T: pick(r, TOPICS[lang]) }) });
    for (let t = 0; t < 30; t++) {
      const text = `${pick(r, SENTENCES[lang])} ${pick(r, SENTENCES[lang])}`.replace(/\{t\}/gu, () => pick(r, TOPICS[lang])).replace(/\{n\}/gu, people.named.label);
      turns.push({ speaker: labels[t % labels.length]!, text: text.replace(/^\p{Ll}/u, (c) => c.toUpperCase()) });
    }
    if (n === 1 && family(lang) === 'zh') turns.push({ speaker: 'speaker_3', text: `我是${people.named.label}，我同意大家的看法。` });
    items.push(itemOf(id, { transcript: transcriptPart(turns, `${id}.json`) }));
  }
  return items;
}

/** The string `entityStrings` gives for a person: a speaker's label, a name as written. */
const shown = (p: Person): string => p.label;

interface Build {
  lang: CorefLang;
  people: Person[];
  r: () => number;
}

/** Spanish contracts "de el moderador" to "del moderador", which the entity linker does not read as the role: a role is not put after "de" or "a". */
const contracts = (lang: CorefLang, text: string, slot: string, p: Person | undefined): boolean => lang === 'es' && !!p?.role && new RegExp(`\\b(?:de|a) \\{${slot}\\}`, 'u').test(text);

/** A session of `len` questions whose latest named ones are `latest` (each a question naming one or two people), older ones naming `older` or nobody. */
function sessionWith(b: Build, len: number, named: Person[][], older: Person | null): string[] {
  const f = family(b.lang);
  const s = SESSION[f];
  const topic = (): string => pick(b.r, TOPICS[b.lang]);
  const qs = named.map((ps) => {
    const templates = (ps.length === 2 ? s.two : s.one).filter((t) => !contracts(b.lang, t, 'A', ps[0]) && !contracts(b.lang, t, 'B', ps[1]));
    return fill(b.lang, pick(b.r, templates), { A: ps[0]!.asked, B: ps[1]?.asked ?? '', T: topic() });
  });
  const out = [...qs];
  // Fillers go after the naming questions (the latest that named someone stays the same) or before them, with the older person first.
  while (out.length < len) {
    if (older && out.length === qs.length && b.r() < 0.5) out.unshift(fill(b.lang, pick(b.r, s.one.filter((t) => !contracts(b.lang, t, 'A', older))), { A: older.asked, T: topic() }));
    else if (b.r() < 0.5) out.push(fill(b.lang, pick(b.r, s.none), { T: topic() }));
    else out.unshift(fill(b.lang, pick(b.r, s.none), { T: topic() }));
  }
  return out;
}

/** One case of template `t`. */
function caseOf(b: Build, t: Template, itemId: string): CorefCase {
  const { lang, r } = b;
  let people = shuffle(r, b.people);
  // The role is not the question's other entity where Spanish would contract its article.
  if (contracts(lang, t.text, 'X', people[2])) people = [people[2]!, ...people.slice(0, 2), ...people.slice(3)];
  const [a, c, x, d] = people as [Person, Person, Person, Person];
  const withOther = t.text.includes('{X}');
  const slots: Record<string, string> = { T: pick(r, TOPICS[lang]), X: x.asked, P: t.p ? pick(r, t.p) : '' };
  const question = fill(lang, t.text, slots);
  const len = 1 + Math.floor(r() * 3);
  const other = withOther ? [shown(x)] : [];
  if (t.form === 'plural') {
    // The two people: named together in the latest naming question, or one each in the latest two.
    const split = len >= 2 && r() < 0.5;
    const named = split ? [[c], [a]] : [[a, c]];
    return { lang, form: t.form, withOther, session: sessionWith(b, len, named, null), question, itemId, expected: [...other, shown(a), shown(c)], referents: [shown(a), shown(c)] };
  }
  if (t.ownOnly) {
    return { lang, form: t.form, withOther, session: sessionWith(b, len, [[a]], len >= 2 ? d : null), question, itemId, expected: [shown(x)], referents: [] };
  }
  // The question names the latest earlier person itself: the reference skips to the one before.
  if (withOther && len >= 2 && r() < 0.35) {
    return { lang, form: t.form, withOther, session: sessionWith(b, len, [[a], [x]], null), question, itemId, expected: [shown(x), shown(a)], referents: [shown(a)], skipsOwn: true };
  }
  return { lang, form: t.form, withOther, session: sessionWith(b, len, [[a]], len >= 2 ? d : null), question, itemId, expected: [...other, shown(a)], referents: [shown(a)] };
}

/**
 * The generated corpus and `perTemplate` cases of each template and negative, per language.
 *
 * @param seed the generator's seed: the same seed gives the same world
 */
export function corefWorld(seed: number, perTemplate: number): CorefWorld {
  const r = rng(seed);
  const items: CorpusItem[] = [];
  const builds: Build[] = [];
  for (const lang of COREF_LANGS) {
    const people = peopleOf(lang, r);
    items.push(...meetingsOf(lang, people, r));
    builds.push({ lang, people: [...people.speakers, people.role, people.named], r });
  }
  const corpus: Corpus = { root: '/nonexistent', items, problems: [], stats: { items: items.length, transcripts: items.length, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 } };
  const cases: CorefCase[] = [];
  for (const b of builds) {
    const itemId = `${b.lang}-meeting-1`;
    const f = family(b.lang);
    for (const t of TEMPLATES[f]) for (let k = 0; k < perTemplate; k++) cases.push(caseOf(b, t, itemId));
    for (const neg of NEGATIVES[f]) {
      for (let k = 0; k < perTemplate; k++) {
        const [a, x] = shuffle(r, b.people.filter((p) => !contracts(b.lang, neg, 'X', p))) as [Person, Person];
        const withOther = neg.includes('{X}');
        const question = fill(b.lang, neg, { T: pick(r, TOPICS[b.lang]), X: x.asked });
        cases.push({ lang: b.lang, form: 'none', withOther, session: sessionWith(b, 1 + Math.floor(r() * 3), [[a]], null), question, itemId, expected: withOther ? [shown(x)] : [], referents: [] });
      }
    }
  }
  return { corpus, entities: EntityIndex.build(corpus).index, cases };
}

/** Case-insensitive containment either way, each used once (the `eval ask` grading); true when every expected string matched and nothing else came out. */
export function sameEntities(predicted: readonly string[], expected: readonly string[]): boolean {
  if (predicted.length !== expected.length) return false;
  const used = new Set<number>();
  for (const g of expected) {
    const y = g.trim().toLowerCase();
    const i = predicted.findIndex((p, j) => {
      const x = p.trim().toLowerCase();
      return !used.has(j) && (x === y || x.includes(y) || y.includes(x));
    });
    if (i < 0) return false;
    used.add(i);
  }
  return true;
}
