/**
 * Which intent a question has, from the cues it holds (intentCues.ts), the
 * entities it names and whether its scope has comments.
 */
import { type CueList, AUDIENCE_CUES, CLIP_CUES, COMMENT_CUES, cueMatches, hasCue, OPEN_SUMMARY, REACTION_CUES, RELATION_CUES, STRONG_RELATION_CUES, SUMMARY_CUES, TOPIC_CUES } from './intentCues';
import type { Mention } from './entityMentions';
import type { Intent, LinkedEntity } from './query';

/** Plural theme nouns: with them a "summary of the themes" is a topic analysis. */
const THEME_NOUNS = /(?<![\p{L}])(?:themes|topics|temas|subjects)(?![\p{L}])|主题|主題|话题|話題|议题|議題/iu;
/** Chinese summary cues that only ask what was said: with a person named, the question is about what they said. */
const WHAT_WAS_SAID = new Set(['说了什么', '說了什麼', '讲了什么', '講了什麼']);

/**
 * "People" in general ("what do people think of …", "¿qué dice la gente de …?"): the audience when
 * the scope has comments and the question asks for a reaction; about a meeting, its participants.
 */
export const PEOPLE_CUES: CueList = { latin: ['people', 'la gente', 'las personas'], cjk: ['大家怎么看', '大家怎麼看', '人们怎么看', '人們怎麼看'] };
/** What people say ("¿qué dice la gente de …?"), besides the reaction cues. */
const PEOPLE_SAY: CueList = { latin: ['dice', 'comenta', 'opina'], cjk: [] };
/** People in the item itself ("what do people say in the video?"): no audience. */
const IN_THE_ITEM: CueList = { latin: ['in the video', 'in the episode', 'in the meeting', 'in the interview', 'en el vídeo', 'en el video', 'en el episodio', 'en la entrevista', 'en la reunión'], cjk: ['视频里', '視頻裡', '节目里', '節目裡', '会上', '會上'] };

/** Joins two entity mentions into a pair ("A and B", "A 和 B", "A y B", "A vs B"). */
const CONJUNCTION = /^\s*(?:and|&|y|e|vs\.?|versus|or|o|with|con|和|与|與|跟|同|及|还有|還有|、|,|，)\s*$/iu;

function joined(q: string, mentions: readonly Mention[]): boolean {
  const [a, b] = mentions;
  return !!a && !!b && CONJUNCTION.test(q.slice(a.range[1], b.range[0]));
}

/**
 * @param bare the question without its time and citation phrases
 * @param hasComments the question's scope (its item, else the corpus) has comments
 */
export function chooseIntent(q: string, bare: string, citations: number[], mentions: readonly Mention[], entities: readonly LinkedEntity[], hasComments: boolean): { intent: Intent; cue: boolean } {
  if (citations.length) return { intent: 'citation_lookup', cue: true };
  if (hasCue(q, CLIP_CUES)) return { intent: 'recommend_clip', cue: true };
  const audience = hasCue(q, AUDIENCE_CUES) || (hasComments && !entities.length && hasCue(q, PEOPLE_CUES) && (hasCue(q, REACTION_CUES) || hasCue(q, PEOPLE_SAY)) && !hasCue(q, IN_THE_ITEM));
  const commentsReaction = hasCue(q, COMMENT_CUES) && hasCue(q, REACTION_CUES);
  if (audience || commentsReaction) return { intent: 'analyze_reception', cue: true };
  // "张三对电池说了什么？" asks what a person said, as "What did Daniel say about …?" does: no summary.
  const summaryCues = cueMatches(q, SUMMARY_CUES);
  const summary = summaryCues.length > 0 && !(entities.length >= 1 && summaryCues.every((c) => WHAT_WAS_SAID.has(c.cue)));
  const topic = hasCue(q, TOPIC_CUES);
  if (summary && !(topic && THEME_NOUNS.test(q))) return { intent: 'summary', cue: true };
  if (topic) return { intent: 'analyze_topic', cue: true };
  // "What did they talk about after the 30-minute mark?": open, no subject of its own — a summary of that part.
  if (!mentions.length && OPEN_SUMMARY.some((re) => re.test(bare))) return { intent: 'summary', cue: true };
  // Two or more entities that the question relates (a cue or "A and B"), or two speakers; one entity with a strong cue ("the relation between X and …").
  const speakers = entities.filter((e) => e.kind === 'speaker' || e.speaker !== undefined).length;
  if (entities.length >= 2 && (hasCue(bare, RELATION_CUES) || joined(q, mentions) || speakers >= 2)) return { intent: 'search_relation', cue: true };
  if (entities.length >= 1 && hasCue(bare, STRONG_RELATION_CUES)) return { intent: 'search_relation', cue: true };
  if (entities.length >= 1) return { intent: 'search_entity', cue: true };
  return { intent: 'search_semantic', cue: false };
}

