/**
 * The fixed words of a research report (and of what reads it back, such as chat), in English,
 * Chinese and Spanish: headings, the "Across the corpus" line, the data table, "Not covered", the
 * banners at the top. One table per language, so a report is never half in one language and half
 * in another. An offline report is written in its items' language (`goalLanguage`: the language
 * its plan's step labels are in). Nothing here is escaped: callers write these words as they are
 * and escape what they put into them (titles, names, causes).
 *
 * @example
 * const W = reportWords('es');
 * W.sources                          // 'Fuentes'
 * W.mentionedIn(7, 12, 'video')      // 'mencionado en 7 de 12 vídeos'
 */
import type { NumberKind } from '../text/spokenNumbers';
import type { NotCovered } from './schema';

/** The languages a report is written in. */
export type ReportLanguage = 'en' | 'zh' | 'es';

/** What the items of a corpus are called ("3 meetings", "3 vídeos", "3 个视频"). */
export type ItemKindNoun = 'meeting' | 'video' | 'item';

/** Why an item is listed under "Not covered" (the plan's reasons, and `deferred`: read only in part). */
export type NotCoveredReason = NotCovered['reason'] | 'deferred';

/** The fixed words of a report in one language. */
export interface ReportWords {
  lang: ReportLanguage;
  /** Title of an offline report / of a model run's fallback. */
  extractiveTitle: string;
  fallbackTitle: string;
  /** The blockquote under the title of an offline report. */
  extractiveNote: string;
  /** "12 findings citing 12 source spans, from 2 steps." */
  countLine(findings: number, sources: number, steps: number): string;
  /** The header line's labels: `_Goal: … · complexity: … · engine: … · run …_`. */
  goal: string;
  complexity: string;
  engine: string;
  run: string;
  /** The engine of an offline run, as the header line says it. */
  extractiveEngine: string;
  noFindings: string;
  /** Said under a step none of whose findings uses the question's words (they are the items' key points instead). */
  keyPointsInstead: string;
  chapter(n: number): string;
  acrossPhases: string;
  /** The lead-in of a step's counts line ("Across the corpus"). */
  acrossCorpus: string;
  /** "Mentioned in 7 of 12 meetings". */
  mentionedIn(k: number, total: number, noun: ItemKindNoun): string;
  /** "Findings from 3 of 12 meetings" (a step whose question names no topic). */
  findingsFrom(k: number, total: number, noun: ItemKindNoun): string;
  /** "3 speakers" / "5 commenters" among a step's findings. */
  speakers(n: number): string;
  commenters(n: number): string;
  /** Joins the parts of the counts line. */
  listSeparator: string;
  /** Opening and closing quotation marks of a quoted finding. */
  quote: [string, string];
  /** The data table: its heading, its columns, and what a figure measures when only its kind is known. */
  data: string;
  dataColumns: [figure: string, measures: string, who: string, where: string];
  numberKind: Record<NumberKind, string>;
  sources: string;
  notCovered: string;
  /** "3 items of the 12 in the goal's scope were researched by no step, …" */
  notCoveredIntro(n: number, scopeSize: number | undefined): string;
  notCoveredReason: Record<NotCoveredReason, string>;
  /** "and 5 more" after the titles listed for a reason. */
  andMore(n: number): string;
  /** Separates the titles listed for a reason. */
  titleSeparator: string;
  /** The banner of a fallback report: why the model did not write it (`why` already escaped). */
  fallbackBanner(why: string): string;
  /** The banner of a partial run (`failure` already escaped). */
  partialBanner(failure: string): string;
  /** One line per planning note (`note` already escaped). */
  planningNote(note: string): string;
}

const EN_NOUNS: Record<ItemKindNoun, [string, string]> = { meeting: ['meeting', 'meetings'], video: ['video', 'videos'], item: ['item', 'items'] };
const ES_NOUNS: Record<ItemKindNoun, [string, string]> = { meeting: ['reunión', 'reuniones'], video: ['vídeo', 'vídeos'], item: ['contenido', 'contenidos'] };
/** Chinese: the measure word and the noun ("场" "会议"). */
const ZH_NOUNS: Record<ItemKindNoun, [string, string]> = { meeting: ['场', '会议'], video: ['个', '视频'], item: ['个', '内容项'] };

const en = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const EN: ReportWords = {
  lang: 'en',
  extractiveTitle: 'Research report (extractive)',
  fallbackTitle: '⚠ FALLBACK report (not written by the model)',
  extractiveNote:
    '> Extractive report: no model was used. Under each step, the sentences of the corpus that speak most to its question, best first, each with who said it and where; every citation opens its span in the item, highlighted (the original file is one click away).',
  countLine: (f, s, st) => `${en(f, 'finding')} citing ${en(s, 'source span')}, from ${en(st, 'step')}.`,
  goal: 'Goal',
  complexity: 'complexity',
  engine: 'engine',
  run: 'run',
  extractiveEngine: 'extractive (no model)',
  noFindings: '(no findings)',
  keyPointsInstead: "No sentence this step read uses the question's words; below are the items' key points of this kind instead.",
  chapter: (n) => `Chapter ${n}`,
  acrossPhases: 'Across phases',
  acrossCorpus: 'Across the corpus',
  mentionedIn: (k, total, noun) => `mentioned in ${k} of ${total} ${total === 1 ? EN_NOUNS[noun][0] : EN_NOUNS[noun][1]}`,
  findingsFrom: (k, total, noun) => `findings from ${k} of ${total} ${total === 1 ? EN_NOUNS[noun][0] : EN_NOUNS[noun][1]}`,
  speakers: (n) => en(n, 'speaker'),
  commenters: (n) => en(n, 'commenter'),
  listSeparator: '; ',
  quote: ['“', '”'],
  data: 'Data',
  dataColumns: ['Figure', 'What it measures', 'Who', 'Where'],
  numberKind: { percent: 'a share', money: 'an amount of money', date: 'a date', duration: 'a duration', count: 'a count', measure: 'a measure', number: 'a number' },
  sources: 'Sources',
  notCovered: 'Not covered',
  notCoveredIntro: (n, scope) => `${n} item${n === 1 ? '' : 's'}${scope !== undefined ? ` of the ${scope} in the goal's scope` : ''} ${n === 1 ? 'was' : 'were'} researched by no step, for the reasons below (plan.json's not_covered lists every one).`,
  notCoveredReason: {
    no_text: 'no text to read (no transcript text, no comments)',
    no_matching_part: 'nothing in the item matches the goal',
    over_budget: 'over the step budget of the run',
    not_in_plan: 'left out of the reviewed plan',
    deferred: 'not read in full: it did not fit the context budget of its step, or its rounds',
  },
  andMore: (n) => ` and ${n} more`,
  titleSeparator: '; ',
  fallbackBanner: (why) => `> **⚠ FALLBACK REPORT — not written by the model.** Why: ${why}. What follows is only what the finished steps quoted from the corpus: this report is incomplete.`,
  partialBanner: (failure) => `> **⚠ PARTIAL RUN: ${failure}.** The findings of the failed steps are missing from this report.`,
  planningNote: (note) => `> **⚠ Planning:** ${note}.`,
};

const ZH: ReportWords = {
  lang: 'zh',
  extractiveTitle: '研究报告（抽取式）',
  fallbackTitle: '⚠ 备用报告（FALLBACK，非模型撰写）',
  extractiveNote: '> 抽取式报告：未使用模型。每个步骤下列出语料中与该步骤问题最相关的句子，按相关度排列，并注明说话人和出处；每个引用都指向原文中的片段。',
  countLine: (f, s, st) => `共 ${f} 条发现，引用 ${s} 个来源片段，${st} 个步骤。`,
  goal: '目标',
  complexity: '复杂度',
  engine: '引擎',
  run: '运行',
  extractiveEngine: '抽取式（未使用模型）',
  noFindings: '（无发现）',
  keyPointsInstead: '本步骤读到的句子都没有用到问题中的词；以下是内容项中这一类的要点。',
  chapter: (n) => `第 ${n} 章`,
  acrossPhases: '跨阶段',
  acrossCorpus: '全部语料',
  mentionedIn: (k, total, noun) => `在 ${total} ${ZH_NOUNS[noun][0]}${ZH_NOUNS[noun][1]}中的 ${k} ${ZH_NOUNS[noun][0]}提到`,
  findingsFrom: (k, total, noun) => `发现来自 ${total} ${ZH_NOUNS[noun][0]}${ZH_NOUNS[noun][1]}中的 ${k} ${ZH_NOUNS[noun][0]}`,
  speakers: (n) => `${n} 位发言人`,
  commenters: (n) => `${n} 位评论者`,
  listSeparator: '；',
  quote: ['“', '”'],
  data: '数据',
  dataColumns: ['数字', '衡量的内容', '说话人', '出处'],
  numberKind: { percent: '比例', money: '金额', date: '日期', duration: '时长', count: '数量', measure: '度量', number: '数字' },
  sources: '来源',
  notCovered: '未覆盖',
  notCoveredIntro: (n, scope) => `目标范围内有 ${n} 个内容项没有被任何步骤研究${scope !== undefined ? `（范围内共 ${scope} 个）` : ''}，原因如下（plan.json 的 not_covered 列出全部）。`,
  notCoveredReason: {
    no_text: '没有可读的文本（无转录、无评论）',
    no_matching_part: '内容项中没有与目标相关的部分',
    over_budget: '超出本次运行的步骤上限',
    not_in_plan: '审阅后的计划未包含',
    deferred: '未完整读取：超出所在步骤的上下文预算或轮数',
  },
  andMore: (n) => ` 等另外 ${n} 个`,
  titleSeparator: '；',
  fallbackBanner: (why) => `> **⚠ 备用报告（FALLBACK）：本报告不是模型撰写的。** 原因：${why}。以下只是已完成步骤从语料中摘录的内容，报告不完整。`,
  partialBanner: (failure) => `> **⚠ 部分完成：${failure}。** 失败步骤的发现不在本报告中。`,
  planningNote: (note) => `> **⚠ 规划：** ${note}。`,
};

const es = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const ES: ReportWords = {
  lang: 'es',
  extractiveTitle: 'Informe de investigación (extractivo)',
  fallbackTitle: '⚠ Informe de RESPALDO (no escrito por el modelo)',
  extractiveNote:
    '> Informe extractivo: no se usó ningún modelo. En cada paso, las frases del corpus que más responden a su pregunta, de mayor a menor relevancia, con quién lo dijo y dónde; cada cita abre su fragmento en el contenido, resaltado (el archivo original está a un clic).',
  countLine: (f, s, st) => `${es(f, 'hallazgo', 'hallazgos')} que citan ${es(s, 'fragmento', 'fragmentos')} de las fuentes, de ${es(st, 'paso', 'pasos')}.`,
  goal: 'Objetivo',
  complexity: 'complejidad',
  engine: 'motor',
  run: 'ejecución',
  extractiveEngine: 'extractivo (sin modelo)',
  noFindings: '(sin hallazgos)',
  keyPointsInstead: 'Ninguna frase que leyó este paso usa las palabras de la pregunta; abajo, en su lugar, los puntos clave de este tipo de los contenidos.',
  chapter: (n) => `Capítulo ${n}`,
  acrossPhases: 'Entre fases',
  acrossCorpus: 'En todo el corpus',
  mentionedIn: (k, total, noun) => `mencionado en ${k} de ${total} ${total === 1 ? ES_NOUNS[noun][0] : ES_NOUNS[noun][1]}`,
  findingsFrom: (k, total, noun) => `hallazgos de ${k} de ${total} ${total === 1 ? ES_NOUNS[noun][0] : ES_NOUNS[noun][1]}`,
  speakers: (n) => es(n, 'hablante', 'hablantes'),
  commenters: (n) => es(n, 'comentarista', 'comentaristas'),
  listSeparator: '; ',
  quote: ['«', '»'],
  data: 'Datos',
  dataColumns: ['Cifra', 'Qué mide', 'Quién', 'Dónde'],
  numberKind: { percent: 'un porcentaje', money: 'una cantidad de dinero', date: 'una fecha', duration: 'una duración', count: 'un recuento', measure: 'una medida', number: 'un número' },
  sources: 'Fuentes',
  notCovered: 'No cubierto',
  notCoveredIntro: (n, scope) => `${n === 1 ? 'Ningún paso investigó 1 contenido' : `Ningún paso investigó ${n} contenidos`}${scope !== undefined ? ` de los ${scope} del alcance del objetivo` : ''}, por los motivos siguientes (not_covered de plan.json los enumera todos).`,
  notCoveredReason: {
    no_text: 'sin texto que leer (ni transcripción ni comentarios)',
    no_matching_part: 'nada del contenido responde al objetivo',
    over_budget: 'fuera del límite de pasos de la ejecución',
    not_in_plan: 'excluido del plan revisado',
    deferred: 'no leído entero: no cabía en el presupuesto de contexto de su paso, o en sus rondas',
  },
  andMore: (n) => ` y ${n} más`,
  titleSeparator: '; ',
  fallbackBanner: (why) => `> **⚠ INFORME DE RESPALDO — no lo escribió el modelo.** Motivo: ${why}. Lo que sigue es solo lo que los pasos terminados citaron del corpus: este informe está incompleto.`,
  partialBanner: (failure) => `> **⚠ EJECUCIÓN PARCIAL: ${failure}.** Faltan en este informe los hallazgos de los pasos que fallaron.`,
  planningNote: (note) => `> **⚠ Planificación:** ${note}.`,
};

const WORDS: Record<ReportLanguage, ReportWords> = { en: EN, zh: ZH, es: ES };

/** The fixed words of a report in `lang`. */
export function reportWords(lang: ReportLanguage): ReportWords {
  return WORDS[lang];
}
