/**
 * A small generated corpus where the answer to a question about a topic is known, in English,
 * Spanish, simplified and traditional Chinese (issue 22, "the question's own topic is kept").
 *
 * Per language, two items:
 * - `<lang>-meeting`: a timed meeting of four speakers (one of them a role in English: "Project
 *   Manager"), a third of the turns backchannels ("Yeah .", "Vale .", "嗯。"), the others one to six
 *   sentences about ordinary things; one sentence in about one turn of five is about one of the
 *   language's three {@link TOPICS}, never the turn's first sentence when the turn is long. Every
 *   speaker speaks about every topic at least twice.
 * - `<lang>-video`: a short transcript and comments: the most-liked ones praise the episode in
 *   general, a few little-liked ones are about the first two topics, none about the third (which
 *   the video's title names).
 *
 * Which turns each speaker says about each topic, and which comments mention each topic, are
 * returned with the corpus.
 */
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import type { CommentRecord, CommentsPart } from '../../src/core/corpus/types';
import { countWords } from '../../src/core/text/words';
import { rng } from './testing';
import { itemOf, transcriptPart } from './parts';

export type TopicLang = 'en' | 'es' | 'zh-Hans' | 'zh-Hant';
export const TOPIC_LANGS: readonly TopicLang[] = ['en', 'es', 'zh-Hans', 'zh-Hant'];

/** The topics of each language; the third is in no comment. */
export const TOPICS: Record<TopicLang, readonly [string, string, string]> = {
  en: ['battery', 'zeppelin', 'budget'],
  es: ['batería', 'zepelín', 'presupuesto'],
  'zh-Hans': ['电池', '飞艇', '预算'],
  'zh-Hant': ['電池', '飛艇', '預算'],
};

/** The meeting's speakers: labels as in the transcript, and how a question names them. */
export const SPEAKERS: Record<TopicLang, readonly { label: string; asked: string }[]> = {
  en: [{ label: 'Daniel', asked: 'Daniel' }, { label: 'Project Manager', asked: 'the project manager' }, { label: 'Laura', asked: 'Laura' }, { label: 'Kevin', asked: 'Kevin' }],
  es: [{ label: 'Marta', asked: 'Marta' }, { label: 'Pedro', asked: 'Pedro' }, { label: 'Lucía', asked: 'Lucía' }, { label: 'Andrés', asked: 'Andrés' }],
  'zh-Hans': [{ label: '张三', asked: '张三' }, { label: '李四', asked: '李四' }, { label: '王五', asked: '王五' }, { label: '赵六', asked: '赵六' }],
  'zh-Hant': [{ label: '張三', asked: '張三' }, { label: '李四', asked: '李四' }, { label: '王五', asked: '王五' }, { label: '趙六', asked: '趙六' }],
};

const BACKCHANNELS: Record<TopicLang, readonly string[]> = {
  en: ['Yeah .', 'Mm-hmm .', 'Okay .', 'Right .', 'Uh-huh .', 'Yeah , yeah .', 'Half past . Half past ten . Yeah .'],
  es: ['Sí .', 'Vale .', 'Ajá .', 'Claro , claro .', 'Sí , sí .'],
  'zh-Hans': ['嗯。', '对对对。', '好的。', '嗯嗯。', '对。'],
  'zh-Hant': ['嗯。', '對對對。', '好的。', '嗯嗯。', '對。'],
};

/** Sentences about ordinary things (no topic word). */
const PLAIN: Record<TopicLang, readonly string[]> = {
  en: [
    'We looked at the schedule for the next prototype on Monday .', 'The drawings from the factory arrived late again .', 'Somebody should book the meeting room for Thursday afternoon .',
    'The survey results were sent to marketing last week .', 'Our logo needs a cleaner font on the packaging .', 'The colours of the case came out darker than planned .',
    'The deadline for the report is the end of the month .', 'Customers in the shop asked about the warranty conditions .', 'The supplier changed the plastic they use for the buttons .',
    'Testing the prototype with children took longer than expected .', 'The instructions booklet is far too long for anybody to read .', 'Shipping from the warehouse gets slower every winter .',
  ],
  es: [
    'Revisamos el calendario del próximo prototipo el lunes .', 'Los planos de la fábrica llegaron tarde otra vez .', 'Alguien tiene que reservar la sala para el jueves por la tarde .',
    'Los resultados de la encuesta se enviaron a marketing .', 'El logotipo necesita una letra más limpia en el envase .', 'Los colores de la carcasa salieron más oscuros de lo previsto .',
    'El informe se entrega a final de mes sin falta .', 'Los clientes de la tienda preguntaron por la garantía .', 'El proveedor cambió el plástico de los botones .',
    'Probar el prototipo con niños llevó más tiempo del esperado .', 'El manual de instrucciones es demasiado largo para leerlo .', 'Los envíos desde el almacén van más lentos en invierno .',
  ],
  'zh-Hans': [
    '我们周一看了下一个样机的排期。', '工厂的图纸又来晚了。', '得有人把周四下午的会议室订一下。', '问卷结果上周已经发给市场部了。', '包装上的标志需要换一个更干净的字体。',
    '外壳的颜色比计划的深了不少。', '报告月底之前必须交上去。', '店里的顾客问了保修的条件。', '供应商换了按键用的塑料。', '让孩子们测试样机花的时间比预想的长。', '说明书太长了根本没人看。', '冬天仓库发货越来越慢。',
  ],
  'zh-Hant': [
    '我們週一看了下一個樣機的排期。', '工廠的圖紙又來晚了。', '得有人把週四下午的會議室訂一下。', '問卷結果上週已經發給市場部了。', '包裝上的標誌需要換一個更乾淨的字體。',
    '外殼的顏色比計劃的深了不少。', '報告月底之前必須交上去。', '店裡的顧客問了保修的條件。', '供應商換了按鍵用的塑膠。', '讓孩子們測試樣機花的時間比預想的長。', '說明書太長了根本沒人看。', '冬天倉庫發貨越來越慢。',
  ],
};

/** Sentences about a topic (`{t}`), each with at least three content words besides it. */
const ABOUT: Record<TopicLang, readonly string[]> = {
  en: [
    'I think the {t} needs another design review before the factory trial .', 'The {t} should cost less than the plastic casing and the buttons together .',
    'We could mount the {t} behind the speaker grille inside the casing .', 'Nobody has tested the {t} in freezing weather or heavy rain yet .',
  ],
  es: [
    'Creo que lo de {t} necesita otra revisión de diseño antes de la prueba en fábrica .', 'Lo de {t} debería costar menos que la carcasa de plástico y los botones juntos .',
    'Podríamos montar lo de {t} detrás de la rejilla del altavoz .', 'Nadie ha probado lo de {t} con frío intenso o lluvia fuerte todavía .',
  ],
  'zh-Hans': ['我觉得{t}在工厂试产之前还要再做一次设计评审。', '{t}的成本应该比塑料外壳和按键加起来还低。', '我们可以把{t}装到扬声器网罩后面的外壳里。', '还没有人在严寒或者暴雨天气里测试过{t}。'],
  'zh-Hant': ['我覺得{t}在工廠試產之前還要再做一次設計評審。', '{t}的成本應該比塑膠外殼和按鍵加起來還低。', '我們可以把{t}裝到揚聲器網罩後面的外殼裡。', '還沒有人在嚴寒或者暴雨天氣裡測試過{t}。'],
};

/** Words of the comments praising the episode in general (liked a lot): each comment a different draw of them. */
const PRAISE: Record<TopicLang, readonly string[]> = {
  en: 'great episode thanks guest honest calm listen every morning invite again channel brilliant conversation year favourite host questions answers learned much today watching from mexico spain argentina energy content quality sound keep going respect legend friend shared family inspiring wonderful laughed cried'.split(' '),
  es: 'gran episodio gracias invitado sincero tranquilo escucho cada mañana invitadle otra canal brillante conversación año favorito presentador preguntas respuestas aprendí mucho hoy viendo desde méxico españa argentina energía contenido calidad sonido seguid así respeto leyenda amigo compartí familia inspirador maravilloso reí lloré'.split(' '),
  'zh-Hans': '这期 节目 太 精彩 感谢 嘉宾 真诚 冷静 每天 早上 收听 希望 再请 频道 厉害 对谈 今年 最爱 主持人 提问 回答 学到 很多 今天 观看 来自 北京 上海 广州 能量 内容 质量 声音 继续 加油 尊重 传奇 朋友 分享 家人 励志 感动'.split(' '),
  'zh-Hant': '這期 節目 太 精彩 感謝 嘉賓 真誠 冷靜 每天 早上 收聽 希望 再請 頻道 厲害 對談 今年 最愛 主持人 提問 回答 學到 很多 今天 觀看 來自 台北 香港 高雄 能量 內容 質量 聲音 繼續 加油 尊重 傳奇 朋友 分享 家人 勵志 感動'.split(' '),
};

/** Comments about a topic (`{t}`), little liked: each template once per topic. */
const ON_TOPIC: Record<TopicLang, readonly string[]> = {
  en: [
    'The part about the {t} was the most useful bit for me.', 'I still do not understand their point about the {t}, can someone explain?', 'They are completely wrong about the {t} in my opinion.',
    'My brother works on the {t} at a factory and he laughed at this.', 'Finally somebody talks honestly about the {t} without selling anything.', 'Would love a whole episode only on the {t} next month.',
  ],
  es: [
    'Lo que dijeron de {t} fue lo más útil para mí.', 'Sigo sin entender lo de {t}, ¿alguien me lo explica?', 'En mi opinión se equivocan por completo con {t}.',
    'Mi hermano trabaja con {t} en una fábrica y se rió con esto.', 'Por fin alguien habla con honestidad de {t} sin vender nada.', 'Me encantaría un episodio entero solo sobre {t} el mes que viene.',
  ],
  'zh-Hans': ['关于{t}的那一段对我最有用。', '我还是没听懂他们对{t}的看法，谁能解释一下？', '我觉得他们对{t}的判断完全错了。', '我哥在工厂做{t}，他看完笑了。', '终于有人不带货地聊{t}了。', '希望下个月专门做一期讲{t}。'],
  'zh-Hant': ['關於{t}的那一段對我最有用。', '我還是沒聽懂他們對{t}的看法，誰能解釋一下？', '我覺得他們對{t}的判斷完全錯了。', '我哥在工廠做{t}，他看完笑了。', '終於有人不帶貨地聊{t}了。', '希望下個月專門做一期講{t}。'],
};

/** A turn of the generated meeting, with what is known of it. */
export interface KnownTurn {
  speaker: string;
  text: string;
  /** Topics said in the turn. */
  topics: string[];
}

export interface TopicCorpus {
  corpus: Corpus;
  /** The turns of each language's meeting. */
  turns: Record<TopicLang, KnownTurn[]>;
  /** The comment texts of each language's video that mention each topic. */
  topicComments: Record<TopicLang, Record<string, string[]>>;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const cjk = (lang: TopicLang): boolean => lang.startsWith('zh');
const join = (lang: TopicLang, sentences: readonly string[]): string => (cjk(lang) ? sentences.join('') : sentences.join(' '));

/** The meeting of `lang`: `n` turns (see the module comment). */
function meeting(lang: TopicLang, n: number, r: () => number): KnownTurn[] {
  const speakers = SPEAKERS[lang].map((s) => s.label);
  const topics = TOPICS[lang];
  const out: KnownTurn[] = [];
  // Every speaker says every topic twice, at random places; the other turns are chosen at random.
  const planned = new Map<number, { speaker: string; topic: string }>();
  for (const speaker of speakers) {
    for (const topic of topics) {
      for (let k = 0; k < 2; k++) {
        let at = Math.floor(r() * n);
        while (planned.has(at)) at = (at + 1) % n;
        planned.set(at, { speaker, topic });
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const plan = planned.get(i);
    const speaker = plan?.speaker ?? pick(r, speakers);
    if (!plan && r() < 0.33) {
      out.push({ speaker, text: pick(r, BACKCHANNELS[lang]), topics: [] });
      continue;
    }
    const count = 1 + Math.floor(r() * 6);
    const sentences = Array.from({ length: count }, () => pick(r, PLAIN[lang]));
    if (plan) {
      // Never the first sentence of a long turn: the focus must find it.
      const at = count === 1 ? 0 : 1 + Math.floor(r() * (count - 1));
      sentences[at] = pick(r, ABOUT[lang]).replace('{t}', plan.topic);
    }
    out.push({ speaker, text: join(lang, sentences), topics: plan ? [plan.topic] : [] });
  }
  return out;
}

/** A comments part with likes. */
function commentsWithLikes(rows: readonly { text: string; likes: number }[], relPath: string): CommentsPart {
  let offset = 0;
  const comments: CommentRecord[] = rows.map((row, index) => {
    const c: CommentRecord = {
      index, id: String(index + 1), text: row.text, offset, author: `viewer${index + 1}`, likes: row.likes, replyCount: 0,
      source: { startLine: index, startColumn: 0, endLine: index, endColumn: row.text.length },
      pieces: [{ at: 0, line: index, column: 0, length: row.text.length, rawLength: row.text.length }],
    };
    offset += row.text.length + 1;
    return c;
  });
  const text = comments.map((c) => c.text).join('\n');
  return { kind: 'comments', file: { path: `/corpus/${relPath}`, relPath }, format: 'jsonl', comments, text, wordCount: countWords(text), emptyCount: 0 };
}

/** The corpus (see the module comment), the same for the same seed. */
export function topicCorpus(seed = 22): TopicCorpus {
  const r = rng(seed);
  const items: CorpusItem[] = [];
  const turns = {} as Record<TopicLang, KnownTurn[]>;
  const topicComments = {} as Record<TopicLang, Record<string, string[]>>;
  for (const lang of TOPIC_LANGS) {
    const ts = meeting(lang, 120, r);
    turns[lang] = ts;
    let t = 0;
    const transcript = transcriptPart(
      ts.map((x) => {
        const seconds = 2 + x.text.length / 15;
        const turn = { text: x.text, speaker: x.speaker, start: Math.round(t), end: Math.round(t + seconds) };
        t += seconds + 1;
        return turn;
      }),
      `${lang}-meeting/transcript.json`,
    );
    items.push({ ...itemOf(`${lang}-meeting`, { transcript }), title: `Meeting ${lang}` });

    const rows: { text: string; likes: number }[] = [];
    for (let i = 0; i < 40; i++) {
      const words = Array.from({ length: 8 + Math.floor(r() * 6) }, () => pick(r, PRAISE[lang]));
      rows.push({ text: `${join(lang, words)}${cjk(lang) ? '！' : '!'}`, likes: 300 + Math.floor(r() * 5000) });
    }
    const about: Record<string, string[]> = {};
    for (const topic of TOPICS[lang].slice(0, 2)) {
      about[topic] = ON_TOPIC[lang].map((t) => t.replace('{t}', topic));
      for (const text of about[topic]!) rows.push({ text, likes: Math.floor(r() * 40) });
    }
    about[TOPICS[lang][2]] = [];
    topicComments[lang] = about;
    // Shuffled, as comments come in.
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    const video = transcriptPart(PLAIN[lang].slice(0, 6).map((text, i) => ({ text, start: i * 10, end: i * 10 + 9 })), `${lang}-video/transcript.json`);
    // The title names the topic no comment mentions: a title is no comment about it.
    items.push({ ...itemOf(`${lang}-video`, { transcript: video, comments: commentsWithLikes(rows, `${lang}-video/comments.jsonl`) }), title: `Video ${lang}: ${TOPICS[lang][2]}` });
  }
  const words = items.reduce((n, i) => n + i.wordCount, 0);
  const comments = items.reduce((n, i) => n + (i.comments?.comments.length ?? 0), 0);
  return {
    corpus: { root: '/nonexistent-topic-corpus', items, problems: [], stats: { items: items.length, transcripts: items.length, commentParts: TOPIC_LANGS.length, words, comments, emptyComments: 0, skipped: 0, filesRead: 0 } },
    turns,
    topicComments,
  };
}
