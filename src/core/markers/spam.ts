/**
 * Spam and self-promotion among comments, by classes rather than examples:
 * links and domains (also disguised: "site dot com", "w w w", capitals), links
 * with a call to action, channel plugs, subscription begging (also stretched
 * "SUBSCRIBEEEE", sub4sub), search plugs ("search X on Google"), follower and
 * money offers, get-rich-quick headlines, contact requests, engagement bait,
 * scams and solicitations, in English, Spanish and Chinese; character tricks
 * (./spamText); near-duplicates posted by several accounts or across items
 * (./nearDuplicates); and a learned model (./spamModel, trained by
 * scripts/trainSpam.ts).
 *
 * How they combine: every cue adds its weight to a comment's score (weak cues —
 * caps, decoration, repetition — only strengthen a promotion cue), a
 * near-duplicate group adds its weight, the model adds its log-odds × 0.4 ×
 * the share of the comment it knows, within [0, 0.7] ({@link modelTerm}); one
 * threshold, {@link SPAM_THRESHOLD}, decides. The model never flags a comment
 * alone nor clears one; no single weak cue or repetition alone reaches the
 * threshold. Which comments are spam is decided in one place for every reader
 * (./spamFree: the spam-free comments of an item); the extractive comments pass
 * keeps spam out of every comment marker, theme and the sentiment.
 *
 * @example
 * const spam = detectSpam(corpus.items.flatMap((i) => spamInputOf(i) ?? []));
 * spam.get('item-1')?.ids.has(commentId);
 */
import type { CorpusItem } from '../corpus/types';
import { shippedSpamModel, type SpamModel, type SpamModelScore } from './spamModel';
import { CJK, CJK_CHARS, hostOf, normaliseForSpam, readForSpam, URL_RE, WORD_RUN, YT_ID, type SpamReading } from './spamText';
import { templateWeights, type Flat, type SpamRecord } from './spamTemplates';

export { normaliseForSpam } from './spamText';

/** The part of a comment the detector reads. */
export interface SpamComment {
  id: string;
  text: string;
  author?: string;
}

/** One item's comments; `videoId` makes links to the item's own video harmless. */
export interface SpamInput {
  itemId: string;
  comments: readonly SpamComment[];
  videoId?: string;
}

/** The spam of one item: the ids, and why each was flagged. */
export interface SpamDecision {
  ids: Set<string>;
  reasons: Map<string, string[]>;
  /** Scores of the comments that showed any cue (flagged or not): a suspicion that marker selection can weigh. */
  scores: Map<string, number>;
}

export interface CommentScore {
  score: number;
  /** Why, one short phrase per cue that fired, strongest first. */
  reasons: string[];
}

/**
 * The rules' version: bumped whenever what {@link detectSpam} decides for the same comments
 * changes without the model changing (a cue, a weight, near-duplicate grouping, text
 * normalisation, the thresholds). Part of the saved decision's key (spamStore.ts): a decision
 * made by other rules is never used.
 */
export const SPAM_RULES_VERSION = 1;

/** Score at or above which a comment is spam. */
export const SPAM_THRESHOLD = 1;
/** What a comment's author having posted spam elsewhere in the corpus adds to it. */
const AUTHOR_WEIGHT = 0.5;
/**
 * Score at or above which a comment that is not spam still shows promotion cues
 * (a link and little else, "thumbs up if", a repeated template): kept in themes and
 * sentiment, never the evidence of a marker.
 */
export const SUSPECT_THRESHOLD = 0.5;

// ---- links ------------------------------------------------------------------------------

/** subscribe as a verb and its misspellings (not "sub"/"subs", which are also nouns). */
const SUB_VERB = String.raw`(?:subscribe|subcribe|suscribe|sucscribe|subscibe|subscrive|subscrib)(?!\p{L})`;

/** Hosts whose links are promotion by nature: social profiles, stores, shorteners, music, file and blog hosts, messengers. */
const PROMO_HOSTS =
  /(?:^|\.)(?:facebook|fb|twitter|x|instagram|instagr|tiktok|twitch|soundcloud|reverbnation|bandcamp|datpiff|spotify|audiomack|vimeo|dailymotion|kik|snapchat|linktr|patreon|onlyfans|ebay|amazon|etsy|aliexpress|teespring|redbubble|bit|tinyurl|goo|ow|t|is|adf|cutt|shorte|rebrand|mediafire|4shared|megaupload|zippyshare|wattpad|blogspot|wordpress|tumblr|wix|weebly|play\.google|apps\.apple|whatsapp|wa|telegram|discord|discordapp|wechat|weixin)\.[a-z.]+$/i;
/** Fundraisers and petitions: a request for money or signatures wherever it sits. */
const FUNDRAISER_HOSTS = /(?:^|\.)(?:gofundme|indiegogo|kickstarter|change|avaaz|patreon|ko-fi|buymeacoffee|paypal|paypal\.me|gogetfunding|fundly|crowdrise|leetchi|vakinha|verkami|goteo)\.[a-z.]+$/i;
/** Hosts of sources a sensible comment cites. */
const SOURCE_HOSTS = /(?:^|\.)(?:wikipedia\.org|wikimedia\.org|github\.com|doi\.org|arxiv\.org|scholar\.google\.[a-z.]+|ncbi\.nlm\.nih\.gov|who\.int|bbc\.(?:co\.uk|com)|reuters\.com|apnews\.com|nytimes\.com|theguardian\.com|elpais\.com|elmundo\.es|rtve\.es|[a-z0-9-]+\.(?:gov|edu|gob\.[a-z]{2}|edu\.[a-z]{2}|ac\.[a-z]{2}))$/i;
const REFERRAL = /[?&#](?:ref|rb|r|aff|affiliate|affid|referral|refer|invite|friend|promo|utm_source|icep_\w+|campid)=|\/(?:ref|refer|referral|invite|aff|partners?)\//i;

/** A call to action up to two words before a link (the link replaced by U+E000, a private-use character), in English, Spanish and Chinese. */
const LINK_ACTION =
  /(?:\b(?:visit|go\s+(?:to|on)|head\s+(?:over\s+)?to|check(?:\s+out)?|click(?:\s+on)?|join(?:\s+us)?(?:\s+(?:at|on))?|sign\s+up(?:\s+(?:at|on))?|register(?:\s+(?:at|on))?|download(?:\s+(?:it|from|at))?|get\s+it\s+(?:at|on)|come\s+to|entr(?:a|ad|en)\s+(?:a|en)|visit(?:a|en|ad)|ingres(?:a|en)\s+(?:a|en)|reg[ií]str(?:ate|ense)\s+en|descarg(?:a|uen)(?:lo)?\s+(?:en|de)|p[aá]s(?:ate|en)\s+por)\s+(?:\S+\s+){0,2}?|(?:点击|打开|访问|进入|登录|复制)\s*)\uE000/u;

interface LinkCue {
  weight: number;
  reason: string;
}

/** Links of a normalised comment (`urls`: the links of `cased`): none when every link points at the item's own video. */
function linkCue(cased: string, urls: readonly string[], videoId: string | undefined): LinkCue | undefined {
  if (!urls.length) return undefined;
  const outside = urls.filter((u) => {
    const id = YT_ID.exec(u)?.[1];
    return !(videoId && id && id.toLowerCase() === videoId.toLowerCase());
  });
  if (!outside.length) return undefined;
  const hosts = outside.map(hostOf);
  const rest = urls.reduce((s, u) => s.replace(u, ' '), cased);
  // Words beside the links (two Chinese characters count as one).
  const words = (rest.match(WORD_RUN) ?? []).length + (rest.match(CJK_CHARS) ?? []).length / 2;
  if (hosts.every((h) => SOURCE_HOSTS.test(h)) && !outside.some((u) => REFERRAL.test(u))) return { weight: 0.2, reason: 'link to a source' };
  if (outside.some((u) => REFERRAL.test(u))) return { weight: 1.2, reason: 'referral link' };
  if (hosts.some((h) => FUNDRAISER_HOSTS.test(h))) return { weight: 1.2, reason: 'fundraiser link' };
  if (hosts.some((h) => PROMO_HOSTS.test(h))) return { weight: words >= 25 ? 0.8 : 1.2, reason: 'promotional link' };
  // Sent there: a call to action right before a link ("visit …", "entren a …", "点击 …").
  if (LINK_ACTION.test(outside.reduce((t, u) => t.replace(u, ' \uE000 '), cased).toLowerCase())) return { weight: 1.2, reason: 'link with a call to action' };
  // A link with little else is an advertisement; a link inside a comment that says something is a reference.
  if (words < 10) return { weight: 1.2, reason: 'bare link' };
  if (words < 20) return { weight: 0.8, reason: 'link' };
  return { weight: 0.4, reason: 'link' };
}

// ---- cues -------------------------------------------------------------------------------

interface Cue {
  re: RegExp;
  weight: number;
  reason: string;
}

/** Nouns a self-promotion points at. */
const PROMO_NOUN = String.raw`(?:chann?ell?s?|chann?el|chanel|chhanel|channal|chanell|vids?|vidios?|videos?|vlogs?|music|songs?|covers?|tracks?|mixtapes?|raps?|beats?|remix(?:es)?|album|ep|single|page|profile|stream|blog|website|site|app|game|book|account|insta(?:gram)?|twitter|facebook|fb|ig|tiktok|twitch|soundcloud|playlist|band|content|stuff|work|project|shop|store|movie|film|parody|youtube|yt|art|designs?|clothing|shirts?|products?|podcast|link)`;
const SELF = String.raw`(?:my|our|mah|me|us)`;
const ADJ = String.raw`(?:[\p{L}'-]+\s+){0,3}`;
const PLEASE = String.raw`(?:please|pls|plz+|plez|pleas|pleaz|pleaase|pleaaase)`;
/** subscribe and its misspellings, never "subscribed"/"subscriber(s)". */
const SUB = String.raw`(?:sub(?:s|scribes?|scrib|cribe|crib|scibe|sribe)?|suscribe|suscrib|sucscribe|subscrive)(?!\p{L})`;

/** Where a plug sends people to search. */
const PLATFORMS = String.raw`google|youtube|you\s*tube|yt|spotify|itunes|apple\s+music|deezer|soundcloud|bing|yahoo|facebook|fb|instagram|insta|ig|tiktok|twitter|twitch|snapchat`;
/** Social networks an audience is sold on. */
const SOCIAL = String.raw`instagram|insta|ig|youtube|yt|tiktok|twitter|facebook|fb|soundcloud|spotify|twitch`;
/** An audience counted in people. */
const AUDIENCE_PEOPLE = String.raw`followers|subscribers|subs|likes|fans`;

/** Matched on the lower-cased normalised text (no `i` flag: case folding under `u` is slow). */
const CUES: readonly Cue[] = [
  // Channel plugs.
  { re: new RegExp(String.raw`\b(?:check|chek|chack|checkout|cheak)(?:ing)?\s+(?:out\s+)?${SELF}\b(?!\s+(?:out\s+)?(?:on|at|in)\b)`, 'u'), weight: 1.2, reason: 'channel plug' },
  { re: new RegExp(String.raw`\b(?:check|take a look at|look at|watch|see)\s+(?:out\s+)?(?:this|these|the|our|my)\s+(?:new\s+|latest\s+|funny\s+|awesome\s+)?(?:video|playlist|channel|website|site|page|app|mixtape|link)\s+(?:on|at)\s+(?:youtube|youtu|facebook|twitter|instagram|soundcloud|twitch)`, 'u'), weight: 1.2, reason: 'shared-video template' },
  { re: new RegExp(String.raw`\bcheck\s+(?:out\s+)?(?:this|these)\s+(?:\S+\s+){0,2}?(?:video|playlist|channel|website|site|page|app|mixtape|remix|cover|track|song|rap|link)s?\b`, 'u'), weight: 0.8, reason: 'plug' },
  { re: new RegExp(String.raw`\b(?:visit|watch|see|view|listen\s+to|hear|look\s+(?:at|up)|go\s+(?:to|on|check|see|watch|look\s+at)|come\s+(?:to|and\s+\w+|check|see|watch)|follow|add|join|support|share|like|download|install|buy|try|vote\s+for|donate\s+to|help|promote|spread|throw\s+a\s+sub\s+on|sub(?:scribe)?\s+(?:to|on|in)|suscri\w*\s+(?:to|a))\s+(?:out\s+)?${SELF}\s+${ADJ}${PROMO_NOUN}\b`, 'u'), weight: 1.2, reason: 'channel plug' },
  { re: new RegExp(String.raw`\b(?:on|in|at|to|from)\s+(?:my|our)\s+(?:new\s+|youtube\s+|yt\s+|music\s+|gaming\s+)?(?:chann?ell?|chanel|chhanel|channal)\b`, 'u'), weight: 0.8, reason: 'channel plug' },
  { re: new RegExp(String.raw`\b(?:my|our)\s+(?:new\s+|first\s+|own\s+|little\s+|small\s+|youtube\s+|yt\s+|music\s+|gaming\s+){0,2}(?:chann?ell?|chanel|chhanel|channal|mixtape|soundcloud|twitch|vids|vidios)\b`, 'u'), weight: 0.5, reason: 'own channel' },
  { re: /\b(?:new|small|little|young|upcoming|aspiring)\s+(?:youtuber|youtube channel|channel|rapper|artist|producer|singer|band|musician|streamer)\b/u, weight: 0.5, reason: 'self-introduction' },
  { re: /\b(?:i'?m|i\s+am|im|we'?re|we\s+are)\s+(?:an?\s+)?(?:[\p{L}\p{N}'/-]+\s+){0,3}?(?:youtuber|rapper|songwriter|music producer|producer|beatboxer|vlogger|streamer|artist|musician|singer|dj|band)\b|\b(?:i'?m|i\s+am|im)\s+(?:getting|growing)\s+(?:popular|known|famous|big|as\s+an?\s+\w+)|\bi\s+(?:rap|sing|produce|beatbox)\b|\bmy\s+(?:fans|subscribers|followers|listeners)\b/u, weight: 0.6, reason: 'self-introduction' },
  { re: /\bi\s+(?:make|do|upload|post|create|film)\s+(?:[\p{L}\p{N}]+\s+){0,3}?(?:videos?|vids|covers?|music|songs?|raps?|beats?|montages?|vlogs?|lets\s?plays?|tutorials|remixes)\b/u, weight: 0.6, reason: 'self-introduction' },
  { re: /\b(?:just\s+)?(?:started|made|created|opened|launched)\s+(?:my|a|our)\s+(?:[\p{L}'-]+\s+){0,2}?channel\b/u, weight: 0.8, reason: 'self-introduction' },
  { re: /\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:did|made|recorded|wrote|uploaded|posted|produced|released|dropped|designed|created)\s+(?:a|an|my|our|some|this|the|new)\s+(?:[\p{L}\p{N}'-]+\s+){0,3}?(?:cover|covers|remix|song|video|parody|track|rap|beat|mixtape|music\s+video|album|ep|t-?shirts?|shirts?|hoodies?|app|game|book)\b|\b(?:my|our)\s+(?:new\s+|hit\s+|latest\s+|first\s+)(?:song|single|track|mixtape|album|video|cover|remix)\b|\bthis\s+is\s+(?:my|our)\s+(?:new\s+)?(?:playlist|channel|song|track|mixtape|page|band)\b/u, weight: 0.5, reason: 'own work' },
  { re: /\bcheck\s+(?:it|them|em|'em|’em)\s+out\b|\bif\s+(?:you|u)\s+(?:want\s+to|wanna)\s+(?:check|watch|listen|see|hear)\b/u, weight: 0.5, reason: 'check it out' },
  { re: /\bit\s+would\s+(?:really\s+)?(?:mean\s+(?:a\s+lot|the\s+(?:absolute\s+)?world|so\s+much|everything)|be\s+(?:wonderful|awesome|great|amazing|nice|appreciated))\b|\b(?:would|will)\s+(?:really\s+|greatly\s+|much\s+)?appreciate\s+(?:it\s+)?if\b|\btake\s+(?:just\s+)?(?:\d+|a|one|a\s+few)\s+(?:sec(?:ond)?s?|min(?:ute)?s?)\b|\bgive\s+(?:\d+|a|one|two|a\s+few)\s+(?:sec(?:ond)?s?|min(?:ute)?s?)\s+of\s+your\b|\bgive\s+(?:me|us)\s+(?:a|one)\s+(?:chance|shot|try)\b|\bi\s+(?:know|promise)\s+(?:you|u|most\s+people|people)?\s*(?:hate|don'?t\s+like|skip|tend\s+to\s+skip)\s+(?:these|this|comments)|\bsorry\s+for\s+(?:the\s+)?(?:spam|advertising|self[\s-]?promo)|\b(?:self|shameless)[\s-]?promo(?:tion)?\b|\b(?:please|plz|pls)\s+(?:help|support|join|follow|add)\s+(?:me|us)\b|\b(?:help|support)\s+(?:me|us)\s+(?:please|plz|pls)\b|\bhelp\s+(?:me|us)\s+out\b|\bspread\s+the\s+word\b|\bwould\s+(?:really\s+)?(?:love|appreciate)\s+(?:some|your|any|the)\s+(?:support|feedback|subs|views)\b/u, weight: 0.6, reason: 'plea' },
  { re: /\b(?:i|we)\s+(?:sell|'m\s+selling|am\s+selling|are\s+selling)\b|\bfor\s+(?:only|just)\s+\$\s?\d|\bonly\s+\$?\d+\s*(?:dollars|\$|usd|€)|\b\d+\s*%\s*off\b|\bfree\s+shipping\b|\b(?:out|available)\s+now\b|\bnow\s+available\b|\bavailable\s+(?:on|in|at)\s+(?:itunes|amazon|google\s+play|app\s+store|spotify|ebay)\b|\bon\s+itunes\b/u, weight: 0.6, reason: 'sale' },
  { re: /\b(?:watch|check\s+out|listen\s+to|hear|download)\s+(?:\S+\s+){0,3}?(?:latest|new|newest|brand\s+new)\s+(?:\S+\s+){0,2}?(?:single|video|song|track|album|mixtape|music\s+video|trailer)\b/u, weight: 0.6, reason: 'plug' },
  { re: /\b(?:please|plz|pls|go|just)\s+(?:look\s+up|search(?:\s+for)?|google)\s+|(?:^|[.!?]\s*)(?:search|look\s+up|google)\s+(?:for\s+)?["“«]/u, weight: 1.0, reason: 'search plug' },
  { re: /\bcheck\s+out\s+(?:\S+\s+){0,3}?(?:channel|chanel|page|mixtape|soundcloud|twitch)\b/u, weight: 1.0, reason: 'channel plug' },
  { re: new RegExp(String.raw`\bgive\s+(?:my|our)\s+${ADJ}${PROMO_NOUN}\s+a\s+(?:chance|listen|try|shot|view|look|like|thumbs\s+up)\b`, 'u'), weight: 1.2, reason: 'channel plug' },
  { re: /\bcheck\s+out\s+(?:\S+\s+){0,3}?(?:song|single|track|album|music\s+video|rap|remix|cover)\b/u, weight: 0.6, reason: 'plug' },
  { re: /\bcheck(?:ed|ing)?\s+out\s+(?:some\s+of\s+|all\s+of\s+|one\s+of\s+)(?:my|our)\b/u, weight: 1.0, reason: 'channel plug' },
  { re: new RegExp(String.raw`\bcheck\s+(?:me|us)\s+out\b|\b(?:check|visit|watch|see)\s+(?:my|our)\b`, 'u'), weight: 0.3, reason: 'plug' },
  { re: /\b(?:mir(?:a|en|ad)|escuch(?:a|en|ad)|vean|descarg(?:a|uen))\s+(?:\S+\s+){0,3}?(?:nuev[oa]|[uú]ltim[oa]|reciente|estreno\s+de)\s+(?:\S+\s+){0,2}?(?:video|v[ií]deo|videoclip|canci[oó]n|tema|sencillo|single|disco|[aá]lbum|clip)\b/u, weight: 0.6, reason: 'plug' },
  { re: /(?:快来|快去|去|来)?(?:看|听)(?:一下|看|听)?(?:我的|他的|她的|我们的)?(?:新|最新)(?:视频|歌|歌曲|单曲|专辑|作品|mv)/u, weight: 0.6, reason: 'plug' },
  { re: /\b(?:new|latest|brand\s+new)\s+(?:single|song|track|album|mixtape|ep|music\s+video)\s+(?:from|by)\s+(?:\S+\s+){1,4}?(?:just\s+)?(?:dropped|released|is\s+out|out\s+now)\b|\bgo\s+(?:and\s+)?(?:listen\s+to|watch|stream|download|check\s+out)\s+(?:it|this|that|them)\b/u, weight: 0.6, reason: 'plug' },
  // Subscribe.
  { re: new RegExp(String.raw`\b${SUB}\s+(?:to\s+|on\s+|in\s+|for\s+)?(?:me|us|my|our|mah|mine)\b`, 'u'), weight: 1.2, reason: 'subscribe to me' },
  { re: new RegExp(String.raw`\b(?:sub|subscribe|follow|like|f|l|s)\s*(?:4|for|2|to)\s*(?:sub|subscribe|follow|like|f|l|s)\b|\b(?:i'?ll|i will|ill|i|and i|will)\s+(?:sub(?:scribe)?|follow|like|add)\s+(?:you\s+|u\s+|ya\s+|yours?\s+)?back\b|\b${SUB}\s+back\b`, 'u'), weight: 1.2, reason: 'sub for sub' },
  { re: new RegExp(String.raw`(?:^|[.!?,:;\n]\s*|\b(?:${PLEASE}|and|&|n|so|to|now|guys|everyone|everybody|hey|come|go|also|pls)\s+)${SUB}\b(?!\s+(?:button|count|box|feed|list|numbers?|rate)\b)`, 'u'), weight: 1.0, reason: 'subscribe' },
  { re: new RegExp(String.raw`\b${SUB}\s+(?:if|and|&|for|pl[sz]|please|now|!)|\b${SUB}\s+to\s+[+@]\w|(?<!\b(?:to|will|'ll|ll|gonna|just|had|have|did|would|'d|not|never|i|I)\s+)\b${SUB_VERB}\s*[!.)]*\s*$`, 'u'), weight: 1.0, reason: 'subscribe' },
  { re: /\b(?:tell|show)\s+me\s+(?:about\s+)?your\s+channel\b|\b(?:sub|subscribe|follow)\s+(?:to\s+)?each\s+other\b/u, weight: 1.0, reason: 'sub for sub' },
  { re: /\b(?:click|tap|hit|press|smash)\s+(?:on\s+)?(?:the|that)\s+(?:subscribe|sub|like|bell)\b|\b(?:click|tap|hit|press|smash)\s+(?:on\s+)?(?:subscribe|sub|like|bell)\s+(?:button|icon)\b/u, weight: 0.8, reason: 'call to action' },
  { re: /\b(?:can|could|may|let)\s+(?:i|we|me|us)\s+(?:get|have|gain)\s+(?:some\s+|more\s+|free\s+)?(?:views|subs|subscribers|likes|followers)\b/u, weight: 0.6, reason: 'subscriber goal' },
  { re: new RegExp(String.raw`\b${SUB_VERB}`, 'u'), weight: 0.6, reason: 'subscribe' },
  { re: /\b(?:\d[\d.,]*k?|a few|some|more)\s+(?:subs|subscribers|followers|likes|views)\s+(?:by|before|this|tonight|today|until|till)\b|\b(?:help\s+me|help\s+us|want\s+to|wanna|trying\s+to|i\s+want)\s+(?:to\s+)?(?:get|reach|hit|grow|gain|achieve|make\s+it\s+to)\s+(?:\S+\s+){0,3}?(?:subs|subscribers|followers|likes|views|goal)\b|\bif\s+(?:i|we)\s+(?:get|reach|hit)\s+\S+\s+(?:subs|subscribers|followers|likes)\b|\b(?:i|we)\s+(?:have|got|hit|reached)\s+(?:over\s+|almost\s+|only\s+)?\d[\d.,]*k?\s+(?:subs|subscribers)\b|\bgoal[\s:-]+\d+\s*(?:subs|subscribers)|\bmy\s+first\s+subscriber\b|\b(?:subs|subscribers)\s+(?:needed|wanted|please)\b/u, weight: 1.0, reason: 'subscriber goal' },
  // Engagement bait.
  { re: /(?<!\b(?:i|i\s+really|i\s+do|really|you|u)\s+)\blike\s+(?:this|my|our)\s+(?:comment|pic|picture|photo|post|page|status|fan\s?page)\b|\bthumbs\s+up\s+(?:this|my)\s+comment\b|\bdon'?t\s+like\s+this\s+comment\b|\blike\s+if\s+you\s+(?:agree|are|re|'re)\b(?!\s+(?:here|watching))/u, weight: 1.0, reason: 'engagement bait' },
  { re: /\b(?:like|thumbs\s+up|thumb\s+up)\s+if\b|\bgive\s+(?:it|this|me|my\s+\w+)\s+a\s+(?:like|thumbs\s+up)\b|\bshare\s+(?:this|it)\s+(?:with|on|to)\b|\blike\s*(?:&|and)\s*share\b/u, weight: 0.5, reason: 'engagement bait' },
  { re: /\bfor\s+no\s+reason\b/u, weight: 0.4, reason: 'engagement bait' },
  // Social handles.
  { re: /\b(?:follow|add|find|dm|message|hit)\s+(?:me|us|him|her|them)\s+(?:up\s+)?(?:on|at|@)\s*(?:twitter|insta(?:gram)?|ig|facebook|fb|kik|skype|snapchat|snap|tiktok|twitch|tumblr|vine|tsu|google\+|whatsapp|telegram)\b|\b(?:follow|add)\s+(?:me|us)\b(?!\s+(?:through|into|around|as|to\s+the))|(?:^|\s)(?:kik|skype|snapchat|snap|ig|insta|twitter|whatsapp|wsp|telegram|line|wechat)\s*[:=-]\s*@?[\w.]{3,}/u, weight: 1.0, reason: 'social handle' },
  { re: /(?:^|\s)@[a-z0-9_.]{3,}\b.*\b(?:follow|add|check)\b|\b(?:follow|add|check\s+out)\b.*(?:^|\s)[@+][a-z0-9_.]{3,}/u, weight: 0.7, reason: 'social handle' },
  // Money, jobs and scams.
  { re: /\b(?:earn|make|making|made|get|getting|win|winning|generate|receive|claim)\s+(?:\$\s?\d[\d,.]*k?\s+|\d[\d,.]*k?\s*(?:\$|dollars?|usd|bucks|€|euros?|pounds?)\s+)?(?:(?:some|real|free|easy|extra|quick|fast|online|passive|more|big|serious|instant)\s+)*(?:money|cash|income|dollars|bucks|bitcoins?|btc|robux|v-?bucks|gift\s*cards?|giftcards?|itunes\s+(?:codes?|cards?)|credits|coins|gems)\b/u, weight: 1.0, reason: 'money offer' },
  { re: /\$\s?\d[\d,.]*k?\s*\+?\s*(?:a|per|\/|every|each)\s*(?:day|week|hour|hr|month|daily|weekly)\b|\b\d[\d,.]*k?\s*(?:dollars|usd|bucks|euros?|€)\s*(?:a|per|\/|every|each)\s*(?:day|week|hour|month)\b/u, weight: 0.6, reason: 'money per day' },
  { re: /\b(?:make|earn|making|earning|start\s+earning|generate)\s+(?:up\s+to\s+|over\s+|at\s+least\s+)?(?:\$\s?\d|\d[\d,.]*k?\s*(?:dollars|usd|bucks|€|euros?))/u, weight: 0.6, reason: 'money offer' },
  { re: /\bget\s+paid\b|\bpaid\s+(?:for|to)\s+(?:sharing|liking|commenting|watching|posting|surveys?)\b|\b(?:work|working|job|jobs)\s+(?:from|at)\s+home\b|\bpassive\s+income\b|\bfinancial\s+freedom\b/u, weight: 1.0, reason: 'job or money scam' },
  { re: /\bfree\s+(?:\$?\d+\s+)?(?:gift\s*cards?|giftcards?|itunes|psn|xbox(?:\s+live)?|robux|v-?bucks|iphones?|ipads?|money|cash|stuff|codes?|skins?|followers|subscribers|likes|views|cs\s*:?\s*go|games?|apps?|credits|coins|gems|premium)\b|\bgive\s?aways?\b|\bpaypal\s+(?:money|cash|giveaway)\b|\b(?:free|win)\s+(?:an?\s+)?(?:iphone|ipad|ps4|xbox|gift)\b/u, weight: 1.0, reason: 'freebie offer' },
  { re: /\bhack(?:ed|ing|s)?\s+(?:any\s+)?(?:facebook|fb|instagram|insta|account|password|wifi)|\b(?:facebook|fb|instagram)\s+(?:account\s+)?hack\b|\bpenis\s+enlarg|\bweight\s+loss\s+(?:pills?|secret)|\bhot\s+singles\b|\b(?:dating|cam|sex)\s+(?:site|chat|girls)\b|\b(?:bitcoin|btc|eth)\s+(?:address|wallet)\b|\bdonate\s+(?:bitcoins?|btc|crypto)\b/u, weight: 1.0, reason: 'scam' },
  { re: /\b(?:bitcoin|btc|crypto(?:currency)?|forex|binary\s+options?)\s+(?:trading|trader|investment|mining|expert|broker|mentor|signals?)\b|\b(?:invest(?:ed|ing)?|trad(?:ed|ing))\s+with\s+(?:mr|mrs|ms|miss|dr|expert)\.?\b|\b(?:whatsapp|telegram|wa\.me)\b[^.!?\n]{0,30}\+?\d[\d\s-]{7,}|\+\d{1,3}[\s-]?\d{3}[\s-]?\d{3,4}[\s-]?\d{3,4}/u, weight: 1.0, reason: 'investment scam' },
  { re: /\b(?:dm|inbox|pm)\s+(?:me|us)\b|\b(?:contact|message|text|reach|email)\s+(?:me|us|him|her)\s+(?:on|via|at|through)\b/u, weight: 0.5, reason: 'contact request' },
  // Solicitations: votes, donations, fundraisers, petitions, contests.
  { re: /\b(?:please|pls|plz|everyone|everybody|guys)\s+(?:\w+\s+)?(?:vote|donate|sign)\b|\bvote\s+(?:for\s+)?(?:me|us|my|our)\b|\b(?:donate|donation|donations)\s+(?:to|for)\s+(?:me|us|my|our|help)\b|\bhelp\s+(?:me|us)\s+(?:get|reach|win|go\s+to|pay|raise|fund|save|give|buy)\b|\bsign\s+(?:the|this|my|our)\s+petition\b|(?:^|[.!?:]\s*|\b(?:please|pls|plz|do|go|and)\s+)vote\b(?!\s+(?:for\s+)?(?:him|her|them|trump|biden|the\s+party))|\bvote\s+(?:for\s+)?\S+\s+(?:please|plz|pls|daily|now)\b|\b(?:delete|remove)\s+(?:the\s+)?spaces\b|\b(?:support|back)\s+(?:my|our)\s+(?:project|campaign|kickstarter|cause)\b/u, weight: 1.0, reason: 'solicitation' },
  { re: /\b(?:click|tap|open)\s+(?:on\s+)?(?:the\s+|this\s+|my\s+)?(?:link|here|below)\b|\blink\s+(?:below|in\s+(?:my|the)\s+(?:bio|description|channel))\b|\bdownload\s+(?:it\s+)?(?:now|here|free|for\s+free)\b|\bregister\s+(?:here|now|for\s+free)\b|\bsign\s+up\s+(?:here|now|for\s+free|free)\b|\bjoin\s+(?:now|here|for\s+free|our\s+team)\b|\bbuy\s+(?:now|these|this|our|my)\b|\b(?:use|enter)\s+(?:my\s+)?(?:code|coupon|promo)\b/u, weight: 0.8, reason: 'call to action' },
  // Spanish.
  { re: /\b(?:suscr[ií]b(?:e|ete|anse|ete|irse|ase|ite)|subscr[ií]b(?:ete|anse|irse)|s[ií]g(?:ue|a)(?:me|nos|n)|s[ií]ganme|visit(?:a|en|ad|e)|p[aá]s(?:ate|ense|en)\s+por|mir(?:a|en|ad)|vean|ve(?:d|an)?|escuch(?:a|en|ad)|ap[oó]y(?:a|en)(?:me|nos)?|comp[aá]rt(?:e|an)(?:lo)?|dale\s+like\s+a)\s+(?:a\s+|en\s+|por\s+)?(?:mi|nuestro|nuestra|mis)\s+(?:[\p{L}]+\s+){0,2}?(?:canal|video|v[ií]deo|v[ií]deos|m[uú]sica|canci[oó]n|p[aá]gina|perfil|instagram|tiktok|cuenta|twitch|stream|tienda|contenido|blog)/u, weight: 1.2, reason: 'channel plug' },
  { re: /\b(?:los|las|les|te|os)\s+invito\s+a\s+(?:\S+\s+){0,3}?(?:mi|nuestro)\s+(?:[\p{L}]+\s+){0,2}?(?:canal|video|v[ií]deo|p[aá]gina|perfil|cuenta)|\b(?:los|las|les|te|os)\s+invito\s+a\s+(?:suscribirse|subscribirse|suscribirte|seguirme|ver\s+mi)/u, weight: 1.2, reason: 'channel plug' },
  { re: /(?:^|[.!?,\s])(?:suscr[ií]bete|suscr[ií]banse|suscribanse|subscr[ií]bete|s[ií]gueme|s[ií]ganme)\b/u, weight: 1.0, reason: 'subscribe' },
  { re: /\b(?:en|a)\s+mi\s+canal\b|\bmi\s+(?:nuevo\s+)?canal\s+(?:de\s+youtube\s+)?(?:es|se\s+llama|tiene)\b/u, weight: 0.5, reason: 'own channel' },
  { re: /\bgan(?:a|ar|e|é|en|ando)\s+(?:\$\s?\d[\d.,]*\s+|\d[\d.,]*\s*(?:€|\$|d[oó]lares|euros|pesos)\s+)?(?:dinero|plata|lana|efectivo|ingresos)\s+(?:desde\s+(?:casa|tu\s+casa|el\s+celular|tu\s+m[oó]vil)|f[aá]cil|r[aá]pido|extra|online|por\s+internet|al\s+d[ií]a|por\s+d[ií]a|diari[oa]s?|sin\s+(?:salir|invertir))|\btrabaj(?:o|ar|a)\s+desde\s+(?:casa|tu\s+casa)\b|\bingresos\s+(?:extra|pasivos)\b|\b\d[\d.,]*\s*(?:€|\$|d[oó]lares|euros|pesos)\s+(?:al|por|cada)\s+(?:d[ií]a|semana|hora)\b|\bgratis\s+(?:robux|pavos|diamantes|tarjetas?\s+de\s+regalo)\b/u, weight: 1.0, reason: 'job or money scam' },
  { re: /\b(?:escr[ií]b(?:eme|anme|enos)|cont[aá]ct(?:ame|enme|anos)|m[aá]nd(?:ame|enme|arme)|habl(?:ame|enme))\s+(?:al|por|un|en|a)?\s*(?:whatsapp|wsp|wasap|telegram|dm|md|privado|inbox)\b/u, weight: 1.0, reason: 'contact request' },
  // Portuguese, next door to Spanish in many comment sections.
  { re: /\b(?:se\s+)?inscrev(?:a|am|e|er)(?:-se|-te)?\s+(?:no|em|ao)\s+(?:meu|nosso)\s+canal|\b(?:visit(?:e|em|a)|assist(?:a|am)|conhe[çc]a(?:m)?|confira(?:m)?|d[eê](?:em)?\s+uma\s+olhada\s+no)\s+(?:o\s+)?(?:meu|nosso)\s+(?:canal|v[ií]deo|clipe|perfil|instagram)/u, weight: 1.2, reason: 'channel plug' },
  // Chinese.
  { re: /加(?:我)?(?:微信|薇信|威信|徽信|v信|vx|wx|v|q|qq|扣扣|群)|(?:微信|薇信|威信|(?<![a-z])(?:vx|wx|qq)|扣扣)(?:号)?[:：]\s*[a-z0-9_-]{5,}|(?:微信|薇信|威信|扣扣)(?:号)?\s*[a-z0-9_-]{5,}|(?:(?<![a-z])qq|微信)群/u, weight: 1.2, reason: 'contact handle' },
  { re: /兼职|日赚|日入|月入[过上]?[一二三四五六七八九十百千万\d]|躺赚|刷单|打字员|网赚|高薪招聘|在家(?:就能|也能|轻松)?赚钱|轻松赚钱|手机赚钱|每天(?:赚|收入)[一二三四五六七八九十百千万\d]|免费领取|低价出售|代购|博彩|彩票(?:平台|计划)|贷款(?:秒批|无抵押)/u, weight: 1.0, reason: 'job or money scam' },
  { re: /(?:关注|订阅|看看|来看|支持|去看)(?:一下)?我(?:的)?(?:频道|主页|视频|账号|頻道)|(?:订阅|關注|关注)(?:我|本频道)|我的(?:频道|頻道|主页)(?:有|更新|每天)|互[关粉赞]|求(?:关注|订阅|点赞|赞)|点击(?:链接|下方|主页)|私信我|看我主页/u, weight: 1.2, reason: 'channel plug' },
  // Search plugs: "search X on Google", "type X in the search bar", "búscalo en YouTube", "在抖音搜".
  { re: new RegExp(String.raw`\b(?:search|look\s+up|google|type(?:\s+in)?|find)\s+(?:for\s+)?(?!(?:it|that|this|them|him|her)\s)(?:["“'«][^"”'»]{2,60}["”'»]\s*|(?:\S+\s+){1,6}?)(?:on|in|at|into|from)\s+(?:${PLATFORMS})\b`, 'u'), weight: 1.0, reason: 'search plug' },
  { re: /\b(?:type|put|search|enter)\s+(?:\S+\s+){1,6}?in(?:to)?\s+(?:the\s+|ur\s+|your\s+)?(?:youtube\s+|google\s+)?search\s*(?:bar|box|engine|field)\b|\b(?:look|search)\s+(?:me|us)\s+up\b|\b(?:search|find)\s+(?:for\s+)?(?:me|us)\s+on\b/u, weight: 1.2, reason: 'search plug' },
  { re: new RegExp(String.raw`\bb[uú]s(?:ca|que)(?:n|d|r)?(?:me|nos|lo|la|los|las|le|les)?\s+(?:por\s+)?(?:["“'«][^"”'»]{2,60}["”'»]\s*|(?:\S+\s+){1,6}?)en\s+(?:${PLATFORMS})\b|\bb[uú]s(?:ca|que)(?:n|d)?(?:me|nos)\s+(?:en|como)\b`, 'u'), weight: 1.0, reason: 'search plug' },
  { re: /(?:在|上|去)(?:百度|谷歌|google|抖音|快手|b站|哔哩哔哩|微博|小红书|淘宝|youtube|油管)(?:上)?(?:搜索?|查)(?![了过到])|百度(?:一下|搜索)|搜索(?:关键词|关键字)?[：:「“"]/u, weight: 1.0, reason: 'search plug' },
  // Follower, subscriber and view offers; growth services.
  { re: new RegExp(String.raw`\b(?:buy|get|gain|grow|boost|increase|purchase|order|want|need|wanna)\s+(?:up\s+to\s+)?(?:\d[\d,.]*k?\+?\s+|thousands\s+of\s+|tons\s+of\s+)(?:(?:real|active|free|more|new|organic|${SOCIAL})\s+){0,2}(?:${AUDIENCE_PEOPLE})\b`, 'u'), weight: 1.0, reason: 'follower offer' },
  { re: new RegExp(String.raw`\b(?:cheap|real|active|instant|free|organic|guaranteed|targeted|unlimited)\s+(?:\d[\d,.]*k?\+?\s+)?(?:(?:${SOCIAL})\s+)?(?:followers|subscribers|subs|likes|views|plays|streams|retweets)\b|\b(?:followers|subscribers|subs|likes|views)\s+(?:for\s+(?:free|cheap|only)|(?:at|from)\s+(?:www\.)?[a-z0-9-]+\.[a-z]{2,})`, 'u'), weight: 1.0, reason: 'follower offer' },
  { re: new RegExp(String.raw`\b(?:boost|grow|promote|increase|skyrocket|explode|monetize)\s+(?:your|ur|you're)\s+(?:(?:${SOCIAL}|music|social\s+media)\s+)?(?:channel|account|instagram|page|followers|subscribers|subs|views|likes|business|music|career|presence|brand)\b`, 'u'), weight: 1.0, reason: 'growth offer' },
  { re: /\b(?:compra|comprar|consigue|conseguir|obt[eé]n|obtener|aumenta|aumentar|gana|ganar|sube|subir|quieres|necesitas)\s+(?:m[aá]s\s+)?(?:\d[\d.,]*k?\s+|miles\s+de\s+)?(?:seguidores|suscriptores|likes|me\s+gusta|vistas|visitas|reproducciones)\s+(?:reales|gratis|r[aá]pido|baratos|activos|instant[aá]neos|en\s+(?:instagram|youtube|tiktok|facebook|twitter))|\b(?:seguidores|suscriptores|likes|vistas|visitas)\s+(?:reales|gratis|baratos|activos|instant[aá]neos|garantizados)\b|\b(?:compra|comprar|vendo|vendemos)\s+(?:\d[\d.,]*k?\s+)?(?:seguidores|suscriptores|likes|vistas)\b|\b(?:haz\s+crecer|impulsa|promociona|monetiza)\s+tu\s+(?:canal|cuenta|instagram|perfil|negocio|m[uú]sica|marca)\b/u, weight: 1.0, reason: 'follower offer' },
  { re: /涨粉|买粉|刷粉|刷赞|刷量|刷播放|代刷|粉丝(?:秒到|出售|低价|便宜)|真人粉|僵尸粉/u, weight: 1.2, reason: 'follower offer' },
  // Get-rich-quick headlines.
  { re: /\bget\s+rich\b|\b(?:make|making|earn|earning)\s+(?:real\s+|extra\s+|some\s+|big\s+|serious\s+)?(?:money|cash|income)\s+(?:fast|quick(?:ly)?|easy|easily|online|from\s+(?:home|your\s+(?:phone|couch|bed))|at\s+home|while\s+(?:you|u)\s+sleep)\b|\b(?:easy|free|quick|fast)\s+(?:money|cash)\b|\b(?:you\s+can|u\s+can|want\s+to|how\s+to)\s+(?:become|be)\s+(?:a\s+)?(?:millionaire|rich)\b|\bquit\s+(?:my|your|ur)\s+(?:day\s+)?job\b|\bhow\s+(?:i|to|you\s+can|u\s+can)\s+(?:make|made|earn|earned)\s+(?:over\s+)?(?:\$|£|€|\d|money|cash|thousands|millions|a\s+fortune|six\s+figures)|\b(?:one|this|a|1)\s+(?:simple\s+|weird\s+|easy\s+|little\s+|crazy\s+)?trick\s+(?:to|that|for)\b|\bsix[-\s]figure\s+income\b|\bmillionaire\s+(?:system|secret|method|formula)\b/u, weight: 1.0, reason: 'money offer' },
  { re: /\bhazte\s+(?:millonario|rico)\b|\b(?:gana|ganar|genera|generar)\s+(?:\$\s?\d[\d.,]*|\d[\d.,]*\s*(?:€|\$|d[oó]lares|euros|pesos))|\bdinero\s+f[aá]cil\b|\bc[oó]mo\s+(?:gan[eé]|hice|genero|gano)\s+(?:\$|€|\d|miles|dinero)/u, weight: 1.0, reason: 'money offer' },
  { re: /赚钱(?:项目|方法|机会|门路|秘诀|神器|软件|平台)|(?:带|教)你赚钱|一起赚钱|一夜暴富|躺着赚钱|轻松月入|零投资|零成本创业|日结|副业(?:赚钱|推荐|项目)/u, weight: 1.0, reason: 'money offer' },
  // Begging for subscriptions, likes and follows (Spanish, Chinese); contact requests (Chinese).
  { re: /\b(?:sub|suscr\w*)\s+(?:x|por)\s+(?:sub|suscr\w*)\b|\bte\s+(?:devuelvo|regreso)\s+(?:la\s+)?(?:suscripci[oó]n|sub|like|follow)\b|\bme\s+suscribo\s+(?:y\s+)?(?:t[uú]\s+)?(?:me\s+)?(?:suscribes|devuelves)/u, weight: 1.2, reason: 'sub for sub' },
  { re: /\b(?:den|dale|denme|d[eé]nle|regal[ae]me|regalen(?:me)?)\s+(?:un\s+)?(?:like|manita|me\s+gusta)\b|\bactiv(?:a|en)\s+(?:la\s+)?(?:campanita|campana|notificaciones)\b|\blike\s+si\s+/u, weight: 0.8, reason: 'call to action' },
  { re: /求(?:关注|订阅|点赞|赞|三连|一键三连|转发|粉)|一键三连|点(?:个)?(?:赞|关注)(?:和|加|\+)?(?:关注|订阅|转发)|欢迎(?:大家)?关注|关注(?:我|本号|我们)/u, weight: 1.0, reason: 'channel plug' },
  { re: /私聊|私我|私信(?:领取|获取|了解|咨询|我)|加(?:我)?好友|扫码|二维码|联系方式见|点击(?:链接|下方|主页|头像)|戳(?:链接|头像|主页)|主页(?:有|见|联系)/u, weight: 1.0, reason: 'contact request' },
];
/** A line or phrase repeated three or more times inside one comment ("follow me follow me follow me"). */
function repeatsInside(text: string): boolean {
  const words = text.match(WORD_RUN) ?? [];
  if (words.length < 9) return false;
  for (const n of [2, 3, 4, 5]) {
    const seen = new Map<string, number>();
    for (let i = 0; i + n <= words.length; i++) {
      const k = words.slice(i, i + n).join(' ');
      const c = (seen.get(k) ?? 0) + 1;
      seen.set(k, c);
      if (c >= 3 && new Set(words.slice(i, i + n)).size > 1) return true;
    }
  }
  return false;
}

function capsCue(raw: string): boolean {
  raw = raw.replace(URL_RE, ' ');
  const letters = raw.match(/\p{L}/gu) ?? [];
  if (letters.length < 15) return false;
  const upper = raw.match(/\p{Lu}/gu) ?? [];
  return upper.length / letters.length >= 0.8;
}

/** Cues that only ever strengthen a promotion cue. */
const WEAK = new Set(['all caps', 'repetition', 'excessive punctuation', 'emoji run', 'decoration', 'odd spacing', 'character tricks', 'link to a source']);
/** What the weak cues add together at most. */
const MAX_WEAK = 0.35;

/**
 * Scores one comment on its own (no corpus context): the sum of the weights
 * of the cues it shows, each cue class counted once.
 *
 * @example
 * scoreComment('Check out my channel!').score >= SPAM_THRESHOLD // true
 * scoreComment('I subscribed after this episode, great guests').score < SPAM_THRESHOLD // true
 */
export function scoreComment(text: string, context: { videoId?: string } = {}): CommentScore {
  return scoreReading(readForSpam(text), context);
}

/** Counts a cue: a reason counts once, with its greatest weight. */
function addHit(hits: Map<string, number>, reason: string, weight: number): void {
  hits.set(reason, Math.max(hits.get(reason) ?? 0, weight));
}

/** Whether a cue other than a weak one is among the hits. */
function hasPromotion(hits: ReadonlyMap<string, number>): boolean {
  for (const r of hits.keys()) if (!WEAK.has(r)) return true;
  return false;
}

/** {@link scoreComment} of a comment already read ({@link readForSpam}). */
function scoreReading(r: SpamReading, context: { videoId?: string }): CommentScore {
  const text = r.raw;
  const n = r.n;
  const hits = new Map<string, number>();
  const link = linkCue(n.cased, r.links, context.videoId);
  if (link) addHit(hits, link.reason, link.weight);
  for (const c of CUES) if (c.re.test(n.text) || (n.alternative !== undefined && c.re.test(n.alternative))) addHit(hits, c.reason, c.weight);
  // Nobody disguises a link to a source: a disguised link is promotion in itself.
  if (n.tricks.includes('disguised link')) addHit(hits, 'disguised link', 0.6);
  // Tricks, caps, repetition and decoration only ever strengthen promotion (together at most MAX_WEAK): without it they are not looked at.
  if (!hasPromotion(hits)) return { score: 0, reasons: [] };
  const add = (reason: string, weight: number): void => addHit(hits, reason, weight);
  if (n.tricks.includes('bracketed word') || n.tricks.includes('look-alike letters') || n.tricks.includes('invisible characters')) add('character tricks', 0.3);
  else if (n.tricks.includes('spaced letters')) add('odd spacing', 0.2);
  if (capsCue(text)) add('all caps', 0.3);
  if (repeatsInside(n.text)) add('repetition', 0.3);
  if (/([!?.])\1{5,}/u.test(text)) add('excessive punctuation', 0.1);
  if ((text.match(/\p{Extended_Pictographic}/gu) ?? []).length >= 10) add('emoji run', 0.1);
  if (/[▬░▒▓█▄▀■◆۩۞ஜ]{3,}/u.test(text)) add('decoration', 0.2);
  const promo = [...hits].filter(([r]) => !WEAK.has(r));
  const weak = [...hits].filter(([r]) => WEAK.has(r)).reduce((a, [, w]) => a + w, 0);
  const score = promo.reduce((a, [, w]) => a + w, 0) + Math.min(weak, MAX_WEAK);
  const reasons = [...hits].sort((a, b) => b[1] - a[1]).map(([r]) => r);
  return { score: Math.round(score * 100) / 100, reasons };
}

// ---- the corpus-wide decision (templates across comments: spamTemplates.ts) ----------------------

/** Letters and digits only, lower-case, stretched letters shortened (as {@link normaliseForSpam} reads them), links left out. */
function templateWords(r: SpamReading): string[] {
  const out: string[] = [];
  for (const w of r.words) {
    if (r.cjk && CJK.test(w)) for (const ch of w) out.push(ch);
    else out.push(w);
  }
  return out;
}

/** One item's records ({@link spamRecordsOf}). */
interface SpamRecords {
  itemId: string;
  records: readonly SpamRecord[];
}

const NO_REASONS: readonly string[] = Object.freeze([]);

/**
 * The records of an item's comments (blank comments have none): each comment read once
 * ({@link readForSpam}) for its cues, its template words and the model.
 */
function spamRecordsOf(input: SpamInput, model: SpamModel | null): SpamRecord[] {
  const out: SpamRecord[] = [];
  for (const c of input.comments) {
    if (!c.text.trim()) continue;
    const r = readForSpam(c.text);
    const own = scoreReading(r, { videoId: input.videoId });
    const words = templateWords(r);
    out.push({
      id: c.id,
      author: c.author?.trim().toLowerCase() ?? '',
      words: words.join(' '),
      wordCount: words.length,
      score: own.score,
      reasons: own.reasons.length ? own.reasons : NO_REASONS,
      learned: model ? modelTerm(model.scoreReading(r)) : 0,
    });
  }
  return out;
}

/** Promotion (cues and model) below which a repeated template adds at most 0.4: repetition alone is no spam ("q pesao el de la coleta" ×11, "Came here to check the views" ×4). */
const ALONE = 0.5;
/** What the learned model's log-odds count for in a comment's score, per unit of log-odds (weighed by the share of the comment the model knows). */
export const MODEL_WEIGHT = 0.4;
/**
 * The model's part of a score is kept within these bounds: it never flags a comment alone (a cue, a template
 * or the author must add 0.3), and it never clears one (in leave-one-video-out on the dev labels any negative
 * part cost recall: most cues weigh exactly the threshold).
 */
const MODEL_BOUNDS = { low: 0, high: 0.7 } as const;

/** The model's part of a comment's score: its log-odds × {@link MODEL_WEIGHT} × the share of the comment it knows, bounded. */
export function modelTerm(s: SpamModelScore): number {
  return Math.max(MODEL_BOUNDS.low, Math.min(MODEL_BOUNDS.high, MODEL_WEIGHT * s.logOdds * s.known));
}

export interface DetectOptions {
  threshold?: number;
  /** The learned model (default: the shipped one, {@link shippedSpamModel}); null: the rules alone. */
  model?: SpamModel | null;
}

/**
 * Spam of every item, with the corpus as context. A comment's score is the sum
 * of: its own cues ({@link scoreComment}); near-duplicate groups across comments
 * and items; the learned model's log-odds, weighed ({@link modelTerm}); and,
 * for a comment still below the threshold, {@link AUTHOR_WEIGHT} when its author
 * has a comment flagged. A comment is spam when the sum reaches the threshold
 * ({@link SPAM_THRESHOLD}): one threshold for rules and model together.
 *
 * Each comment is read once ({@link readForSpam}) and kept as a few facts (its
 * own score, the model's part, its template words); `items` may be a generator,
 * so that one item's comments are let go before the next item's are read.
 *
 * @example
 * const spam = detectSpam([{ itemId: 'v1', comments: [{ id: 'c1', text: 'Subscribe to my channel!' }] }]);
 * spam.get('v1')!.ids.has('c1'); // true
 */
export function detectSpam(items: Iterable<SpamInput>, options: DetectOptions = {}): Map<string, SpamDecision> {
  const model = options.model === undefined ? shippedSpamModel() : options.model;
  const records: SpamRecords[] = [];
  for (const it of items) records.push({ itemId: it.itemId, records: spamRecordsOf(it, model) });
  return decideSpam(records, options.threshold ?? SPAM_THRESHOLD);
}

/** {@link detectSpam} over the comments' records ({@link spamRecordsOf}). */
function decideSpam(items: readonly SpamRecords[], threshold: number): Map<string, SpamDecision> {
  const flat: Flat[] = [];
  items.forEach((it, itemIndex) => {
    for (const record of it.records) flat.push({ itemIndex, record });
  });
  const templates = templateWeights(flat, items.length);
  const scores = new Float64Array(flat.length);
  flat.forEach(({ record: r }, i) => {
    const t = templates.get(i);
    let score = r.score + r.learned;
    if (t) {
      // A repeated template counts in full only with promotion in it (cues or the model) or when it is a campaign across items.
      const alone = r.score + Math.max(0, r.learned) < ALONE && t.weight < 1;
      score += alone ? Math.min(t.weight, 0.4) : t.weight;
    }
    scores[i] = score;
  });
  // An author with a comment flagged makes their other comments suspect (one step, no cascade).
  const spammers = new Set<string>();
  flat.forEach((f, i) => {
    if (scores[i]! >= threshold && f.record.author) spammers.add(f.record.author);
  });
  const out = new Map<string, SpamDecision>(items.map((it) => [it.itemId, { ids: new Set<string>(), reasons: new Map<string, string[]>(), scores: new Map<string, number>() }]));
  flat.forEach((f, i) => {
    const r = f.record;
    let score = scores[i]!;
    const byAuthor = score < threshold && spammers.has(r.author);
    if (byAuthor) score += AUTHOR_WEIGHT;
    const d = out.get(items[f.itemIndex]!.itemId)!;
    if (score > 0) d.scores.set(r.id, Math.round(score * 100) / 100);
    if (score >= threshold) {
      // Why, in the order the parts were added: its own cues, the model, a template, its author.
      const reasons = [...r.reasons];
      if (r.learned >= 0.05 || r.learned <= -0.05) reasons.push(`learned model ${r.learned > 0 ? '+' : ''}${r.learned.toFixed(2)}`);
      const t = templates.get(i);
      if (t) reasons.push(t.reason);
      if (byAuthor) reasons.push('author posts spam');
      d.ids.add(r.id);
      d.reasons.set(r.id, reasons);
    }
  });
  return out;
}

/** The text with its links and bare domains (also disguised ones, "site . com") replaced by a space. */
export function stripLinks(text: string): string {
  return normaliseForSpam(text).cased.replace(URL_RE, ' ');
}

/** The detector's input for a corpus item (its video id from `meta.video_id` or a YouTube `meta.url`), or undefined without comments. */
export function spamInputOf(item: CorpusItem): SpamInput | undefined {
  if (!item.comments) return undefined;
  const meta = item.meta;
  const fromUrl = typeof meta.url === 'string' ? YT_ID.exec(meta.url)?.[1] : undefined;
  const videoId = typeof meta['video_id'] === 'string' ? meta['video_id'] : fromUrl;
  return { itemId: item.id, comments: item.comments.comments, videoId };
}
