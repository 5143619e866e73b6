/**
 * Generated spam and genuine comments for the spam detector's tests: templates of each spam class
 * (channel plugs, subscription begging, search plugs, domains, follower and money offers, contact
 * requests) in English, Spanish and Chinese, filled from slot lists and disguised by the tricks
 * spammers use (capitals, stretched letters, spaced letters, look-alike letters, invisible
 * characters, disguised dots, decoration), and genuine comments that use the same words
 * innocently ("I subscribed years ago", "he made money with this song", "在百度上查了一下").
 * Seeded: the same seed gives the same comments.
 */
import { mulberry32 } from '../../src/core/util/seededRandom';

export type SpamLang = 'en' | 'es' | 'zh';
export type SpamClass = 'channel plug' | 'subscription begging' | 'search plug' | 'domain' | 'follower offer' | 'money offer' | 'contact request';

export interface GeneratedComment {
  text: string;
  lang: SpamLang;
  /** The spam class, or undefined for a genuine comment. */
  cls?: SpamClass;
  /** The disguise applied (spam only). */
  trick?: string;
}

/** A small seeded generator (mulberry32). */
export const seeded = mulberry32;

type Slots = Record<string, readonly string[]>;

const SLOTS: Record<SpamLang, Slots> = {
  en: {
    greet: ['', 'Hey guys, ', 'Hi everyone! ', 'Yo ', 'Hello people, ', 'OMG '],
    plea: ['', ' please', ' pls', ' it would mean a lot', ' thanks!!', ' :)'],
    channel: ['channel', 'new channel', 'youtube channel', 'music channel', 'gaming channel', 'vlog channel'],
    content: ['covers', 'minecraft videos', 'rap songs', 'makeup tutorials', 'pranks', 'beats'],
    title: ['"Lost in the Night"', 'Rizzo Beats', 'DJ Kamoro', '"Summer Wave remix"', 'Tina Vox', 'the Broken Keys band'],
    platform: ['Google', 'YouTube', 'Spotify', 'SoundCloud', 'iTunes', 'Instagram'],
    domain: ['fastfans', 'viralboost', 'cashdaily', 'freegiftz', 'topgrowth', 'easyprofits'],
    tld: ['com', 'net', 'org', 'xyz', 'info', 'online'],
    n: ['500', '1000', '5,000', '10k', '250', '3000'],
    money: ['$500', '$250', '$1,000', '$3000', '$120', '$75'],
    period: ['a day', 'per day', 'every week', 'a week', 'per hour', 'a month'],
    audience: ['followers', 'subscribers', 'likes', 'Instagram followers', 'YouTube subscribers', 'TikTok followers'],
    handle: ['@rizzo_beats', '@tinavox99', 'kamoro_official', '@growfast.now', 'lilpeppa77', '@mk_music'],
  },
  es: {
    greet: ['', 'Hola a todos, ', 'Hola amigos! ', 'Oigan ', 'Buenas, '],
    plea: ['', ' por favor', ' porfa', ' se los agradecería mucho', ' gracias!!'],
    channel: ['canal', 'nuevo canal', 'canal de youtube', 'pequeño canal'],
    content: ['videos de fútbol', 'covers', 'gameplays', 'recetas', 'música urbana'],
    title: ['"Noche de Verano"', 'DJ Caliche', 'Los Rayos', 'Mora Beats', '"Corazón de Piedra"'],
    platform: ['Google', 'YouTube', 'Spotify', 'Instagram', 'TikTok'],
    domain: ['ganafacil', 'seguidorespro', 'dinerohoy', 'crecerya', 'premiosmx'],
    tld: ['com', 'net', 'online', 'xyz', 'info'],
    n: ['500', '1000', '5.000', '10k', '300'],
    money: ['$500', '300 dólares', '200 euros', '$1.000', '1000 pesos'],
    period: ['al día', 'por día', 'a la semana', 'cada semana', 'por hora'],
    audience: ['seguidores', 'suscriptores', 'likes', 'vistas'],
    handle: ['@caliche_dj', '@morabeats', 'losrayos_oficial', '@ganaya'],
  },
  zh: {
    greet: ['', '大家好，', '各位朋友，', '哈喽，'],
    plea: ['', '，谢谢大家', '，拜托了', '！！'],
    content: ['美食视频', '游戏解说', '旅行vlog', '翻唱', '搞笑视频'],
    title: ['小鱼说', '阿明的厨房', '夜猫音乐', '老王讲故事'],
    platform: ['抖音', '快手', 'B站', '百度', '小红书'],
    domain: ['zhuanqian', 'fensi888', 'haoyun', 'jianzhi66'],
    tld: ['com', 'net', 'cn', 'xyz'],
    n: ['三百', '五百', '1000', '两千'],
    handle: ['abc12345', 'wx_888666', 'xiaoyu2024', 'vip6688'],
  },
};

/** Spam templates: `{slot}` is filled from the language's slots. */
const SPAM: Record<SpamLang, Partial<Record<SpamClass, readonly string[]>>> = {
  en: {
    'channel plug': [
      '{greet}check out my {channel}{plea}',
      '{greet}I make {content}, come visit my {channel}{plea}',
      '{greet}please give my {channel} a chance, I upload {content} every week',
      '{greet}I just started my {channel} and would love some support{plea}',
      '{greet}new youtuber here! I post {content}, check it out{plea}',
    ],
    'subscription begging': [
      '{greet}SUBSCRIBE to my {channel}{plea}',
      '{greet}sub4sub anyone? comment and I will sub back',
      '{greet}please subscribe, I want to hit {n} subscribers by tonight',
      '{greet}subscribe to me and I will subscribe to you{plea}',
      '{greet}like and subscribe for more {content}!!',
    ],
    'search plug': [
      '{greet}search {title} on {platform}{plea}',
      '{greet}go search {title} on {platform}, you will not regret it',
      '{greet}type {title} in the youtube search bar{plea}',
      '{greet}look up {title} on {platform} right now',
      '{greet}just google {title} and listen{plea}',
    ],
    domain: [
      '{greet}visit {site} for free music{plea}',
      '{greet}best deals at {site} !!',
      '{greet}all my {content} are on {site}',
      '{greet}go to {site} and sign up{plea}',
    ],
    'follower offer': [
      '{greet}get {n} real {audience} in 24 hours at {site}',
      '{greet}buy cheap {audience} here: {site}',
      '{greet}want {n} {audience}? grow your channel fast with {site}',
      '{greet}free {audience} every day, no password needed',
      '{greet}boost your instagram with instant {audience}',
    ],
    'money offer': [
      '{greet}I make {money} {period} working from home, ask me how',
      '{greet}how I made {money} in 3 days with this one simple trick',
      '{greet}want to get rich fast? easy money, no experience needed',
      '{greet}earn {money} {period} online, message me',
      '{greet}make money online from your phone, I quit my job thanks to this',
    ],
  },
  es: {
    'channel plug': [
      '{greet}pasen por mi {channel}, subo {content}{plea}',
      '{greet}visiten mi {channel}{plea}',
      '{greet}los invito a mi {channel} de {content}{plea}',
      '{greet}apoyen mi {channel}, hago {content}{plea}',
    ],
    'subscription begging': [
      '{greet}suscríbete a mi {channel}{plea}',
      '{greet}SUSCRÍBANSE y denle like{plea}',
      '{greet}sub x sub, te devuelvo la suscripción',
      '{greet}suscríbanse y activen la campanita{plea}',
    ],
    'search plug': [
      '{greet}búsquenme en {platform} como {handle}{plea}',
      '{greet}busquen {title} en {platform}{plea}',
      '{greet}búscame en {platform}: {handle}',
    ],
    domain: ['{greet}entren a {site} y ganen premios{plea}', '{greet}visita {site} para más {content}', '{greet}todo en {site}{plea}'],
    'follower offer': [
      '{greet}compra {audience} reales en {site}',
      '{greet}consigue {n} {audience} gratis en {site}',
      '{greet}haz crecer tu canal con {audience} reales, escríbeme',
    ],
    'money offer': [
      '{greet}gana dinero desde casa, yo gano {money} {period}{plea}',
      '{greet}cómo gané {money} en una semana sin salir de casa',
      '{greet}dinero fácil y rápido, escríbeme al whatsapp',
      '{greet}trabaja desde casa y gana {money} {period}',
    ],
  },
  zh: {
    'channel plug': ['{greet}欢迎关注我的频道，每天更新{content}{plea}', '{greet}求关注求点赞，我做{content}{plea}', '{greet}关注我，带你看更多{content}'],
    'search plug': ['{greet}在{platform}搜{title}就能找到我{plea}', '{greet}去{platform}搜索{title}{plea}', '{greet}百度一下{title}{plea}'],
    'contact request': ['{greet}加微信{handle}了解详情{plea}', '{greet}私信我领取免费资料', '{greet}点击链接{site}领取', '{greet}有需要的加我好友，微信号：{handle}'],
    'follower offer': ['{greet}快速涨粉，真人粉，私我', '{greet}买粉刷赞，价格便宜{plea}', '{greet}代刷播放量，{n}起'],
    'money offer': ['{greet}在家兼职，日赚{n}，加微信{handle}', '{greet}教你赚钱的方法，零投资{plea}', '{greet}一夜暴富不是梦，私信我'],
  },
};

/** Genuine comments: topic talk, and the spam words used innocently. */
const HAM: Record<SpamLang, readonly string[]> = {
  en: [
    'I subscribed to this channel years ago and it still makes my day',
    'He made so much money from this song, good for him',
    'The views on this video are insane, {n} million already?',
    'Who else searched for this song after hearing it in the movie?',
    'I found {title} on {platform} first and then came here',
    'My dad showed me this video when I was a kid',
    'The dancer at 2:31 is amazing, how does she move like that',
    'This song got me through my exams, thank you {title}',
    'I bought the album on vinyl and the sound is much better',
    'The channel deserves more subscribers honestly',
    'Google translate says the chorus is about summer love',
    'This has more likes than the original and I understand why',
    'Best music video of the year, the colors are beautiful',
    'I remember when everyone at my school danced to this',
    'The lyrics make no sense but I love it anyway',
    'Came back after five years and it still slaps',
    'The remix is good but the original is better',
    'Can someone tell me the name of the song at the end?',
    'I can not believe this came out ten years ago',
    'His voice sounds so different live, still great though',
  ],
  es: [
    'Gran entrevista, me suscribí por este episodio',
    'Él gana dinero con la publicidad del canal, es normal',
    'Busqué en Google lo que dijo del mercado y es cierto',
    'Qué buen podcast, saludos desde México',
    'El invitado explicó muy bien lo de la inflación',
    'Ojalá traigan a más científicos al programa',
    'Tiene muchos seguidores en Instagram pero aquí se le ve más tranquilo',
    'Minuto 34: lo que cuenta de su padre me hizo llorar',
    'No estoy de acuerdo con lo que dijo de los impuestos',
    'La calidad del audio mejoró mucho desde el último capítulo',
    'Escuché este episodio en Spotify mientras cocinaba',
    'Me encanta cómo el presentador deja hablar a los invitados',
    'Hace falta más contenido así en español',
    'Vengo del clip que vi en TikTok y el episodio completo es mejor',
    'Que alguien me diga el nombre del libro que recomendó',
  ],
  zh: [
    '这个视频讲得很清楚，谢谢分享',
    '我关注这个频道很久了，每期都看',
    '他说赚钱不容易，我很同意',
    '在百度上查了一下，确实如此',
    '第一次看到这么用心的解说',
    '背景音乐叫什么名字？好好听',
    '这一期的嘉宾说得太有道理了',
    '看完之后我也想去那里旅行',
    '支持一下，希望多做这样的内容',
    '三分钟那里的画面太美了',
    '我奶奶也是这样做的，很怀念',
    '讲得不错，就是声音有点小',
  ],
};

/** A look-alike (Cyrillic) for some Latin letters. */
const LOOKALIKE: Record<string, string> = { a: 'а', e: 'е', o: 'о', c: 'с', p: 'р', x: 'х', y: 'у' };

/** The words a disguise is applied to: the ones the rules would otherwise read. */
const KEY_WORDS = /\b(?:subscribe|channel|check|search|followers|subscribers|money|visit|suscr[ií]b\w*|canal|seguidores|dinero|please)\b/i;

/** Disguises of a spam comment (Latin-script tricks are skipped for Chinese). */
const TRICKS: Record<string, (t: string, next: () => number) => string> = {
  none: (t) => t,
  capitals: (t) => t.toUpperCase(),
  stretched: (t) =>
    t.replace(KEY_WORDS, (w) => {
      const last = w[w.length - 1]!;
      return `${w}${last.repeat(4)}`.toUpperCase();
    }),
  spaced: (t) => t.replace(KEY_WORDS, (w) => [...w].join(' ')),
  lookalike: (t) => t.replace(KEY_WORDS, (w) => [...w].map((c) => LOOKALIKE[c] ?? c).join('')),
  invisible: (t) => t.replace(KEY_WORDS, (w) => `${w.slice(0, 2)}\u200b${w.slice(2)}`),
  decorated: (t, next) => `${['🔥🔥🔥 ', '★彡 ', '>>> ', '💰💰 '][Math.floor(next() * 4)]}${t}${['!!!!!!', ' 🔥🔥🔥', ' ✔✔✔', ' <<<'][Math.floor(next() * 4)]}`,
};

/** How a domain is written: plain, dot spelled out, bracketed, spaced `w w w`. */
const DOMAIN_FORMS: readonly ((name: string, tld: string) => string)[] = [
  (n, t) => `${n}.${t}`,
  (n, t) => `www.${n}.${t}`,
  (n, t) => `${n} dot ${t}`,
  (n, t) => `${n}(.)${t}`,
  (n, t) => `${n} (dot) ${t}`,
  (n, t) => `w w w . ${n} . ${t}`,
  (n, t) => `${n.toUpperCase()}.${t.toUpperCase()}`,
  (n, t) => `https://${n}.${t}/join?ref=${n.length}7`,
];

function fill(template: string, lang: SpamLang, next: () => number): string {
  const slots = SLOTS[lang];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return template
    .replace(/\{site\}/g, () => pick(DOMAIN_FORMS)(pick(slots.domain!), pick(slots.tld!)))
    .replace(/\{(\w+)\}/g, (_, k: string) => pick(slots[k] ?? ['']))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `perTemplate` spam comments for each template of each class of `lang`, each with a disguise
 * drawn in turn (Latin tricks only for Latin text).
 */
export function generateSpam(lang: SpamLang, seed: number, perTemplate = 6): GeneratedComment[] {
  const next = seeded(seed);
  const tricks = lang === 'zh' ? ['none', 'decorated'] : Object.keys(TRICKS);
  const out: GeneratedComment[] = [];
  for (const [cls, templates] of Object.entries(SPAM[lang]) as [SpamClass, readonly string[]][]) {
    for (const t of templates) {
      for (let i = 0; i < perTemplate; i++) {
        const trick = tricks[(i + out.length) % tricks.length]!;
        out.push({ text: TRICKS[trick]!(fill(t, lang, next), next), lang, cls, trick });
      }
    }
  }
  return out;
}

/** `perTemplate` genuine comments per template of `lang`. */
export function generateHam(lang: SpamLang, seed: number, perTemplate = 3): GeneratedComment[] {
  const next = seeded(seed);
  const out: GeneratedComment[] = [];
  for (const t of HAM[lang]) for (let i = 0; i < perTemplate; i++) out.push({ text: fill(t, lang, next), lang });
  return out;
}

/** The spam classes generated for a language. */
export function spamClasses(lang: SpamLang): SpamClass[] {
  return Object.keys(SPAM[lang]) as SpamClass[];
}
