/**
 * Generated caption transcripts (issue 21): auto-caption-like streams of speech cut into 3–8-word
 * lines (Chinese: 5–14 characters), no speaker, in English, Spanish or Chinese, unpunctuated (as
 * YouTube's auto-captions) or punctuated (as a human SRT), with annotations between lines
 * ("[Music]", "[Música]", "[ __ ]", "[音乐]") and, when timed, a time per line with pauses. Written
 * as a real export is: `.srt`, `.vtt`, `.txt` (one line per caption, `[h:mm:ss]` when timed) or
 * `.json` (`turns` with a null speaker). Seeded: the same seed gives the same transcript.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { rng } from './testing';

export type CaptionLang = 'en' | 'es' | 'zh';
export type CaptionFormat = 'srt' | 'vtt' | 'txt' | 'json';

/** Clause parts per language: subject, verb, object, tail (Chinese: joined without spaces). */
const PARTS: Record<CaptionLang, { subj: string[]; verb: string[]; obj: string[]; tail: string[]; openers: string[]; annotations: string[] }> = {
  en: {
    subj: ['the team', 'my brother', 'our city', 'the new company', 'that coach', 'a friend of mine', 'the whole market', 'this guest'],
    verb: ['measured', 'changed', 'explained', 'tested', 'rebuilt', 'financed', 'described', 'ignored', 'planned'],
    obj: ['the battery costs', 'the bike lanes', 'the training plan', 'the restaurant menu', 'the data center', 'the football season', 'the music festival', 'the hiring process'],
    tail: ['after the summer', 'in three different countries', 'with very little money', 'before anyone noticed', 'during the first week', 'for almost ten years', 'without asking permission', 'right after the launch'],
    openers: ['so', 'but', 'and then', 'anyway', 'because'],
    annotations: ['[Music]', '[Applause]', '[Laughter]', '[ __ ]'],
  },
  es: {
    subj: ['el equipo', 'mi hermano', 'nuestra ciudad', 'la nueva empresa', 'ese entrenador', 'un amigo mío', 'todo el mercado', 'este invitado'],
    verb: ['midió', 'cambió', 'explicó', 'probó', 'reconstruyó', 'financió', 'describió', 'ignoró', 'planeó'],
    obj: ['los costes de batería', 'los carriles bici', 'el plan de entrenamiento', 'el menú del restaurante', 'el centro de datos', 'la temporada de fútbol', 'el festival de música', 'el proceso de contratación'],
    tail: ['después del verano', 'en tres países distintos', 'con muy poco dinero', 'antes de que nadie lo viera', 'durante la primera semana', 'durante casi diez años', 'sin pedir permiso', 'justo después del lanzamiento'],
    openers: ['entonces', 'pero', 'y luego', 'bueno', 'porque'],
    annotations: ['[Música]', '[Aplausos]', '[Risas]', '[ __ ]'],
  },
  zh: {
    subj: ['我们团队', '我哥哥', '这个城市', '那家新公司', '那位教练', '我的一个朋友', '整个市场', '这位嘉宾'],
    verb: ['测量了', '改变了', '解释了', '测试了', '重建了', '投资了', '描述了', '忽视了', '规划了'],
    obj: ['电池成本', '自行车道', '训练计划', '餐厅菜单', '数据中心', '足球赛季', '音乐节', '招聘流程'],
    tail: ['在夏天以后', '在三个不同的国家', '用很少的钱', '在大家注意到之前', '在第一周里', '差不多十年', '没有经过允许', '就在发布之后'],
    openers: ['然后', '所以', '但是', '其实', '因为'],
    annotations: ['[音乐]', '[掌声]', '[笑声]'],
  },
};

export interface CaptionOptions {
  lang: CaptionLang;
  /** Caption lines of speech (annotation lines come on top). */
  lines: number;
  timed: boolean;
  /** Sentence-final punctuation at clause ends (a human SRT) instead of none (auto-captions). */
  punctuated?: boolean;
  seed: number;
  /** Seconds before the first line (a long value makes times past an hour). */
  offsetSeconds?: number;
  /** A word the speech is about now and then: the object of about one clause in ten. */
  term?: string;
}

/** One caption line: its text, and its time when timed. */
export interface CaptionLine {
  text: string;
  start?: number;
  end?: number;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** One spoken clause as words (Chinese: phrases): an opener now and then, subject, verb, object, tail; punctuated or not. */
export function clauseWords(lang: CaptionLang, r: () => number, punctuated: boolean, object?: string): string[] {
  const p = PARTS[lang];
  const zh = lang === 'zh';
  const clause = [...(r() < 0.35 ? [pick(r, p.openers)] : []), pick(r, p.subj), pick(r, p.verb), object ?? pick(r, p.obj), pick(r, p.tail)];
  const words = zh ? clause : clause.join(' ').split(' ');
  if (punctuated) {
    words[words.length - 1] += zh ? pick(r, ['。', '？', '！']) : pick(r, ['.', '.', '?', '!']);
    if (!zh) words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  }
  return words;
}

/** Backchannels, fillers and annotations a meeting turn may be made of (content-free in any reading). */
export const BACKCHANNELS: Record<CaptionLang, readonly string[]> = {
  en: ['Yeah .', 'Mm-hmm .', 'Okay .', '{vocalsound}', 'Uh-huh .', 'Yeah , yeah .', 'Hmm .', 'Right , okay .', '{disfmarker} Um .'],
  es: ['Sí .', 'Vale .', 'Claro , claro .', 'Ajá .', '[Risas]', 'Sí , sí .', 'Bueno , vale .', 'Eh ...'],
  zh: ['嗯。', '对对对。', '好的。', '是的是的。', '嗯嗯。', '对。', '好，好。'],
};

/** Speakers of a generated meeting. */
export const MEETING_SPEAKERS: Record<CaptionLang, readonly string[]> = {
  en: ['Marta', 'Ben', 'Priya'],
  es: ['Lucía', 'Andrés', 'Marta'],
  zh: ['王磊', '李娜', '张伟'],
};

/**
 * A meeting: `n` turns of three speakers, about half of them backchannels ({@link BACKCHANNELS}),
 * the others one or two punctuated clauses, `term` the object of about one in six.
 */
export function meetingTurns(lang: CaptionLang, n: number, seed: number, term: string): { speaker: string; text: string; start: number; end: number }[] {
  const r = rng(seed);
  const zh = lang === 'zh';
  const out: { speaker: string; text: string; start: number; end: number }[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    const speaker = MEETING_SPEAKERS[lang][Math.floor(r() * 3)]!;
    let text: string;
    if (r() < 0.5) text = pick(r, BACKCHANNELS[lang]);
    else {
      const clauses = 1 + Math.floor(r() * 2);
      const words: string[] = [];
      for (let k = 0; k < clauses; k++) words.push(...clauseWords(lang, r, true, r() < 0.17 ? term : undefined));
      text = zh ? words.join('') : words.join(' ');
    }
    const seconds = 1 + text.length / 12;
    out.push({ speaker, text, start: Math.round(t * 10) / 10, end: Math.round((t + seconds) * 10) / 10 });
    t += seconds + 0.3;
  }
  return out;
}

/** A caption transcript as lines (see the module comment). */
export function captionLines(o: CaptionOptions): CaptionLine[] {
  const r = rng(o.seed);
  const p = PARTS[o.lang];
  const zh = o.lang === 'zh';
  // A stream of clauses, each a list of tokens (words; Chinese: phrases of characters).
  const tokens: string[] = [];
  const budget = o.lines * (zh ? 5 : 6);
  while (tokens.length < budget) tokens.push(...clauseWords(o.lang, r, !!o.punctuated, o.term && r() < 0.1 ? o.term : undefined));
  const out: CaptionLine[] = [];
  let t = o.offsetSeconds ?? 0;
  let i = 0;
  const timed = (text: string, seconds: number): CaptionLine => {
    const line: CaptionLine = { text };
    if (o.timed) {
      line.start = Math.round(t * 1000) / 1000;
      t += seconds;
      line.end = Math.round(t * 1000) / 1000;
      // Now and then a pause.
      t += r() < 0.15 ? 1 + r() * 3 : 0.05;
    }
    return line;
  };
  while (out.filter((l) => !l.text.startsWith('[')).length < o.lines) {
    if (r() < 0.06) out.push(timed(pick(r, p.annotations), 1 + r() * 4));
    const n = zh ? 2 + Math.floor(r() * 3) : 3 + Math.floor(r() * 6);
    const words = tokens.slice(i, i + n);
    i += n;
    if (!words.length) break;
    out.push(timed(zh ? words.join('') : words.join(' '), 1.2 + words.length * (zh ? 0.9 : 0.35)));
  }
  return out;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
function stamp(seconds: number, sep: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
}

/** The lines as a file of `format` (`srt` and `vtt` need timed lines). */
export function captionFile(lines: readonly CaptionLine[], format: CaptionFormat): string {
  switch (format) {
    case 'srt':
      return lines.map((l, k) => `${k + 1}\n${stamp(l.start!, ',')} --> ${stamp(l.end!, ',')}\n${l.text}\n`).join('\n');
    case 'vtt':
      return `WEBVTT\n\n${lines.map((l) => `${stamp(l.start!, '.')} --> ${stamp(l.end!, '.')}\n${l.text}\n`).join('\n')}`;
    case 'txt':
      return `${lines.map((l) => (l.start !== undefined ? `[${stamp(l.start, '.').slice(0, 8)}] ${l.text}` : l.text)).join('\n')}\n`;
    case 'json':
      return JSON.stringify({ turns: lines.map((l) => ({ speaker: null, text: l.text, ...(l.start !== undefined ? { start: l.start, end: l.end } : {}) })) }, null, 1);
  }
}

/** Writes a caption item `id` (its transcript file and a meta.json with its title) into `dir`. */
export async function writeCaptionItem(dir: string, id: string, lines: readonly CaptionLine[], format: CaptionFormat, title = id): Promise<void> {
  await mkdir(path.join(dir, id), { recursive: true });
  await writeFile(path.join(dir, id, `transcript.${format}`), captionFile(lines, format));
  await writeFile(path.join(dir, id, 'meta.json'), JSON.stringify({ title }));
}
