/**
 * Generated units for the content-free tests (issue 21): backchannels, filler runs, repetitions
 * and annotations composed with punctuation in English, Spanish and Chinese (simplified and
 * traditional) — never content; talk made of hedges and function words with at most two
 * content words — content-free once it is long; and content sentences, short ("Prices rose.",
 * "El precio sube.", "价格上涨了") and full ("The committee approved the budget in March."),
 * which must never be flagged (short ones only stand alone when not judged strictly).
 * Every case comes from a seeded generator: the same seed gives the same cases.
 */
import { rng } from './testing';

export type Lang = 'en' | 'es' | 'zh';
/** A generator's script: Chinese cases come in simplified and traditional characters. */
export type Script = 'en' | 'es' | 'zh-Hans' | 'zh-Hant';

export const SCRIPTS: readonly Script[] = ['en', 'es', 'zh-Hans', 'zh-Hant'];
export const langOf = (s: Script): Lang => (s === 'zh-Hans' || s === 'zh-Hant' ? 'zh' : s);

const BACKCHANNELS: Record<Script, string[]> = {
  en: ['yeah', 'yes', 'okay', 'OK', 'mm-hmm', 'Mm - hmm', 'uh-huh', 'right', 'sure', 'alright', 'yep', 'exactly', 'oh', 'hmm', 'I see', 'got it', 'true', 'thanks', 'great', 'cool'],
  es: ['sí', 'vale', 'claro', 'bueno', 'ya', 'exacto', 'ajá', 'venga', 'pues sí', 'de acuerdo', 'gracias', 'perfecto', 'claro que sí', 'eso es', 'genial', 'jajaja'],
  'zh-Hans': ['嗯', '对', '对对对', '好的', '好的好的', '是的', '没错', '行', '哦', '嗯嗯', '对啊', '是吧', '好吧', '明白', '哈哈哈', '可以可以', '谢谢'],
  'zh-Hant': ['嗯', '對', '對對對', '好的', '是的', '沒錯', '行', '哦', '對啊', '是吧', '好吧', '明白了', '謝謝', '對對', '哈哈'],
};
const FILLERS: Record<Script, string[]> = {
  en: ['uh', 'um', 'uhh', 'ummm', 'hmm', 'er', 'erm', 'mm', 'you know', 'I mean', 'like', 'well', 'so'],
  es: ['eh', 'em', 'mmm', 'o sea', 'pues', 'bueno', 'este', 'digamos', 'a ver'],
  'zh-Hans': ['嗯', '呃', '那个', '就是', '然后', '这个'],
  'zh-Hant': ['嗯', '呃', '那個', '就是', '然後', '這個'],
};
const ANNOTATIONS = ['{vocalsound}', '{disfmarker}', '{gap}', '[Música]', '[Aplausos]', '[laughter]', '[Laughter.]', '(risas)', '(laughter)', '[ __ ]', '♪', '（笑声）', '[音乐]', '[music]'];
const SEPARATORS: Record<Script, string[]> = {
  en: [' ', ', ', '. ', ' . ', '! ', '… ', ' - '],
  es: [' ', ', ', '. ', '¡', '! ', '… '],
  'zh-Hans': ['', '，', '。', '！', ' ', '…'],
  'zh-Hant': ['', '，', '。', '！', ' ', '…'],
};
const ENDS: Record<Script, string[]> = { en: ['', '.', ' .', '!', '?'], es: ['', '.', '!', '?'], 'zh-Hans': ['', '。', '！', '？'], 'zh-Hant': ['', '。', '！', '？'] };

/** Hedges and function-word phrases: talk that says nothing by itself. */
const HEDGES: Record<Script, string[]> = {
  en: ['so', 'I mean', 'you know', 'kind of', 'sort of', 'like', 'I think', 'I guess', 'well', 'actually', 'basically', 'as I said', "that's all there is to say", "we're OK", 'some of you can', 'I dunno', 'or something', 'and stuff', 'to be honest', 'at least', 'anyway', 'whatever it is', 'you can think of it as'],
  es: ['o sea', 'yo creo que', 'no sé', 'es que', 'pues', 'la verdad', 'digamos', 'bueno', 'como que', 'en plan', 'y tal', 'lo que pasa es que', 'tío', 'sabes', 'ya te digo', 'no sé qué', 'al final', 'de alguna manera'],
  'zh-Hans': ['我觉得', '就是', '然后', '那个', '其实', '反正', '这个', '怎么说呢', '也就是说', '所以说', '对吧', '我们', '一下', '的话', '什么的'],
  'zh-Hant': ['我覺得', '就是', '然後', '那個', '其實', '反正', '這個', '怎麼說呢', '也就是說', '所以說', '對吧', '我們', '一下', '的話'],
};

/** Content vocabulary: none of it is a stopword of its language. */
const NOUNS: Record<Script, string[]> = {
  en: ['prices', 'battery', 'budget', 'engineers', 'committee', 'farmers', 'council', 'tariffs', 'heater', 'contract', 'warehouse', 'vaccine', 'pension', 'harvest', 'microphone', 'transcription', 'landlord', 'subsidy'],
  es: ['precio', 'batería', 'presupuesto', 'ingenieros', 'comité', 'agricultores', 'ayuntamiento', 'aranceles', 'contrato', 'almacén', 'vacuna', 'pensión', 'cosecha', 'micrófono', 'alquiler', 'subvención', 'inflación'],
  'zh-Hans': ['价格', '电池', '预算', '工程师', '委员会', '农民', '关税', '合同', '仓库', '疫苗', '养老金', '收成', '麦克风', '房租', '补贴', '通胀', '销量'],
  'zh-Hant': ['價格', '電池', '預算', '工程師', '委員會', '農民', '關稅', '合同', '倉庫', '疫苗', '養老金', '收成', '麥克風', '房租', '補貼', '通脹', '銷量'],
};
const VERBS: Record<Script, string[]> = {
  en: ['rose', 'fell', 'doubled', 'approved', 'rejected', 'delayed', 'collapsed', 'recovered', 'expanded', 'shrank'],
  es: ['sube', 'baja', 'aprobó', 'rechazó', 'retrasó', 'duplicó', 'recuperó', 'amplió', 'cayó', 'protestan'],
  'zh-Hans': ['上涨', '下降', '批准', '拒绝', '推迟', '翻倍', '恢复', '扩大', '缩小', '涨价'],
  'zh-Hant': ['上漲', '下降', '批准', '拒絕', '推遲', '翻倍', '恢復', '擴大', '縮小', '漲價'],
};
const WHEN: Record<Script, string[]> = {
  en: ['in March', 'last winter', 'in 2023', 'by 12 %', 'after the audit', 'before the election', 'in the northern region'],
  es: ['en marzo', 'el invierno pasado', 'en 2023', 'un 12 %', 'tras la auditoría', 'antes de las elecciones', 'en la región norte'],
  'zh-Hans': ['在三月', '去年冬天', '在2023年', '12%', '审计之后', '选举之前', '在北部地区'],
  'zh-Hant': ['在三月', '去年冬天', '在2023年', '12%', '審計之後', '選舉之前', '在北部地區'],
};

/** A seeded generator of the cases above. */
export class CaseGenerator {
  private readonly r: () => number;

  constructor(seed: number) {
    this.r = rng(seed);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.r() < p;
  }

  private capitalise(s: string): string {
    return this.chance(0.5) ? s.charAt(0).toUpperCase() + s.slice(1) : s;
  }

  private sep(script: Script): string {
    return this.pick(SEPARATORS[script]);
  }

  /** A backchannel, filler run or annotation: 1–5 parts, each maybe repeated ("yeah yeah yeah", "对对对"), joined by punctuation. */
  contentFree(script: Script): string {
    const parts: string[] = [];
    const n = this.int(1, 5);
    for (let i = 0; i < n; i++) {
      const kind = this.r();
      const part = kind < 0.55 ? this.pick(BACKCHANNELS[script]) : kind < 0.8 ? this.pick(FILLERS[script]) : this.pick(ANNOTATIONS);
      const times = this.chance(0.3) ? this.int(2, 3) : 1;
      parts.push(Array.from({ length: times }, () => part).join(script.startsWith('zh') ? '' : ' '));
    }
    let out = this.capitalise(parts[0]!);
    for (const p of parts.slice(1)) out += this.sep(script) + p;
    return out + this.pick(ENDS[script]);
  }

  /** Talk of at least `minWords` hedge phrases with at most `content` (0–2) content words among them. */
  hedgeTalk(script: Script, content: number, minParts = 6): string {
    const parts: string[] = [];
    const n = this.int(minParts, minParts + 6);
    for (let i = 0; i < n; i++) parts.push(this.pick(HEDGES[script]));
    for (let i = 0; i < content; i++) parts.splice(this.int(0, parts.length), 0, this.pick(NOUNS[script]));
    const zh = script.startsWith('zh');
    return this.capitalise(parts.join(zh ? this.pick(['', '，']) : this.pick([' ', ', ']))) + this.pick(ENDS[script]);
  }

  /** A short real statement of two content words: "Prices rose.", "El precio sube.", "价格上涨了". */
  shortContent(script: Script): string {
    const noun = this.pick(NOUNS[script]);
    const verb = this.pick(VERBS[script]);
    if (script === 'en') return `${this.capitalise(this.chance(0.5) ? `the ${noun}` : noun)} ${verb}${this.pick(['.', '', '!'])}`;
    if (script === 'es') return `${this.capitalise(`${this.pick(['el', 'la', 'los'])} ${noun}`)} ${verb}${this.pick(['.', '', '!'])}`;
    return `${noun}${verb}${this.pick(['了', ''])}${this.pick(['。', '', '！'])}`;
  }

  /** A full statement (three content words or more), sometimes with a backchannel, filler or annotation around it. */
  content(script: Script, salted = true): string {
    const a = this.pick(NOUNS[script]);
    let b = this.pick(NOUNS[script]);
    while (b === a) b = this.pick(NOUNS[script]);
    const verb = this.pick(VERBS[script]);
    const when = this.pick(WHEN[script]);
    let core: string;
    if (script === 'en') core = `The ${a} ${verb} the ${b} ${when}.`;
    else if (script === 'es') core = `${this.capitalise(`el ${a}`)} ${verb} el ${b} ${when}.`;
    else core = `${a}${when}${verb}了${b}。`;
    if (!salted || this.chance(0.4)) return core;
    const salt = this.chance(0.5) ? this.pick(BACKCHANNELS[script]) : this.chance(0.5) ? this.pick(FILLERS[script]) : this.pick(ANNOTATIONS);
    return this.chance(0.5) ? `${this.capitalise(salt)}${script.startsWith('zh') ? '，' : ', '}${core}` : `${core} ${salt}`;
  }
}
