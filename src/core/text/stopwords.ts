/**
 * Words that never make a research topic, in English, Spanish and Chinese (simplified and
 * traditional). Used wherever topics are made or shown: item topics, marker topics and comment
 * themes of the extractive engine (../markers/keyphrases.ts) and offline research goals.
 *
 * **Sources.** A word is a *stopword* of a language when it is in
 * 1. the language's list of stopwords-iso (maintained upstream, 50+ languages; English's list
 *    applies to Spanish and Chinese text too: code-switching, loanwords);
 * 2. the spoken vocabulary written text leaves out ({@link SPOKEN_WORDS}): backchannels, discourse
 *    markers and hedges ("yeah", "gonna", "tío", "o sea", "觉得"), and the forms of the verbs of
 *    saying, thinking and perceiving, generated from their paradigms ({@link VERB_LEMMAS}:
 *    "pienso", "dijiste", "talked");
 * 3. the cleaner's filler vocabulary (`isSpokenFiller` of ./clean.ts: uh, ummm, mm-hmm, 嗯, 呃);
 * 4. the words too general to research alone ({@link GENERAL_WORDS}: "people", "gente", "东西");
 * or when it has a stopword's shape: a number (digits, number words, Chinese numerals, a
 * numeral or demonstrative with a measure word: 两个, 这次), a Latin word of one or two letters,
 * one letter repeated ("mmm"), Latin letters without a vowel ("hmm", "shh"), a Spanish adverb in
 * -mente, one Chinese character, or a Chinese word made only of grammatical characters
 * ({@link ZH_GRAMMAR_CHARS}: 我们的, 这是).
 *
 * **Phrases.** Some stopwords are nouns or adjectives (stopwords-iso's English and Spanish lists
 * come from search-engine stop lists: "work", "new", "world", "nueva", "trabajo"; and the general
 * words). Alone they are no topic, but they may begin or end a named one ("remote work", "new
 * york", "nueva york", "screen time"): {@link OPEN_CLASS}. Every other stopword is a *function
 * word* (closed classes, verbs, fillers): never the first or last word of a topic.
 *
 * Matching folds case, accents, character width and traditional Chinese ({@link foldWord}).
 */
import stopwordsIso from 'stopwords-iso';
import { foldText } from '../../shared/textFold';
import { isSpokenFiller } from './clean';

/** The languages with lists; other text is judged as English. */
export type StopwordLang = 'en' | 'es' | 'zh';
type Lang = StopwordLang;

/**
 * Lower-cased, accents removed, width-folded, traditional Chinese characters mapped to simplified
 * ones (shared/textFold.ts): "Ahí" → "ahi", "ＵＦＣ" → "ufc", "這個" → "这个".
 */
export function foldWord(w: string): string {
  return foldText(w).trim();
}

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/**
 * Backchannels, interjections, discourse markers, hedges and spoken reductions of each language,
 * and the annotation words of transcripts: closed classes of speech that stopwords-iso (built from
 * written text) leaves out.
 */
export const SPOKEN_WORDS: Readonly<Record<Lang, readonly string[]>> = {
  en: words(`
    yeah yea yep yup yah nah nope okey alright allright aight uh-huh mm-hmm mhm huh ooh oops wow whoa gosh jeez hey bye
    goodbye cheers pardon lol lmao yay ugh argh gotcha gonna wanna gotta kinda sorta lemme gimme cuz coz cos dunno reckon
    supposedly honestly basically literally personally simply totally pretty anyway whatever madam sir mister honourable
    honorable laugh laughter laughs vocalsound disfmarker inaudible crosstalk applause`),
  es: words(`
    vale ajá aja okey oki venga vaya uf ay ea hala mira oye dale órale orale tío tía tíos tías rollo digamos osea jo joder
    hola adiós perdón porfa che güey wey chaval macho literal etcétera etcetera acá allá aparte cuya cuyo cuyas cuyos jamás
    pos tanta tantas tantos alguien mucho muchísimo muchísima muchísimos muchísimas risas aplausos música`),
  zh: words(`
    嗯嗯 对对 对对对 对啊 对吧 对呀 是啊 是吧 是呀 好的 好吧 好啊 好呀 行吧 哈哈 呵呵 嘿嘿 哎呀 嗯哼 然后呢 就是说 的话 一下 一点 一直
    一定 一起 可能 应该 必须 需要 希望 觉得 我觉得 认为 我认为 知道 感觉 发现 看到 听到 说话 没有 就会 不会 会有 其实 真的 非常 比较
    特别 已经 现在 今天 明天 昨天 以后 以前 之后 之前 当时 后来 刚才 方才 起来 进行 所谓 基本 基本上 大概 也许 反正 好像 什么的 之类
    之类的 他说 我说 你说 左右 以下 的时候 这种 那种 那么多 很多 谢谢 感谢 再见 拜拜`),
};

/**
 * Verbs of saying, thinking, perceiving and the light verbs of speech, by lemma; every form of
 * their paradigm is a stopword (generated: {@link englishForms}, {@link spanishForms}). A lemma
 * may carry its irregular forms after a colon.
 */
export const VERB_LEMMAS: Readonly<Record<'en' | 'es', readonly string[]>> = {
  en: words(`
    say:said tell:told talk speak:spoke,spoken ask answer think:thought believe guess suppose mean:meant feel:felt hope wish
    want know:knew,known understand:understood remember see:saw,seen look hear:heard seem happen
    start begin:began,begun,beginning stop keep:kept try get:got,gotten,getting forget:forgot,forgotten,forgetting make:made do:did,done,does go:went,gone,goes come:came
    take:took,taken give:gave,given put bring:brought call pay:paid mind need let`),
  es: words(`
    decir:digo,dice,dices,dicen,dije,dijo,dijiste,dijimos,dijeron,diciendo,dicho,diga,digas,digan,dime,dicho
    creer:creyó,creyeron,creyendo,creído pensar:pienso,piensas,piensa,piensan,piense,pienses
    saber:sé,sabes,sabe,supe,supo,supieron,sepa,sepas,sepan,sabía
    ver:veo,ves,ve,vemos,ven,vi,vio,vimos,vieron,viendo,visto,vea,veas,vean,veía mirar
    oír:oigo,oyes,oye,oímos,oyen,oí,oyó,oyeron,oyendo,oído,oiga,oigas escuchar
    sentir:siento,sientes,siente,sienten,sintió,sintieron,sintiendo,sienta gustar encantar pasar quedar llevar
    salir:salgo venir:vengo,vienes,viene,vienen,vine,vino,vinieron,viniendo,venga
    poder:puedo,puedes,puede,pueden,pude,pudo,pudieron,pudiendo,pueda,puedas
    seguir:sigo,sigues,sigue,siguen,siguió,siguieron,siguiendo,siga
    empezar:empiezo,empiezas,empieza,empiezan,empecé,empiece hablar llamar
    querer:quiero,quieres,quiere,quieren,quise,quiso,quisieron,quiera,quieras
    hacer:hago,hice,hizo,hicieron,hecho,haga,hagas,hagan,hiciera acabar andar:anduve,anduvo dar:doy,di,dio,dieron,dé
    poner:pongo,puse,puso,pusieron,puesto,ponga parecer:parezco,parezca entender:entiendo,entiendes,entiende,entienden
    imaginar contar:cuento,cuentas,cuenta,cuentan,cuente tratar intentar tener:tengo,tienes,tiene,tienen,tuve,tuvo,tenga
    ir:voy,vas,va,vamos,van,fui,fue,fueron,yendo,vaya`),
};

/** English words too general to research alone ("people", "time"); inside a phrase they are fine ("screen time"). */
const EN_GENERAL = words(`
  chair awesome big bit course day days different easy end entire example fact fine first full good great guy guys half hard high huge idea important kind
  large last little long lot lots main matter men minute minutes name new next nice old part people person place point real second sense short side
  small sort start stuff thing things time times today top type way ways week work year years yesterday
`);

/** Spanish words too general to research alone ("gente", "vida", "cosa"); inside a phrase they are fine ("nueva york"). */
const ES_GENERAL = words(`
  cabo año años caso casos cosa cosas día días ejemplo final forma formas gente gran grande grandes hecho hechos historia historias hombre idea ideas lado
  manera maneras mayor mejor menor mes meses momento momentos mundo nivel niveles nueva nuevo parte partes peor pequeña pequeño persona personas primer
  primera primero principio punto puntos segunda segundo semana semanas super súper tema temas tiempo tiempos tipo tipos verdad vida última último
`);

/** Chinese words too general to research alone. */
const ZH_GENERAL = words('问题 事情 东西 方面 情况 地方 内容 意思 部分 主要 重要 目前 第一 第二 人们 大家 时候 一些 各种');

/** Words too general to be a topic alone, by language (see {@link OPEN_CLASS}: they may stand inside a phrase). */
export const GENERAL_WORDS: Readonly<Record<Lang, readonly string[]>> = { en: EN_GENERAL, es: ES_GENERAL, zh: ZH_GENERAL };

/**
 * Nouns and adjectives of stopwords-iso's English and Spanish lists: stopwords alone, but they
 * may begin or end a topic phrase ("remote work", "new york", "world cup", "nueva york", "medio
 * ambiente", "estados unidos"). With {@link GENERAL_WORDS}, the only stopwords allowed at a
 * phrase's edge.
 */
const OPEN_ISO: Readonly<Record<'en' | 'es', readonly string[]>> = {
  en: words(`
    area areas available best better big bigger biggest bill bottom business case cases clear computer copy date detail early effect
    empty end example face fact fire first free front full general good goods great greater greatest group groups half high higher highest
    home important information interest invention keys large largest last latest length line little long longer low lower man member
    members men million name necessary new newer newest novel number numbers old older oldest open order page pages part parts past place
    places point points possible present problem problems recent research results right ring room rooms second section serious side sides
    significant similar site small smaller smallest state states system test text third tip top value web webpage website welcome width
    words work world year years young younger youngest round changes index microsoft`),
  es: words(`
    acuerdo día días estado estados fin final general gran grandes horas lado largo lugar manera mayor medio mejor modo momento nueva nuevas
    nuevo nuevos país pais parte peor posible primer primera primero primeros próximo segunda segundo siguiente tarde tiempo total trabajo
    uso valor verdad verdadera verdadero última últimas último últimos anterior diferente diferentes`),
};

/**
 * Chinese grammatical characters (pronouns, particles, prepositions, conjunctions, negators,
 * degree adverbs): a word made only of them is a stopword ("我们的", "这是", "他们的"). Content
 * characters are left out, even when stopwords-iso lists them alone (日, 本, 人: "日本").
 */
export const ZH_GRAMMAR_CHARS: ReadonlySet<string> = new Set([...'我你您他她它们咱的了是在就也都这那吗吧呢啊嘛么着过得地和与及或而又还再很太最更把被给让对向从到于以为之其此该每各某哪谁什怎没不别啦呀哦嗯呃']);

const NUMBER_WORDS = new Set(
  words(
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion billions percent dozen ' +
      'cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento cientos mil millon millones',
  ),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const ZH_NUMERAL = /^[零一二三四五六七八九十百千万亿两几第半多]+$|^百分/u;
/** A numeral, demonstrative or quantifier with a measure word: 两个, 这次, 一种, 每个, 几位. */
const ZH_MEASURE = /^[零一二三四五六七八九十百千万两几每这那哪某各整半][个种次些点下样件位条回遍句]$/u;

/** Regular English forms of a verb: lemma, -s, -ed, -ing (e dropped, y → ie, final consonant doubled after one short vowel). */
export function englishForms(lemma: string): string[] {
  const cvc = /^[^aeiou]*[aeiou][b-df-hj-np-tv-z]$/.test(lemma) && !/[wxy]$/.test(lemma);
  const stem = cvc ? lemma + lemma.at(-1)! : lemma;
  // "see": sees, seeing (never "seed").
  if (lemma.endsWith('ee')) return [lemma, `${lemma}s`, `${lemma}ing`];
  if (lemma.endsWith('e')) return [lemma, `${lemma}s`, `${lemma}d`, `${lemma.slice(0, -1)}ing`];
  if (/[^aeiou]y$/.test(lemma)) return [lemma, `${lemma.slice(0, -1)}ies`, `${lemma.slice(0, -1)}ied`, `${lemma}ing`];
  return [lemma, /(?:s|sh|ch|x|o)$/.test(lemma) ? `${lemma}es` : `${lemma}s`, `${stem}ed`, `${stem}ing`];
}

/** Regular Spanish endings after the stem, by conjugation: present, preterite, imperfect, subjunctive, future, conditional, gerund, participle. */
const ES_ENDINGS: Readonly<Record<'ar' | 'er' | 'ir', readonly string[]>> = {
  ar: words('ar o as a amos áis an é aste ó asteis aron aba abas ábamos abais aban e es emos éis en ando ado ada ados adas'),
  er: words('er o es e emos éis en í iste ió isteis ieron ía ías íamos íais ían a as amos áis an iendo ido ida idos idas'),
  ir: words('ir o es e imos ís en í iste ió isteis ieron ía ías íamos íais ían a as amos áis an iendo ido ida idos idas'),
};
const ES_FUTURE = words('é ás á emos éis án ía ías íamos íais ían');

/** Regular Spanish forms of a verb (every tense above; future and conditional on the infinitive). */
export function spanishForms(lemma: string): string[] {
  const conj = lemma.slice(-2) as 'ar' | 'er' | 'ir';
  const endings = ES_ENDINGS[conj];
  if (!endings) return [lemma];
  const stem = lemma.slice(0, -2);
  // A stem of one letter or none (ver, dar, ir) would spell nouns ("vida", "dado"): its forms are listed instead.
  if (stem.length < 2) return [lemma];
  return [...endings.map((e) => stem + e), ...ES_FUTURE.map((e) => lemma + e), `${lemma}lo`, `${lemma}la`, `${lemma}le`, `${lemma}me`, `${lemma}te`, `${lemma}se`];
}

/** The forms of each lemma of {@link VERB_LEMMAS} (regular paradigm and its irregular forms). */
function verbForms(lang: 'en' | 'es'): string[] {
  return VERB_LEMMAS[lang].flatMap((entry) => {
    const [lemma, irregular = ''] = entry.split(':');
    const regular = lang === 'en' ? englishForms(lemma!) : spanishForms(lemma!);
    return [...regular, ...irregular.split(',').filter(Boolean)];
  });
}

interface Vocab {
  /** Every stopword of the language (folded). */
  stop: ReadonlySet<string>;
  /** The ones that may stand at a phrase's edge. */
  open: ReadonlySet<string>;
}

let vocabs: Record<Lang, Vocab> | undefined;

/** The folded word sets of each language, built once. */
function vocab(lang: Lang): Vocab {
  if (!vocabs) {
    const iso = stopwordsIso as Record<string, readonly string[]>;
    const fold = (...lists: (readonly string[])[]): Set<string> => new Set(lists.flat().map(foldWord));
    const build = (l: Lang): Vocab => {
      const general = GENERAL_WORDS[l];
      const stop = fold(iso[l] ?? [], SPOKEN_WORDS[l], general, l === 'zh' ? [] : verbForms(l));
      const open = fold(general, l === 'zh' ? [] : OPEN_ISO[l]);
      // Forms of the verbs of speech are never at an edge, even when they spell a noun ("cuento", "hecho").
      if (l !== 'zh') for (const f of verbForms(l)) open.delete(foldWord(f));
      return { stop, open };
    };
    vocabs = { en: build('en'), es: build('es'), zh: build('zh') };
  }
  return vocabs[lang];
}

/** The languages whose lists apply to text in `lang`: its own, and English (code-switching, loanwords). */
function langsFor(lang: Lang): Lang[] {
  return lang === 'en' ? ['en'] : [lang, 'en'];
}

/** How a word stands as a topic: content, a stopword that may stand inside a phrase, or a function word. */
export type WordClass = 'content' | 'open' | 'function';

/** A Chinese (CJK) word: one character, a numeral, a measure phrase, made of grammatical characters, or listed. */
function cjkStopword(w: string): boolean {
  const chars = [...w];
  if (chars.length < 2 || ZH_NUMERAL.test(w) || ZH_MEASURE.test(w) || chars.every((c) => ZH_GRAMMAR_CHARS.has(c))) return true;
  return vocab('zh').stop.has(w);
}

/**
 * How `word` stands as a topic of text in `lang`:
 * - `'function'`: a stopword that is never the first or last word of a topic (closed classes,
 *   verbs of speech, fillers, numbers, shapes such as "mmm");
 * - `'open'`: a stopword alone, allowed inside a phrase and at its edges ("work" in "remote work");
 * - `'content'`: no stopword.
 *
 * @example
 * wordClass('creo', 'es')   // 'function'
 * wordClass('nueva', 'es')  // 'open'
 * wordClass('ciclismo', 'es') // 'content'
 */
export function wordClass(word: string, lang: Lang = 'en'): WordClass {
  // Words repeat: each is judged once per language (the memo is dropped when it grows large).
  const memo = memos[lang];
  const known = memo.get(word);
  if (known) return known;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  const c = classify(word, lang);
  memo.set(word, c);
  return c;
}

/** Words remembered per language by {@link wordClass}. */
const MEMO_LIMIT = 200_000;
const memos: Record<Lang, Map<string, WordClass>> = { en: new Map(), es: new Map(), zh: new Map() };

function classify(word: string, lang: Lang): WordClass {
  const w = foldWord(word);
  if (!w) return 'function';
  if (CJK.test(w)) return cjkStopword(w) ? (ZH_GENERAL.includes(w) ? 'open' : 'function') : 'content';
  if (/\p{N}/u.test(w) && !/\p{L}/u.test(w)) return 'function';
  // Hyphenated compounds: a listed one ("mm-hmm", "uh-huh"), or one made only of stopwords.
  if (w.includes('-') && /\p{L}-\p{L}/u.test(w)) {
    if (isSpokenFiller(w) || langsFor(lang).some((l) => vocab(l).stop.has(w))) return 'function';
    const parts = w.split('-').filter(Boolean);
    const classes = parts.map((p) => classify(p, lang));
    return classes.every((c) => c !== 'content') ? 'function' : 'content';
  }
  if ([...w].length <= 2 || NUMBER_WORDS.has(w) || /^\d+(?:[.,]\d+)?[%kmb]?$/.test(w) || isSpokenFiller(w)) return 'function';
  // Spanish adverbs in -mente ("literalmente"); one letter repeated ("mmm"); Latin letters without a vowel ("hmm", "shh").
  if ((/mente$/.test(w) && w.length > 7) || /^(.)\1+$/u.test(w) || /^[b-df-hj-np-tv-xz]+$/.test(w)) return 'function';
  // Open when every list that has it as a stopword lets it stand in a phrase.
  const listing = langsFor(lang).filter((l) => vocab(l).stop.has(w));
  if (!listing.length) return 'content';
  return listing.every((l) => vocab(l).open.has(w)) ? 'open' : 'function';
}

/** One word that carries no topic on its own in text in `lang`: any stopword (see the file's header). */
export function isStopword(word: string, lang: Lang = 'en'): boolean {
  return wordClass(word, lang) !== 'content';
}

/**
 * True when `topic` is no topic a researcher would name: a stopword, a number, a phrase that
 * starts or ends with a function word ("tengo muchas", "así decirlo", "hacían era", "the lanes")
 * or one made only of stopwords ("mucha gente", "ahí tío", "web site"). A general word inside or
 * at the edge of a phrase is fine ("nueva york", "remote work").
 *
 * @example
 * isStopwordTopic('creo', 'es')            // true
 * isStopwordTopic('ciberseguridad', 'es')  // false
 * isStopwordTopic('cierta parte', 'es')    // true
 * isStopwordTopic('remote work')           // false
 */
export function isStopwordTopic(topic: string, lang: Lang = 'en'): boolean {
  const parts = topic.normalize('NFKC').trim().split(/[\s\u2013\u2014_/]+/u).filter(Boolean);
  if (!parts.length) return true;
  const classes = parts.map((p) => wordClass(p, lang));
  if (classes.length === 1) return classes[0] !== 'content';
  return classes[0] === 'function' || classes[classes.length - 1] === 'function' || classes.every((c) => c !== 'content');
}
