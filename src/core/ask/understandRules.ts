/**
 * The offline query-understanding engine (the default): rules and lexicons
 * for English, Chinese (simplified and traditional) and Spanish — intent cues,
 * citation forms, time phrases, entities linked against the entity index, and
 * coreference from the session. Same output as the model engine.
 */
import { hasPart, type Corpus } from '../corpus/types';
import { findCitationNumbers } from './citationForms';
import { resolvePronoun, resolveWith, sessionEntityLists } from './coreference';
import { chooseIntent, PEOPLE_CUES } from './intentChoice';
import { coreName, type EntityIndex } from './entityIndex';
import { classifySpeakerLabel } from './speakerLabels';
import { findMentions } from './entityMentions';
import type { ItemTexts } from './entityMentions';
import { AUDIENCE_CUES, CLIP_CUES, COMMENT_CUES, cueMatches, fold, hasCue, PLATFORMS, TRANSCRIPT_CUES } from './intentCues';
import type { AskInput, ParsedQuery, QueryFilters } from './query';
import { chooseStrategies, hasTopic } from './strategyPlan';
import { intentWordRanges, questionTerms } from './questionTerms';
import { findTimeConstraint } from './timePhrases';
import { translatedKeywords, type TranslationIndex } from './crossLanguage/questionTranslation';

/** What the rules engine reads besides the question. */
export interface UnderstandContext {
  entities: EntityIndex;
  corpus?: Corpus;
  /** An embedding model is configured (the vector strategy can run). */
  vectors?: boolean;
  /** The search index: the corpus's languages and word frequencies, for translating the question's terms (crossLanguage/). */
  index?: TranslationIndex;
  /** An item's texts as the search index kept them: where names are looked for instead of its parsed parts ({@link findMentions}). */
  itemTexts?: ItemTexts;
}



/** "at least 100 likes", "more than 50 likes", "más de 100 likes", "超过100个赞", "100赞以上". */
const MIN_LIKES = [
  /(?:at least|more than|over|above|minimum(?: of)?|min\.?|≥|>=?)\s*(\d[\d,.]*)\s*(?:likes?|upvotes?|votes?)/iu,
  /(?:al menos|más de|mas de|mínimo|minimo|por encima de)\s*(\d[\d,.]*)\s*(?:likes?|me gusta|votos?)/iu,
  /(?:超过|超過|至少|多于|多於|大于|大於)\s*(\d+)\s*(?:个|個)?(?:赞|讚|点赞|點讚|喜欢|喜歡)/u,
  /(\d+)\s*(?:个|個)?(?:赞|讚|点赞|點讚)(?:以上|及以上)/u,
];

/** True for a speaker label that names a person ("Right Hon. Justin Trudeau", "Kirsty Williams AM") as the question said it, not a role or a number. */
function isPersonalName(label: string, said: string): boolean {
  if (classifySpeakerLabel(label).kind !== 'name') return false;
  const core = coreName(label);
  return core.split(/\s+/).length >= 2 && fold(said).includes(fold(core.split(/\s+/).pop()!));
}

/** Removes character ranges from a string (replaced by a space); overlapping ranges ("en los comentarios", "comentarios") are cut once. */
function cut(text: string, ranges: readonly (readonly [number, number])[]): string {
  const merged: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  let out = text;
  for (const [a, b] of merged.reverse()) out = `${out.slice(0, a)} ${out.slice(b)}`;
  return out.replace(/\s+/g, ' ').trim();
}

/** The question without its time and citation phrases, and without the words they leave dangling ("What was said in ?"). */
function bareQuestion(question: string, ranges: readonly [number, number][]): string {
  let bare = cut(question, ranges);
  const dangling = /\s+(?:in|during|at|within|over|from|of|the|en|durante|a|de|del|el|la|los|las)\s*([?.!？。！]*)$/iu;
  while (dangling.test(bare)) bare = bare.replace(dangling, '$1');
  return bare.replace(/\s+([?.!？。！])/gu, '$1');
}




/**
 * Understands `input` offline.
 *
 * @example
 * understandWithRules({ question: '¿Qué dice él sobre la IA?', itemId: 'yt-1', session: ['¿Cómo empezó Alcasec?'] }, ctx)
 * // → intent search_entity, entities [Alcasec] (from the session), resolvedQuery '¿Qué dice Alcasec sobre la IA?'
 */
export function understandWithRules(input: AskInput, ctx: UnderstandContext): ParsedQuery {
  const question = input.question.trim();
  const scope = input.itemId ? [input.itemId] : undefined;
  const citations = findCitationNumbers(question);
  const durationS = input.itemId ? ctx.entities.item(input.itemId)?.durationS : undefined;
  const time = findTimeConstraint(question, durationS);
  // Citation and time phrases, and the platform words of a clip request ("TikTok", "Reels"), are not entities.
  const blocked: [number, number][] = [...citations.ranges, ...(time ? [time.match] : []), ...cueMatches(question, CLIP_CUES).map((c) => c.range)];
  const mentions = findMentions(question, ctx.entities, ctx.corpus, { itemIds: scope, itemTexts: ctx.itemTexts }).filter(
    (m) => !blocked.some((r) => m.range[0] < r[1] && r[0] < m.range[1]),
  );
  const own = mentions.map((m) => m.entity);
  const sessionEntities = sessionEntityLists(input.session ?? [], (s) => findMentions(s, ctx.entities, ctx.corpus, { itemIds: scope, itemTexts: ctx.itemTexts }).map((m) => m.entity), input.itemId);
  let entities = [...own];
  const hasComments = (ctx.corpus?.items ?? []).some((i) => hasPart(i, 'comments') && (!scope || scope.includes(i.id)));
  const { intent, confidence: intentConfidence, scores: intentScores } = chooseIntent(question, bareQuestion(question, [...citations.ranges, ...(time ? [time.match] : [])]), citations.numbers, mentions, resolveWith(question, own, sessionEntities, citations.numbers.length > 0, input.itemId), hasComments, !!time);
  if (intent !== 'citation_lookup') entities = resolveWith(question, own, sessionEntities, false, input.itemId);
  else entities = [];
  // "clips for Twitter": the platform is where the clip goes, not what it is about.
  if (intent === 'recommend_clip') entities = entities.filter((e) => !PLATFORMS.test(e.text));

  const comments = hasCue(question, COMMENT_CUES) || hasCue(question, AUDIENCE_CUES);
  const part: ParsedQuery['part'] = intent === 'citation_lookup' ? null : intent === 'analyze_reception' || comments ? 'comments' : intent === 'recommend_clip' || hasCue(question, TRANSCRIPT_CUES) ? 'transcript' : null;

  const filters: QueryFilters = {};
  if (scope) filters.itemIds = [...scope];
  for (const re of MIN_LIKES) {
    const m = re.exec(question);
    if (m) {
      filters.minLikes = Number(m[1]!.replace(/[,.]/g, ''));
      break;
    }
  }
  const cueRanges = [CLIP_CUES, AUDIENCE_CUES, COMMENT_CUES].flatMap((l) => cueMatches(question, l).map((c) => c.range));
  // A question about the audience searches the comments for its topic, not for "opinan", "think" or "怎么看" (one CJK
  // character is no cue to cut: it may be part of a word).
  const reactionRanges =
    intent === 'analyze_reception'
      ? [...intentWordRanges(question, intent), ...cueMatches(question, PEOPLE_CUES).map((c) => c.range)].filter(([a, b]) => b - a >= 2)
      : [];
  const resolvedQuery = resolvePronoun(question, entities);
  // A speaker label that is no name ("PhD C", "speaker_2", "the professor") is not said in the text: its words are no
  // keywords. A name ("John Williamson") is said, by others addressing them: it stays.
  const speakerRanges = mentions.filter((m) => m.entity.kind === 'speaker' && !isPersonalName(m.entity.label, m.entity.text)).map((m) => m.range);
  const searchText = cut(question, [...blocked, ...cueRanges, ...speakerRanges, ...reactionRanges]);
  const sessionNames = entities.filter((e) => e.fromSession && e.kind !== 'speaker').map((e) => coreName(e.label)).join(' ');
  // The question's own topic, whatever the intent: its content terms, without cue words and speaker labels (issue 22).
  const keywords = [...new Set([...questionTerms(question, [...blocked, ...cueRanges, ...speakerRanges], intent), ...questionTerms(sessionNames, [], 'search_entity')])];
  // The chosen intent's probability among all the scored intents (intentScoring.ts): low when another scores nearly as well.
  const confidence = Math.round(Math.min(0.99, intentConfidence) * 1000) / 1000;
  return {
    question,
    intent,
    entities,
    keywords,
    // Chinese runs stay whole here: their cross-word bigrams find more than the segmented words (measured on VCSum).
    searchText: `${searchText} ${sessionNames}`.trim(),
    timeConstraint: time?.constraint ?? null,
    part,
    citationNumbers: citations.numbers,
    filters,
    resolvedQuery,
    confidence,
    intentScores: Object.fromEntries(Object.entries(intentScores).map(([k, v]) => [k, Math.round(v * 1000) / 1000])),
    strategies: chooseStrategies(intent, { hasTopic: hasTopic(keywords), vectors: !!ctx.vectors }),
    engine: 'rules',
    ...translatedKeywords(question, keywords, ctx, scope),
  };
}

