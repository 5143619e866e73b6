/**
 * Generated corpora for the extractive answer's tests (issue 22), in English, Spanish and Chinese,
 * built in memory. Per language and seed:
 * - `<lang>-meeting`: a timed meeting of three speakers: backchannels ("Yeah .", "Vale .", "嗯。"),
 *   turns of one to three ordinary sentences, turns with a sentence about the topic word (never
 *   the turn's first when it has more), content-free mentions of the topic ("Yeah , the zeppelin ,
 *   yeah ."), and one sentence about the topic said again, word for word, in several turns.
 * - `<lang>-video`: a short transcript and comments: the most-liked praise the episode in general,
 *   a few little-liked ones are about the topic, and spam that names the topic (the same link
 *   template in every language's video, as spam is).
 * With `long`, sentences are long enough that the answer's budget binds.
 */
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import type { CommentRecord, CommentsPart } from '../../src/core/corpus/types';
import { countWords } from '../../src/core/text/words';
import { itemOf, transcriptPart } from './parts';
import { rng } from './testing';

export type AnswerLang = 'en' | 'es' | 'zh';
export const ANSWER_LANGS: readonly AnswerLang[] = ['en', 'es', 'zh'];

/** Topic words: each seed picks one. */
export const TOPIC_WORDS: Record<AnswerLang, readonly string[]> = {
  en: ['zeppelin', 'greenhouse', 'telescope', 'lighthouse'],
  es: ['zepelín', 'invernadero', 'telescopio', 'faro'],
  zh: ['飞艇', '温室', '望远镜', '灯塔'],
};

export const ANSWER_SPEAKERS: Record<AnswerLang, readonly string[]> = {
  en: ['Marta', 'Ben', 'Priya'],
  es: ['Lucía', 'Andrés', 'Sofía'],
  zh: ['王磊', '李娜', '张伟'],
};

const V: Record<AnswerLang, { subj: string[]; verb: string[]; obj: string[]; tail: string[] }> = {
  en: {
    subj: ['the factory', 'our supplier', 'the design team', 'the new intern', 'the city council', 'the sales office'],
    verb: ['delivered', 'rebuilt', 'tested', 'financed', 'postponed', 'measured'],
    obj: ['the packaging samples', 'the delivery vans', 'the spring catalogue', 'the office chairs', 'the shipping labels', 'the quarterly report'],
    tail: ['after the holidays', 'in three different countries', 'with very little money', 'before the audit', 'during the first week', 'without any complaints'],
  },
  es: {
    subj: ['la fábrica', 'nuestro proveedor', 'el equipo de diseño', 'la nueva becaria', 'el ayuntamiento', 'la oficina de ventas'],
    verb: ['entregó', 'reconstruyó', 'probó', 'financió', 'aplazó', 'midió'],
    obj: ['las muestras del envase', 'las furgonetas de reparto', 'el catálogo de primavera', 'las sillas de la oficina', 'las etiquetas de envío', 'el informe trimestral'],
    tail: ['después de las vacaciones', 'en tres países distintos', 'con muy poco dinero', 'antes de la auditoría', 'durante la primera semana', 'sin ninguna queja'],
  },
  zh: {
    subj: ['工厂', '我们的供应商', '设计团队', '新来的实习生', '市议会', '销售部'],
    verb: ['交付了', '重建了', '测试了', '资助了', '推迟了', '测量了'],
    obj: ['包装样品', '送货车', '春季目录', '办公椅', '运输标签', '季度报告'],
    tail: ['在假期之后', '在三个不同的国家', '只用了很少的钱', '在审计之前', '在第一周', '没有任何投诉'],
  },
};

const BACKCHANNELS: Record<AnswerLang, readonly string[]> = {
  en: ['Yeah .', 'Mm-hmm .', 'Okay .', 'Right , okay .', '{vocalsound}', 'Uh-huh .'],
  es: ['Sí .', 'Vale .', 'Claro , claro .', 'Ajá .', 'Sí , sí .'],
  zh: ['嗯。', '对对对。', '好的。', '嗯嗯。', '对。'],
};

/** A content-free mention of the topic. */
const EMPTY_MENTION: Record<AnswerLang, (t: string) => string> = {
  en: (t) => `Yeah , the ${t} , yeah , okay .`,
  es: (t) => `Sí , el ${t} , vale , sí .`,
  zh: (t) => `嗯，${t}，对对对。`,
};

/** The sentence said again word for word. */
export const REPEATED: Record<AnswerLang, (t: string) => string> = {
  en: (t) => `The ${t} costs forty dollars a month to keep running .`,
  es: (t) => `El ${t} cuesta cuarenta euros al mes para seguir funcionando .`,
  zh: (t) => `这个${t}每个月要花四十块钱来维持运行。`,
};

const PRAISE: Record<AnswerLang, readonly string[]> = {
  en: ['What a wonderful episode, thank you so much for making it!', 'Best channel on the whole platform, greetings from Chile!', 'I watch every single video twice, amazing work!'],
  es: ['¡Qué episodio tan bueno, muchas gracias por hacerlo!', '¡El mejor canal de toda la plataforma, saludos desde Chile!', '¡Veo cada vídeo dos veces, trabajo increíble!'],
  zh: ['这一期太精彩了，非常感谢你们的制作！', '全平台最好的频道，来自成都的问候！', '每个视频我都看两遍，太厉害了！'],
};

const ON_TOPIC: Record<AnswerLang, readonly ((t: string) => string)[]> = {
  en: [(t) => `The part about the ${t} was fascinating, I never knew how it was built.`, (t) => `I disagree about the ${t}, the costs were clearly underestimated.`, (t) => `My grandfather worked on a ${t} and he said the same thing.`],
  es: [(t) => `La parte del ${t} fue fascinante, nunca supe cómo se construía.`, (t) => `No estoy de acuerdo sobre el ${t}, los costes estaban claramente subestimados.`, (t) => `Mi abuelo trabajó en un ${t} y decía exactamente lo mismo.`],
  zh: [(t) => `关于${t}的那部分太有意思了，我从来不知道它是怎么建造的。`, (t) => `我不同意关于${t}的说法，成本明显被低估了。`, (t) => `我爷爷以前在${t}工作过，他也是这么说的。`],
};

/** Spam naming the topic, one template for every language (as spam repeats across items). */
const SPAM = (t: string): string => `Check out my channel for ${t} videos!!! Subscribe now www.free-subs.example/${t}`;

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function join(lang: AnswerLang, words: string[]): string {
  return lang === 'zh' ? words.join('') : words.join(' ');
}

/** One ordinary sentence (no topic word), or one about `topic`; with `long`, two clauses joined. */
function sentence(lang: AnswerLang, r: () => number, topic?: string, long = false): string {
  const v = V[lang];
  const clause = (object: string): string[] => [pick(r, v.subj), pick(r, v.verb), object, pick(r, v.tail)];
  const about = topic ? (lang === 'zh' ? `${topic}的${pick(r, v.obj)}` : lang === 'es' ? `${pick(r, v.obj)} del ${topic}` : `${pick(r, v.obj)} of the ${topic}`) : pick(r, v.obj);
  const words = clause(about);
  if (long) words.push(lang === 'zh' ? '而且' : lang === 'es' ? 'y además' : 'and then', ...clause(pick(r, v.obj)), lang === 'zh' ? '所以' : lang === 'es' ? 'así que' : 'so', ...clause(pick(r, v.obj)));
  let s = join(lang, words);
  if (lang !== 'zh') s = `${s.charAt(0).toUpperCase()}${s.slice(1)} .`;
  else s += '。';
  return s;
}

export interface GeneratedAnswerCorpus {
  corpus: Corpus;
  lang: AnswerLang;
  topic: string;
  meetingId: string;
  videoId: string;
}

/** The corpus of one language (see the module comment); the same for the same seed. */
export function answerCorpus(lang: AnswerLang, seed: number, options: { long?: boolean; turns?: number } = {}): GeneratedAnswerCorpus {
  const r = rng(seed);
  const topic = pick(r, TOPIC_WORDS[lang]);
  const speakers = ANSWER_SPEAKERS[lang];
  const n = options.turns ?? 90;
  const turns: { text: string; speaker: string; start: number; end: number }[] = [];
  let t = 0;
  const repeats = new Set<number>();
  while (repeats.size < 4) repeats.add(Math.floor(r() * n));
  for (let i = 0; i < n; i++) {
    const speaker = speakers[i % 3 === 0 ? Math.floor(r() * 3) : (i + Math.floor(r() * 2)) % 3]!;
    const roll = r();
    let text: string;
    if (repeats.has(i)) text = REPEATED[lang](topic);
    else if (roll < 0.3) text = pick(r, BACKCHANNELS[lang]);
    else if (roll < 0.38) text = EMPTY_MENTION[lang](topic);
    else {
      const count = 1 + Math.floor(r() * 3);
      const sentences = Array.from({ length: count }, () => sentence(lang, r, undefined, options.long));
      if (roll < 0.6) sentences[count === 1 ? 0 : 1 + Math.floor(r() * (count - 1))] = sentence(lang, r, topic, options.long);
      text = sentences.join(lang === 'zh' ? '' : ' ');
    }
    const seconds = 2 + text.length / 14;
    turns.push({ text, speaker, start: Math.round(t), end: Math.round(t + seconds) });
    t += seconds + 1;
  }
  const meetingId = `${lang}-${seed}-meeting`;
  const videoId = `${lang}-${seed}-video`;
  const meeting: CorpusItem = { ...itemOf(meetingId, { transcript: transcriptPart(turns, `${meetingId}/transcript.json`) }), title: `Meeting ${lang} ${seed}` };
  const rows: { text: string; likes: number; author: string }[] = [];
  for (let i = 0; i < 24; i++) rows.push({ text: pick(r, PRAISE[lang]), likes: 500 + Math.floor(r() * 5000), author: `fan${i}` });
  for (const [i, f] of ON_TOPIC[lang].entries()) rows.push({ text: f(topic), likes: 1 + Math.floor(r() * 20), author: `viewer${i}` });
  for (let i = 0; i < 4; i++) rows.push({ text: SPAM(topic), likes: 0, author: `promo${i}` });
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  const videoTurns = Array.from({ length: 6 }, (_, i) => ({ text: sentence(lang, r), start: i * 10, end: i * 10 + 9 }));
  const video: CorpusItem = {
    ...itemOf(videoId, { transcript: transcriptPart(videoTurns, `${videoId}/transcript.json`), comments: comments(rows, `${videoId}/comments.jsonl`) }),
    title: `Video ${lang} ${seed}`,
  };
  const items = [meeting, video];
  const words = items.reduce((k, i) => k + i.wordCount, 0);
  return {
    corpus: { root: `/nonexistent-answer-corpus-${lang}-${seed}`, items, problems: [], stats: { items: 2, transcripts: 2, commentParts: 1, words, comments: rows.length, emptyComments: 0, skipped: 0, filesRead: 0 } },
    lang,
    topic,
    meetingId,
    videoId,
  };
}

/** A comments part with authors and likes. */
function comments(rows: readonly { text: string; likes: number; author: string }[], relPath: string): CommentsPart {
  let offset = 0;
  const list: CommentRecord[] = rows.map((row, index) => {
    const c: CommentRecord = {
      index, id: String(index + 1), text: row.text, offset, author: row.author, likes: row.likes, replyCount: 0,
      source: { startLine: index, startColumn: 0, endLine: index, endColumn: row.text.length },
      pieces: [{ at: 0, line: index, column: 0, length: row.text.length, rawLength: row.text.length }],
    };
    offset += row.text.length + 1;
    return c;
  });
  const text = list.map((c) => c.text).join('\n');
  return { kind: 'comments', file: { path: `/corpus/${relPath}`, relPath }, format: 'jsonl', comments: list, text, wordCount: countWords(text), emptyCount: 0 };
}

/** Several languages' corpora merged into one (spam templates then repeat across items). */
export function mergedCorpus(parts: readonly GeneratedAnswerCorpus[]): Corpus {
  const items = parts.flatMap((p) => p.corpus.items);
  const words = items.reduce((k, i) => k + i.wordCount, 0);
  const comments = items.reduce((k, i) => k + (i.comments?.comments.length ?? 0), 0);
  return { root: '/nonexistent-answer-corpus', items, problems: [], stats: { items: items.length, transcripts: items.length, commentParts: parts.length, words, comments, emptyComments: 0, skipped: 0, filesRead: 0 } };
}
