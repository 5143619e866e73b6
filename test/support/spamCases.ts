/**
 * Comments composed to exercise every branch of the spam detector's reading of a comment: genuine
 * remarks and spam of each class (English, Spanish, Chinese) × a disguise (capitals, stretched,
 * spaced or look-alike letters, invisible characters, full-width letters, brackets) × an addition
 * (links of every kind — the item's own video, referral, shortener, disguised "dot com", "w w w",
 * capitals — emoji runs, decoration, numbers in several scripts, letters beyond the BMP,
 * punctuation runs, a phrase said three times), plus texts that are empty, blank, longer than the
 * detector reads, or whose model features share a hash (FNV-1a collisions, found by search). Laid
 * out as a corpus: templates posted under several items by several accounts, two mirrored items,
 * authors who post spam and genuine comments. Seeded: the same seed gives the same corpus.
 */
import type { SpamInput } from '../../src/core/markers/spam';
import { mulberry32 } from '../../src/core/util/seededRandom';

const BASES: readonly string[] = [
  // Genuine.
  'I subscribed years ago and this episode is still my favourite',
  'The part about the battery at 12:30 was really interesting, thanks for explaining',
  'he made a lot of money with this song back in 2010',
  'Who else is here because of the bridge? I think we should compare the river before the result.',
  'Great video, the time part was serious! Most of the job comes from the people.',
  'e.g. the 3.5 version is better than the old one',
  'Me suscribí hace años y este episodio sigue siendo mi favorito',
  'La parte del puente fue muy interesante, gracias por explicarlo tan bien',
  '在百度上查了一下，这个桥确实很有名',
  '这个视频讲得很清楚，谢谢分享',
  'I love this song so much it is the best ever',
  'nice',
  'best song ever',
  // Spam.
  'Check out my channel!',
  'hey guys check my new video, you will love it',
  'Please visit my youtube channel for covers',
  'SUBSCRIBE to my gaming channel please',
  'sub4sub anyone? comment and I will sub back',
  'please subscribe, I want to hit 1000 subscribers by tonight',
  'search Rizzo Beats on Spotify, you will not regret it',
  'type DJ Kamoro in the youtube search bar pls',
  'get 5000 real followers in 24 hours',
  'I make $500 a day working from home, ask me how',
  'want to get rich fast? easy money, no experience needed',
  'Like this comment for no reason',
  'Please donate to help me reach my goal',
  'Suscríbete a mi canal por favor',
  'Los invito a suscribirse a mi canal de recetas',
  'gana dinero desde casa, yo gano 300 dólares al día',
  'búsquenme en YouTube como TinaVox',
  '欢迎关注我的频道，每天更新美食视频',
  '在家兼职，日赚三百，加微信 abc12345',
  '求关注求点赞，我做游戏解说',
];

const CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у' };

/** Disguises applied to a whole comment. */
const DISGUISES: readonly ((t: string, r: () => number) => string)[] = [
  (t) => t,
  (t) => t.toUpperCase(),
  // Stretched: each vowel of the first words three to six times.
  (t, r) => t.replace(/[aeiou]/g, (v) => (r() < 0.3 ? v.repeat(3 + Math.floor(r() * 4)) : v)),
  // The longest word spaced out ("s u b s c r i b e").
  (t) => {
    const w = (t.match(/[a-zA-Zí]{5,}/g) ?? []).sort((a, b) => b.length - a.length)[0];
    return w ? t.replace(w, [...w].join(' ')) : t;
  },
  // Cyrillic look-alikes inside Latin words.
  (t, r) => t.replace(/[aeopcxy]/g, (c) => (r() < 0.4 ? CYRILLIC[c]! : c)),
  // Invisible characters inside words, a byte order mark at the start.
  (t, r) => `\uFEFF${t.replace(/([a-z])([a-z])/g, (m, a: string, b: string) => (r() < 0.2 ? `${a}\u200B${b}` : m))}`,
  // Full-width letters and digits.
  (t) => t.replace(/[A-Za-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  // A word broken by brackets.
  (t) => t.replace(/\b([a-z]{3})([a-z]{3,})\b/, '$1[$2]'),
];

/** Additions after (or before) a comment. */
const ADDITIONS: readonly string[] = [
  '',
  ' https://bit.ly/3xYz12',
  ' http://www.example-shop.com/deals?ref=12345',
  ' visit mysite dot com today',
  ' w w w . freegiftz . net',
  ' FASTFANS.COM',
  ' site (.) net',
  ' see word.Es for more',
  ' http://youtu.be/CevxZvSJLk8',
  ' https://www.youtube.com/watch?v=CevxZvSJLk8&t=42',
  ' watch?v=abcdefghijk',
  ' https://en.wikipedia.org/wiki/Bridge',
  ' https://www.gofundme.com/my-cause',
  ' instagram.com/tinavox',
  ' 🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥',
  ' ▬▬▬▬ ░░░ ▬▬▬▬',
  ' 123 ²³ ½ Ⅻ ٣٤ 4000',
  ' 𐌰𐌰𐌰 𠀀𠀀𠀀 𝐀𝐁𝐂',
  ' !!!!!!!!!! ???',
  ' follow me follow me follow me follow me',
  ' ÉCOUTEZ MON CANAL MAINTENANT',
  ' @tina.vox on insta',
  ' whatsapp +1 555 123 4567',
  ' 私信我',
  ' pleaaase SUBSCRIBEEEE plzzz wwwwww',
  ' tpebuu gvzcvo',
  ' sfreii java',
  ' zpfuge xvwj',
];

/** Texts on their own: blank ones, one longer than the detector reads, collisions repeated. */
const SPECIAL: readonly string[] = [
  '',
  '   ',
  '\n\t ',
  'a',
  '!!!',
  '🔥',
  `${'great podcast about bridges and rivers '.repeat(120)}check out my channel https://bit.ly/abc ${'and the end '.repeat(200)}`,
  'tpebuu gvzcvo tpebuu gvzcvo sfreii java zpfuge xvwj',
  'java sfreii',
  '我的频道abc123频道 check it',
  's u s c r í b e t e a mi canal',
  'W W W . MYSITE . COM',
  'look at you[tube] and chan(nel) now',
];

const NOUNS = ['bridge', 'river', 'battery', 'council', 'recipe', 'camera', 'winter', 'budget', 'harvest', 'museum', 'engine', 'garden', 'ticket', 'island', 'market', 'lesson'];
const ADJECTIVES = ['interesting', 'confusing', 'spot on', 'too short', 'hilarious', 'well explained', 'a bit slow', 'new to me'];
const SUSTANTIVOS = ['puente', 'río', 'batería', 'receta', 'cámara', 'invierno', 'museo', 'jardín', 'mercado', 'lección'];
const HAN = '山水火木金土日月风雨花草鸟鱼人心手口耳目天地东西南北春夏秋冬红黄蓝白黑大小多少高低长短新旧远近快慢';

/** A genuine remark, different each time (no template): English, Spanish or Chinese. */
function remark(r: () => number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const mm = Math.floor(r() * 60);
  const ss = String(Math.floor(r() * 60)).padStart(2, '0');
  switch (Math.floor(r() * 3)) {
    case 0:
      return `The ${pick(NOUNS)} part at ${mm}:${ss} was ${pick(ADJECTIVES)}, and the ${pick(NOUNS)} one ${r() < 0.5 ? 'even more' : 'not so much'}.`;
    case 1:
      return `Lo del ${pick(SUSTANTIVOS)} en el minuto ${mm} me pareció ${r() < 0.5 ? 'genial' : 'raro'}, ¿y el ${pick(SUSTANTIVOS)}?`;
    default:
      return `${Array.from({ length: 6 + Math.floor(r() * 6) }, () => pick([...HAN])).join('')}。`;
  }
}

/** A plug posted by several accounts under several items (a campaign), and one genuine line said under many. */
const CAMPAIGN = 'Earn 500 dollars a day from home with this simple method, message me on telegram now for details';
const REPEATED_GENUINE = 'Came here to check the views after the news about the bridge';

/** Every comment text of the cases, in order. */
export function spamCaseTexts(seed = 7): string[] {
  const r = mulberry32(seed);
  const out: string[] = [];
  BASES.forEach((base, i) =>
    DISGUISES.forEach((disguise, j) => {
      // Every other comment has an addition.
      const add = (i + j) % 2 ? '' : ADDITIONS[(i * DISGUISES.length + j) % ADDITIONS.length]!;
      const text = disguise(base, r);
      out.push(j % 3 === 2 ? `${add.trim()} ${text}` : `${text}${add}`);
    }),
  );
  for (const add of ADDITIONS) out.push(`${BASES[Math.floor(r() * BASES.length)]!}${add}`);
  out.push(...SPECIAL);
  for (let k = 0; k < 120; k++) out.push(remark(r));
  return out;
}

/**
 * The cases as a corpus: comments spread over items, authors drawn from a small pool (so an
 * author's spam makes their other comments suspect), a campaign and a repeated genuine line under
 * several items, two items that mirror each other, and items whose video the own-video links point at.
 */
export function spamCaseCorpus(seed = 7): SpamInput[] {
  const r = mulberry32(seed + 1);
  const texts = spamCaseTexts(seed);
  const ITEMS = 14;
  const items: SpamInput[] = Array.from({ length: ITEMS }, (_, k) => ({ itemId: `item-${k}`, comments: [], ...(k % 4 === 0 ? { videoId: 'CevxZvSJLk8' } : {}) }));
  const push = (k: number, text: string, author: string | undefined): void => {
    const comments = items[k]!.comments as { id: string; text: string; author?: string }[];
    comments.push({ id: `c${k}-${comments.length}`, text, ...(author === undefined ? {} : { author }) });
  };
  texts.forEach((text, i) => {
    const k = Math.floor(r() * (ITEMS - 2));
    // Half the comments by a pool of 18 accounts, the others each by its own; a few without an author.
    const a = Math.floor(r() * 40);
    push(k, text, a === 0 ? undefined : a === 1 ? '  ' : a < 20 ? `User${a}` : `person${i}`);
  });
  for (let k = 0; k < 5; k++) push(k * 2, CAMPAIGN, `seller${k}`);
  for (let k = 0; k < 6; k++) push(k, REPEATED_GENUINE, `viewer${k}`);
  // Two copies of one item: their shared long comments are one comment each.
  for (let c = 0; c < 8; c++) {
    const text = `Long genuine remark number ${c} about the museum, the garden and the winter market in town`;
    push(ITEMS - 2, text, `local${c}`);
    push(ITEMS - 1, text, `local${c}`);
  }
  push(ITEMS - 1, CAMPAIGN, 'seller0');
  return items;
}
