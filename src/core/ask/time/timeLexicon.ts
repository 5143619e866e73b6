/**
 * The words of time expressions in English, Spanish and Chinese (simplified and traditional),
 * each with the roles it can play in the grammar (timeGrammar.ts). A word may have several roles
 * ("second" is an ordinal and a unit; "hasta" ends a range and means "before"; 前 is "the first"
 * before a duration and "before" after a point): the grammar decides by what follows.
 */

/** What a word can do in a time expression. */
export type TimeRole =
  /** A unit of time (seconds in `unit`). */
  | 'unit'
  /** "half", 半, "media": half of the unit after it, or "and a half". */
  | 'half'
  /** "quarter", "cuarto": a quarter of the unit after it ("a quarter of an hour", "un cuarto de hora", "hora y cuarto"). */
  | 'quarter'
  /** Joins the parts of a duration ("an hour and a half", "una hora y veinte"); also "between A and B". */
  | 'and'
  /** "first", "opening", "primeros", 前, 开场: the first span of a duration. */
  | 'first'
  /** After the duration: "los diez minutos iniciales". */
  | 'firstAfter'
  /** "last", "final", "últimos", 最后: the last span of a duration (needs the item's length). */
  | 'last'
  /** After the duration: "los diez minutos finales". */
  | 'lastAfter'
  /** An ordinal word ("second", "tercera"; `ord` holds it). */
  | 'ord'
  /** 第: the ordinal prefix in Chinese. */
  | 'nth'
  /** "start", "beginning", 开头, "inicio": time 0 as one end of a range. */
  | 'start'
  /** "end", 结束, "final": the item's end as one end of a range (an open end). */
  | 'end'
  /** Opens a range ("from", "desde", 从), and, alone, means "from then on". */
  | 'from'
  /** Opens a range only before a clock or "minute N" ("de 10:00 a 15:00", "del minuto 10 al 16"). */
  | 'fromStrong'
  /** Opens a range closed by "and" ("between", "entre"). */
  | 'between'
  /** Closes a range ("to", "until", "-", "hasta", 到, 至). */
  | 'to'
  /** After the second end of a range: 之间. */
  | 'betweenAfter'
  /** "after", "past", "después de", "a partir de". */
  | 'after'
  /** After the point: "onwards", "en adelante", 以后, 开始, 起. */
  | 'afterAfter'
  /** "before", "until", "antes de", "hasta". */
  | 'before'
  /** After the point: 以前, 之前, 前, 为止. */
  | 'beforeAfter'
  /** "at", "around", "alrededor de": ±30 s around a point. */
  | 'at'
  /** Like `at` but only before a clock or "minute N" ("en el minuto 20", 在12:30). */
  | 'atWeak'
  /** After the point: 左右, 处, 的时候. */
  | 'atAfter'
  /** "mark", "marca": "the 20-minute mark". */
  | 'mark'
  /** A half of the item: "half" (not before a unit), "mitad", 半段, 一半. */
  | 'partHalf'
  /** A part of the item: "part", "parte", 部分. */
  | 'part'
  /** A third of the item: "the last third", "el primer tercio". */
  | 'partThird'
  /** 分之 of 三分之一: a fraction of the item. */
  | 'fractionOf'
  /** 上 of 上半场: the first. */
  | 'upper'
  /** 下 of 下半场: the second. */
  | 'lower'
  /** "middle", "central", 中间. */
  | 'middle'
  /** After a span: 里, 内, 期间 ("開場五分鐘裡"): part of the phrase, no meaning of its own. */
  | 'inside';

/** A lexicon entry: its roles and the values they carry. */
export interface TimeWord {
  roles: readonly TimeRole[];
  /** For `unit`: seconds. */
  unit?: number;
  /** For `unit`: a plural ("minutes"), which never stands for "one" alone. */
  plural?: boolean;
  /** For `unit`: an abbreviation that counts only written against a number ("20m", "1h"). */
  attached?: boolean;
  /** For `ord`: the ordinal. */
  ord?: number;
}

const S = 1;
const M = 60;
const H = 3600;

type Spec = [string, TimeRole[], Omit<TimeWord, 'roles'>?];

const unit = (words: string, s: number, plural = false, attached = false): Spec[] =>
  words.split('|').map((w) => [w, ['unit'], { unit: s, plural, attached }]);
const ords = (words: string, n: number): Spec[] => words.split('|').map((w) => [w, ['ord'], { ord: n }]);
const role = (words: string, ...roles: TimeRole[]): Spec[] => words.split('|').map((w) => [w, roles]);

/** Words written with Latin letters (keys: lowercase words joined by one space). */
const LATIN: Spec[] = [
  // Units.
  ...unit('second|sec|segundo|seg', S),
  ...unit('seconds|secs|segundos|segs', S, true),
  ...unit('minute|min|minuto', M),
  ...unit('minutes|mins|minutos', M, true),
  ...unit('hour|hr|hora', H),
  ...unit('hours|hrs|horas', H, true),
  ...unit('s', S, false, true),
  ...unit('m', M, false, true),
  ...unit('h', H, false, true),
  ...role('half|medio|media', 'half'),
  ...role('and|y|&', 'and'),
  // Ordinals (1 is also "the first span").
  ...ords('second|2nd', 2),
  ...ords('third|3rd|tercer|tercera|tercero', 3),
  ...ords('fourth|4th|cuarta|cuarto', 4),
  ...ords('fifth|5th|quinta|quinto', 5),
  ...ords('sixth|6th|sexta|sexto', 6),
  ...ords('segunda|segundo', 2),
  ...ords('first|1st|primer|primera|primero|primeros|primeras', 1),
  ...role('first|primer|primera|primero|primeros|primeras|opening|initial|earliest', 'first'),
  ...role('inicial|iniciales', 'first', 'firstAfter'),
  ...role('last|final|closing|latter|última|ultima|último|ultimo|últimos|ultimos|últimas|ultimas', 'last'),
  ...role('final|finales|últimos|ultimos|últimas|ultimas', 'lastAfter'),
  ...role('primeros|primeras', 'firstAfter'),
  // Anchors.
  ...role('start|beginning|outset|opening|inicio|principio|comienzo|arranque', 'start'),
  ...role('end|ending|finish|close|final|fin|cierre|término|termino', 'end'),
  // Ranges.
  ...role('from|desde|since', 'from'),
  ...role('de|del', 'fromStrong'),
  ...role('between|entre', 'between'),
  ...role('to|till|through|thru|al|a|hasta|until', 'to'),
  ...role('and|y', 'and'),
  // After, before, at.
  ...role('after|past|beyond|since|following|later than|starting at|starting from|from|después de|despues de|después del|despues del|a partir de|a partir del|más allá de|mas alla de|más allá del|mas alla del|luego de|luego del|tras|pasado|pasada|pasados|pasadas|transcurridos|transcurridas|transcurrido|transcurrida', 'after'),
  ...role('on|onward|onwards|forward|forwards|and later|and after|and beyond|or later|en adelante|adelante|or so on', 'afterAfter'),
  ...role('before|until|till|up to|up until|prior to|earlier than|antes de|antes del|hasta', 'before'),
  ...role('at|around|near|alrededor de|alrededor del|cerca de|cerca del|hacia|a los|a las', 'at'),
  ...role('en|sobre|in|al', 'atWeak'),
  ...role('in|into', 'atAfter'),
  ...role('mark|marks|marca', 'mark'),
  ...role('quarter|cuarto', 'quarter'),
  // Parts of the item.
  ...role('half|mitad', 'partHalf'),
  ...role('part|section|portion|segment|stretch|parte|sección|seccion|tramo|segmento', 'part'),
  ...role('middle|central|medio|media|intermedia|intermedio', 'middle'),
  ...role('third|tercio', 'partThird'),
];

/** Words written in Chinese characters, simplified and traditional. */
const CJK: Spec[] = [
  ...unit('秒|秒钟|秒鐘', S),
  ...unit('分|分钟|分鐘', M),
  ...unit('小时|小時|钟头|鐘頭|钟点|鐘點', H),
  ...unit('刻钟|刻鐘|刻', 15 * M),
  ...role('半', 'half'),
  ...role('又', 'and'),
  ...role('和|与|與|跟|及', 'and'),
  ...role('前|头|頭|前面|开场|開場|开头|開頭|开始|開始|一开始|一開始|最开始|最開始|刚开始|剛開始|最初|起初|开篇|開篇', 'first'),
  ...role('最后|最後|结尾|結尾|末尾|后|後|后面|後面|最末|收尾', 'last'),
  ...role('第', 'nth'),
  ...role('开头|開頭|开场|開場|开始|開始|一开始|一開始|最开始|最開始|起点|起點|头|頭', 'start'),
  ...role('结束|結束|结尾|結尾|最后|最後|末尾|完|收尾|终点|終點', 'end'),
  ...role('从|從|自|由', 'from'),
  ...role('在', 'between'),
  ...role('到|至|直到|一直到|～|~', 'to'),
  ...role('之间|之間|中间|中間', 'betweenAfter'),
  ...role('以后|以後|之后|之後|后|後|开始|開始|起|往后|往後|过后|過後|以来|以來', 'afterAfter'),
  ...role('直到|到', 'before'),
  ...role('以前|之前|前|为止|為止', 'beforeAfter'),
  ...role('在|于|於', 'atWeak'),
  ...role('左右|前后|前後|处|處|时|時|的时候|的時候|时候|時候|附近|上下', 'atAfter'),
  ...role('半段|半部分|半部|一半|半场|半場|半程', 'partHalf'),
  ...role('部分|段|阶段|階段', 'part'),
  ...role('上', 'upper'),
  ...role('下', 'lower'),
  ...role('中间|中間|中段|中部', 'middle'),
  ...role('里|裡|内|內|中|期间|期間|这段|這段|那段|这段时间|這段時間|那段时间|那段時間|的时间|的時間', 'inside'),
];

function build(specs: Spec[]): Map<string, TimeWord> {
  const out = new Map<string, TimeWord>();
  for (const [key, roles, extra] of specs) {
    const prev = out.get(key);
    if (!prev) out.set(key, { roles: [...roles], ...extra });
    else out.set(key, { ...prev, ...extra, roles: [...new Set([...prev.roles, ...roles])] });
  }
  return out;
}

/** Latin-script entries by their lowercase words joined with one space. */
export const LATIN_WORDS: ReadonlyMap<string, TimeWord> = build(LATIN);
/** Chinese entries by their characters. */
export const CJK_WORDS: ReadonlyMap<string, TimeWord> = build(CJK);
/** The most words a Latin entry has. */
export const LATIN_MAX_WORDS = Math.max(...[...LATIN_WORDS.keys()].map((k) => k.split(' ').length));
/** The most characters a Chinese entry has. */
export const CJK_MAX_CHARS = Math.max(...[...CJK_WORDS.keys()].map((k) => [...k].length));

/**
 * Chinese words that hold a time character but are no time word (内容 is no 内 "within", 小时候 no
 * hours, 后来 no 后 "after"): read whole, as other text.
 */
export const CJK_NOT_TIME = new Set(
  '内容|內容|中国|中國|其中|中心|分析|分享|分别|分別|后来|後來|起来|起來|下来|下來|上来|上來|小时候|小時候|时代|時代|后果|後果|前提|前景|前途|后悔|後悔|下面|上面|前天|后天|後天'.split('|'),
);

/** Punctuation that joins the two ends of a range: hyphens, dashes, tildes. */
export const RANGE_DASHES = new Set(['-', '–', '—', '−', '~', '～', '‐', '‑']);
/**
 * Words dropped before parsing, which never change a time: articles, classifiers and
 * demonstratives (开头那五分钟), "about" and other approximations (after about 20 minutes, 大约20分钟以后),
 * "timestamp".
 */
export const DROPPED = new Set([
  'the', 'el', 'la', 'los', 'las', 'lo', '的', '个', '個', '一直', '那', '这', '這', '那个', '這個', '这个', '那個',
  'about', 'approximately', 'roughly', 'some', 'unos', 'unas', 'aproximadamente', '大约', '大約', '大概', '约', '約',
  'timestamp', 'timestamps',
]);
/** "at" words that only soften a point after "after", "before", "between": "after around 20 minutes". */
export const APPROXIMATE_AT = new Set(['around', 'alrededor de', 'alrededor del', 'cerca de', 'cerca del']);
