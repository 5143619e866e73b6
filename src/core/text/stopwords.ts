/**
 * Words that never make a research topic, in English, Spanish and Chinese: function words,
 * the verbs and fillers of speech ("creo", "bien", "ahí", "hacer"; "I mean", "gonna"; "就是",
 * "然后") and nouns too general to research ("gente", "cosa", "people", "东西"). Used where
 * topics become text a researcher reads (offline goals); matched accent- and case-insensitively.
 */

/** Lower-cased, accents removed, width-folded (NFKD): "Ahí" → "ahi", "ＵＦＣ" → "ufc". CJK is left as it is. */
export function foldWord(w: string): string {
  return w.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().trim();
}

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** English function words, speech fillers and verbs of saying and thinking. */
const EN_FUNCTION = words(`
a about above across actually after afterwards again against ago ah ahead all almost alone along already alright also although always am among an and
another any anybody anyhow anyone anything anyway anyways anywhere apart are around as aside ask asked asking at away back basically be became because
become becomes been before beforehand behind being below beside besides best better between beyond both bring brought but by call called came can
cannot cant cause certain certainly clearly come comes coming could couldn cuz definitely did didn do does doesn doing don done down due during each
either else elsewhere enough especially even ever every everybody everyone everything everywhere exactly except fairly far feel feels felt few five
for four from front further get gets getting give given gives giving go goes going gone gonna got gotta guess had happen happened happens has hasn
have haven having he hello her here hers herself hey hi him himself his hmm honestly hope how however i if im in indeed instead into is isn it its
itself just keep kinda knew know known knows later least less let lets like likely literally look looked looking looks made make makes making many may
maybe me mean means meant might mind mine mm more most mostly much must my myself near nearly need needed needs never no nobody none nope nor not
nothing now nowhere obviously of off often oh ok okay on once one ones only onto or other others otherwise ought our ours ourselves out outside over
own particular pay per perhaps personally pretty probably put quite rather re really right said same saw say saying says see seem seemed seems seen
self several shall she should show simply since so some somebody somehow someone something sometime sometimes somewhat somewhere soon sorry sorta
started still such suppose supposed sure take taken talk talked talking tell than thank thanks that thats the their theirs them themselves then there
these they think thinking thought three through thus till to together told too took totally toward towards tried true truly try trying two uh um under
unless until up upon us use used uses using usually very via want wanted wants was wasn we well went were weren what whatever when whenever where
whereas wherever whether which while who whoever whole whom whose why will wish with within without won wonder would wouldn wow yeah yep yes yet you
your yours yourself yourselves everyone anyone someone gonna wanna dunno believe believes believed bigger biggest better best worse worst greatest largest smallest
madam sir mister mr mrs ms honourable honorable yeah uh-huh laugh laughter vocalsound disfmarker gap pause inaudible ooh
`);

/** English words too general to research alone ("people", "time"); inside a phrase they are fine ("screen time", "new york"). */
const EN_GENERAL = words(`
chair awesome big bit course day days different easy end entire example fact fine first full good great guy guys half hard high huge idea important kind
large last little long lot lots main man matter men minute minutes name new next nice old part people person place point real second sense short side
small sort start stuff thing things time times today top type way ways week work worked works year years yesterday
`);

/** Spanish function words, forms of the common verbs and speech fillers. */
const ES_FUNCTION = words(`
a acá acerca además ahi ahí ahora al algo alguien algun algún alguna algunas alguno algunos allá alli allí alrededor ambos ante antes aparte apenas
aquel aquella aquellas aquello aquellos aqui aquí arriba asi así aun aún aunque bajo bastante bien buen buena buenas bueno buenos cada casi cierta
ciertas cierto ciertos claro como cómo con conmigo contigo contra cual cuál cuales cualquier cuando cuándo cuanto cuánto cuanta cuantas cuantos cuya
cuyo de debajo del delante demás dentro desde despues después detrás donde dónde durante e el él ella ellas ello ellos en encima enfrente entonces
entre era eramos eran eras eres es esa esas ese eso esos esta está estaba estabais estaban estabas estad estada estado estáis estamos están estar
estará estas estás este esté estemos estén esto estos estoy estuve estuvo etc etcetera fue fuera fueron fui fuimos ha había habían habia haber habrá
habría hace hacemos hacen hacer haces hacia hacía hacían haciendo hago has hasta hay haya he hemos hicieron hice hiciste hizo hoy igual incluso ir
jamás la las le les lo los luego mal mas más me media medio menos mi mí mía mias mías mientras mio mío mios míos mis misma mismas mismo mismos mucha
muchas muchísima muchísimas muchísimo muchísimos mucho muchos muy nada nadie ni ningun ningún ninguna ninguno no nos nosotras nosotros nuestra
nuestras nuestro nuestros nunca o os otra otras otro otros para parece pero poca pocas poco pocos podemos poder podía podría pone poner por porque qué
porqué pos pues que quien quién quienes quiere quieres quiero se sea sean según ser será sería si sí sido siempre siendo sin sino so sobre sois solo
sólo somos son soy su sus suya suyas suyo suyos tal tambien también tampoco tan tanta tantas tanto tantos te tendrá tenemos tener tenga tengo tenía
tenían tiene tienen tienes toda todas todavía todo todos tras tu tú tus tuve tuvo tuya tuyo un una unas uno unos usted ustedes va vais vale vamos van
varias varios vaya ve veces ver vez vosotras vosotros voy y ya yo acabo acaba acabar ando anda andar creo cree crees creemos creen creía creer pienso
piensa piensas pensar pensaba digo dice dices decimos dicen decir dije dijo dijiste decía diciendo dicho sé sabe sabes sabemos saben saber sabía supe
veo ves vemos ven vi vio visto viendo mira mirar miras oye oyes doy das da dan dar dio di gusta gustan gustaba gustó encanta encantó siento sientes
sentir pasa pasan pasar pasó pasaba quedar queda quedó llevo lleva llevar llevaba sale salir salió viene vienen venir vino vengo tengas tuviera
hubiera hubo pueda puedes puede pueden pude pudo puedo sigue seguir sigo empieza empezar empecé empezó intento intenta intentar hablamos hablar
hablando habla hablas llama llamar llamo estuviera fuese seria serían quería querías queremos quieren querer quise quiso hiciera haga hagas hagan tío
tía tíos tías tio tia rollo digamos osea literal literalmente básicamente basicamente obviamente realmente totalmente simplemente exactamente
perfectamente evidentemente eh ah oh uh mm venga total
`);

/** Spanish words too general to research alone ("gente", "vida", "cosa"); inside a phrase they are fine ("nueva york"). */
const ES_GENERAL = words(`
cabo año años caso casos cosa cosas día días ejemplo final forma formas gente gran grande grandes hecho hechos historia historias hombre idea ideas lado
manera maneras mayor mejor menor mes meses momento momentos mundo nivel niveles nueva nuevo parte partes peor pequeña pequeño persona personas primer
primera primero principio punto puntos segunda segundo semana semanas super súper tema temas tiempo tiempos tipo tipos verdad vida última último
`);

/** Chinese function words, fillers and words too general to research. */
const ZH = words(`
我们 你们 他们 她们 它们 咱们 大家 自己 这个 那个 这些 那些 这样 那样 这种 那种 这里 那里 这么 那么 那么多 什么 怎么 怎么样 为什么 哪些 哪个 一个 一些 一下 一点 一样
一直 一定 一般 一起 就是 然后 所以 因为 但是 可是 不过 还是 或者 而且 并且 以及 如果 虽然 因此 于是 可以 可能 应该 必须 需要 希望 觉得 认为 知道 感觉 发现 看到
听到 说话 没有 不是 就会 不会 会有 有的 还有 其实 真的 非常 比较 特别 已经 现在 时候 今天 明天 昨天 以后 以前 之后 之前 当时 后来 刚才 方才 问题 事情 东西 方面 来说 的话
出来 起来 进行 对于 关于 通过 其中 还是 嗯嗯 那个 这个 对吧 是吧 好的 对对 对对对 然后呢 就是说 所谓 基本 基本上 大概 也许 反正 总之 另外 同时 整个 每个 一种 某种 这边 那边 我觉得
我认为 他说 我说 你说 大概 左右 以上 以下 的时候 部分 情况 地方 东西 内容 意思 人们 很多 许多 所有 任何 各种 主要 重要 目前 一次 第一 第二 两个 几个 多少
`);

type Lang = 'en' | 'es' | 'zh';

const fold = (ws: readonly string[]): ReadonlySet<string> => new Set(ws.map(foldWord));

/** Function words (closed classes, common verb forms, fillers) by language, folded (see {@link foldWord}): never a topic, nor the first or last word of one. */
export const FUNCTION_WORDS: Readonly<Record<Lang, ReadonlySet<string>>> = { en: fold(EN_FUNCTION), es: fold(ES_FUNCTION), zh: new Set(ZH) };
/** Words too general to be a topic alone, by language, folded. */
export const GENERAL_WORDS: Readonly<Record<Lang, ReadonlySet<string>>> = { en: fold(EN_GENERAL), es: fold(ES_GENERAL), zh: new Set<string>() };

/** Number words: "ninety" or "cincuenta" alone is not a topic. */
const NUMBER_WORDS = new Set(
  words(
    'zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion percent dozen ' +
      'cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento cientos mil millon millones',
  ),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The languages whose lists apply to a corpus in `lang`: its own, and English (code-switching, loanwords). */
function langsFor(lang: Lang): Lang[] {
  return lang === 'en' ? ['en'] : [lang, 'en'];
}

/** A function word of a corpus in `lang` (or a number, a filler like "mmm", a Spanish adverb in -mente). */
function isFunctionWord(word: string, lang: Lang): boolean {
  if (CJK.test(word)) return [...word].length < 2 || FUNCTION_WORDS.zh.has(word) || /^[零一二三四五六七八九十百千万亿两几第半多]+$/u.test(word);
  const w = foldWord(word);
  if (w.length <= 2 || langsFor(lang).some((l) => FUNCTION_WORDS[l].has(w))) return true;
  if (NUMBER_WORDS.has(w) || /^\d+(?:[.,]\d+)?[%kmb]?$/.test(w)) return true;
  // Spanish adverbs in -mente ("literalmente"); one letter repeated ("mmm"); Latin letters without a vowel ("hmm", "shh").
  return (/mente$/.test(w) && w.length > 7) || /^(.)\1+$/u.test(w) || /^[b-df-hj-np-tv-xz]+$/.test(w);
}

/** One word that carries no topic on its own in a corpus in `lang`: a function word or a word too general ("gente", "people"). */
export function isStopword(word: string, lang: Lang = 'en'): boolean {
  const w = word.trim();
  if (!w) return true;
  return isFunctionWord(w, lang) || (!CJK.test(w) && langsFor(lang).some((l) => GENERAL_WORDS[l].has(foldWord(w))));
}

/**
 * True when `topic` is no topic a researcher would name: a stopword, a number, a phrase that
 * starts or ends with a function word ("tengo muchas", "así decirlo", "hacían era", "the lanes")
 * or one made only of stopwords ("mucha gente", "ahí tío"). A general word inside a phrase is
 * fine ("nueva york", "remote work").
 *
 * @example
 * isStopwordTopic('creo', 'es')            // true
 * isStopwordTopic('ciberseguridad', 'es')  // false
 * isStopwordTopic('cierta parte', 'es')    // true
 * isStopwordTopic('remote work')           // false
 */
export function isStopwordTopic(topic: string, lang: Lang = 'en'): boolean {
  const parts = topic.normalize('NFKC').trim().split(/[\s\-–—_/]+/u).filter(Boolean);
  if (!parts.length) return true;
  if (parts.length === 1) return isStopword(parts[0]!, lang);
  return isFunctionWord(parts[0]!, lang) || isFunctionWord(parts[parts.length - 1]!, lang) || parts.every((p) => isStopword(p, lang));
}
