/**
 * The evidence a question gives about its intent, as a fixed vector of named features: which cue
 * lists of intentCues.ts it holds (and so, by their absence, which it does not), its form (a
 * question word, "what is … about", a demonstrative item noun), the entities it names (how many,
 * which kinds, joined by a conjunction), whether its scope has comments, a time constraint,
 * citation numbers and its length — plus the few conjunctions of these that a linear scorer cannot
 * form itself ("people" with comments in scope and a reaction word). intentScoring.ts weighs them.
 */
import type { Mention } from './entityMentions';
import {
  ABOUT_FORMS, AUDIENCE_CUES, CLIP_CUES, COMMENT_CUES, type CueList, cueIn, cueMatches, cueMatchesIn, fold, GENERIC_PEOPLE, HOW_CUES, ITEM_ANY, ITEM_NOUNS, OPEN_SUMMARY, OPINION_CUES,
  PLATFORMS, REACTION_CUES, RELATION_CUES, SEGMENT_NOUNS, SHARE_CUES, STRONG_RELATION_CUES, SUMMARY_CUES, TELL_ABOUT_CUES, TOPIC_CUES, TRANSCRIPT_CUES, WHICH_CUES, WHO_CUES,
  WHY_CUES,
} from './intentCues';
import type { LinkedEntity } from './query';
import { questionTerms } from './questionTerms';

/** Plural theme nouns: with them a "summary of the themes" is a topic analysis. */
export const THEME_NOUNS = /(?<![\p{L}])(?:themes|topics|temas|subjects)(?![\p{L}])|主题|主題|话题|話題|议题|議題/iu;
/** Chinese summary cues that only ask what was said: with a person named, the question is about what they said. */
export const WHAT_WAS_SAID: ReadonlySet<string> = new Set(['说了什么', '說了什麼', '讲了什么', '講了什麼']);

/**
 * "People" in general ("what do people think of …", "¿qué dice la gente de …?"): the audience when
 * the scope has comments and the question asks for a reaction; about a meeting, its participants.
 */
export const PEOPLE_CUES: CueList = { latin: ['people', 'la gente', 'las personas'], cjk: ['大家怎么看', '大家怎麼看', '人们怎么看', '人們怎麼看'] };
/** What people say ("¿qué dice la gente de …?"), besides the reaction cues. */
export const PEOPLE_SAY: CueList = { latin: ['dice', 'comenta', 'opina'], cjk: [] };
/** People in the item itself ("what do people say in the video?"): no audience. */
export const IN_THE_ITEM: CueList = {
  latin: ['in the video', 'in the episode', 'in the meeting', 'in the interview', 'en el vídeo', 'en el video', 'en el episodio', 'en la entrevista', 'en la reunión'],
  cjk: ['视频里', '視頻裡', '节目里', '節目裡', '会上', '會上'],
};

/** "Who is X?", "¿Quién es X?", "X是谁？": a question about one thing, whether or not the corpus knows it. */
const WHO_IS = /^\s*(?:who\s+(?:is|was|are|were)|qui[ée]n(?:es)?\s+(?:es|era|son|fue))\s+\S|\S\s*(?:是谁|是誰|是什么人|是什麼人)\s*[？?]?\s*$/iu;

/** Cue lists whose words say what is asked, not what about: no content terms. */
const ASKING: readonly CueList[] = [SUMMARY_CUES, TOPIC_CUES, REACTION_CUES, OPINION_CUES, AUDIENCE_CUES, COMMENT_CUES, CLIP_CUES, SEGMENT_NOUNS, SHARE_CUES, ITEM_NOUNS, ITEM_ANY, GENERIC_PEOPLE, TRANSCRIPT_CUES];

/**
 * How many content terms the question has besides its cue words, item nouns and entities
 * ("What is this video about?" none; "Why did the team choose a rubber case?" two): a summary asks
 * of the item as a whole, a search of something in it.
 */
function contentTerms(bare: string, foldedBare: string, entities: readonly LinkedEntity[]): number {
  const drop = ASKING.flatMap((l) => cueMatchesIn(bare, foldedBare, l).map((c) => c.range));
  const names = entities.map((e) => fold(e.text));
  return questionTerms(bare, drop, 'analyze_topic').filter((t) => !names.some((n) => n.includes(fold(t)))).length;
}

/** Joins two entity mentions into a pair ("A and B", "A 和 B", "A y B", "A vs B"). */
const CONJUNCTION = /^\s*(?:and|&|y|e|vs\.?|versus|or|o|with|con|和|与|與|跟|同|及|还有|還有|、|,|，)\s*$/iu;

/** True when the first two mentions of `q` are joined by a conjunction. */
export function joinedPair(q: string, mentions: readonly Mention[]): boolean {
  const [a, b] = mentions;
  return !!a && !!b && CONJUNCTION.test(q.slice(a.range[1], b.range[0]));
}

/** What intent scoring reads of a question. */
export interface IntentEvidence {
  /** The question as typed. */
  question: string;
  /** The question without its time and citation phrases. */
  bare: string;
  /** How many citation numbers it holds. */
  citations: number;
  /** The entities it names itself, where it names them. */
  mentions: readonly Mention[];
  /** Its entities after coreference from the session. */
  entities: readonly LinkedEntity[];
  /** Its scope (the item in focus, else the corpus) has comments. */
  hasComments: boolean;
  /** It limits time ("in the first 10 minutes"). */
  timed: boolean;
}

/** The features, in vector order (intentWeights.json names them; a weight file is aligned by name). */
export const INTENT_FEATURES = [
  'bias',
  'cite',
  'clip', 'segment', 'share', 'segment_share', 'clip_entity',
  'audience', 'comment', 'reaction', 'opinion', 'people_say', 'in_item', 'has_comments',
  'audience_react', 'comment_react', 'people_comments', 'people_react_comments', 'people_no_comments', 'react_comments_no_entity', 'audience_entity',
  'summary', 'summary_said_only', 'said_only_entity', 'summary_entity', 'topic', 'theme_noun', 'summary_theme', 'topic_entity',
  'open_summary', 'about_form', 'this_item', 'about_item', 'about_no_entity',
  'relation', 'strong_relation', 'joined', 'relation_ents2', 'strong_ents1', 'joined_ents2',
  'relation_ents1', 'who_is', 'platform', 'item_any', 'terms0', 'terms1', 'terms2',
  'ents0', 'ents1', 'ents2', 'speaker', 'speakers2', 'named', 'unlinked', 'from_session',
  'react_entity', 'transcript', 'transcript_entity', 'tell_about', 'tell_entity',
  'why', 'who', 'how', 'which', 'who_entity',
  'timed', 'timed_open',
  'short', 'long',
] as const;
export type IntentFeature = (typeof INTENT_FEATURES)[number];

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const LATIN_WORD = /[\p{L}\p{N}]+/gu;

/** Length in words: Latin words plus CJK characters counted two to a word. */
function words(q: string): number {
  const cjk = q.match(CJK_CHAR)?.length ?? 0;
  const latin = q.replace(CJK_CHAR, ' ').match(LATIN_WORD)?.length ?? 0;
  return latin + cjk / 2;
}

const b = (x: boolean): number => (x ? 1 : 0);

/** The feature vector of `ev` (order: {@link INTENT_FEATURES}). */
export function intentFeatures(ev: IntentEvidence): Float64Array {
  const q = ev.question;
  const fq = fold(q);
  const bare = ev.bare;
  const fb = fold(bare);
  const has = (list: CueList): boolean => cueIn(q, fq, list);
  // A platform ("TikTok", "Instagram") is where a clip goes, not what the question is about.
  const entities = ev.entities.filter((e) => !PLATFORMS.test(e.text));
  const n = entities.length;
  const speakers = entities.filter((e) => e.kind === 'speaker' || e.speaker !== undefined).length;
  const terms = contentTerms(bare, fb, entities);

  const clip = has(CLIP_CUES);
  const segment = has(SEGMENT_NOUNS);
  const share = has(SHARE_CUES);
  const audience = has(AUDIENCE_CUES);
  const comment = has(COMMENT_CUES);
  const reaction = has(REACTION_CUES);
  const opinion = has(OPINION_CUES);
  const react = reaction || opinion;
  const people = has(PEOPLE_CUES) || has(GENERIC_PEOPLE);
  const peopleSay = has(PEOPLE_SAY);
  const inItem = has(IN_THE_ITEM);
  const summaryCues = cueMatches(q, SUMMARY_CUES);
  const summary = summaryCues.length > 0;
  const saidOnly = summary && summaryCues.every((c) => WHAT_WAS_SAID.has(c.cue));
  const topic = has(TOPIC_CUES);
  const theme = THEME_NOUNS.test(q);
  const openSummary = !ev.mentions.length && OPEN_SUMMARY.some((re) => re.test(bare));
  const about = ABOUT_FORMS.some((re) => re.test(q));
  const thisItem = has(ITEM_NOUNS);
  const relation = cueIn(bare, fb, RELATION_CUES);
  const strong = cueIn(bare, fb, STRONG_RELATION_CUES);
  const joined = joinedPair(q, ev.mentions);
  const transcript = has(TRANSCRIPT_CUES);
  const tell = has(TELL_ABOUT_CUES);
  const who = has(WHO_CUES);
  const len = words(q);

  const f: Record<IntentFeature, number> = {
    bias: 1,
    cite: b(ev.citations > 0),
    clip: b(clip), segment: b(segment), share: b(share), segment_share: b(segment && share), clip_entity: b(clip && n > 0),
    audience: b(audience), comment: b(comment), reaction: b(reaction), opinion: b(opinion), people_say: b(peopleSay), in_item: b(inItem),
    has_comments: b(ev.hasComments),
    audience_react: b(audience && react), comment_react: b(comment && react), people_comments: b(people && ev.hasComments && !inItem),
    people_react_comments: b(people && (react || peopleSay) && ev.hasComments && !inItem), people_no_comments: b(people && !ev.hasComments),
    react_comments_no_entity: b(react && ev.hasComments && n === 0), audience_entity: b(audience && n > 0),
    summary: b(summary), summary_said_only: b(saidOnly), said_only_entity: b(saidOnly && n > 0), summary_entity: b(summary && n > 0),
    topic: b(topic), theme_noun: b(theme), summary_theme: b(summary && topic && theme), topic_entity: b(topic && n > 0),
    open_summary: b(openSummary), about_form: b(about), this_item: b(thisItem), about_item: b(about && (thisItem || has(ITEM_ANY))), about_no_entity: b(about && n === 0),
    relation: b(relation), strong_relation: b(strong), joined: b(joined), relation_ents2: b(relation && n >= 2), strong_ents1: b(strong && n >= 1), joined_ents2: b(joined && n >= 2),
    relation_ents1: b(relation && n === 1), who_is: b(WHO_IS.test(bare)), platform: b(entities.length < ev.entities.length), item_any: b(has(ITEM_ANY)),
    terms0: b(terms === 0), terms1: b(terms === 1), terms2: b(terms >= 2),
    ents0: b(n === 0), ents1: b(n === 1), ents2: b(n >= 2), speaker: b(speakers > 0), speakers2: b(speakers >= 2),
    named: b(entities.some((e) => e.kind !== 'speaker' && e.kind !== 'unlinked')), unlinked: b(entities.some((e) => e.kind === 'unlinked')),
    from_session: b(entities.some((e) => e.fromSession)),
    react_entity: b(react && n > 0), transcript: b(transcript), transcript_entity: b(transcript && n > 0), tell_about: b(tell), tell_entity: b(tell && n > 0),
    why: b(has(WHY_CUES)), who: b(who), how: b(has(HOW_CUES)), which: b(has(WHICH_CUES)), who_entity: b(who && n > 0),
    timed: b(ev.timed), timed_open: b(ev.timed && n === 0 && !topic && !clip),
    short: b(len <= 4), long: b(len >= 14),
  };
  const out = new Float64Array(INTENT_FEATURES.length);
  for (let i = 0; i < INTENT_FEATURES.length; i++) out[i] = f[INTENT_FEATURES[i]!];
  return out;
}
