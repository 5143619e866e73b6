/**
 * Which intent a question has: every intent scored from all the evidence the question gives
 * (intentFeatures.ts: its cues and their absence, its form, the entities it names, whether its
 * scope has comments, a time constraint, citation numbers) and the best one chosen, with its
 * probability as the confidence (intentScoring.ts, learned weights).
 */
import type { Mention } from './entityMentions';
import { intentFeatures, type IntentEvidence } from './intentFeatures';
import { scoreIntents, type IntentScores } from './intentScoring';
import type { LinkedEntity } from './query';

export { PEOPLE_CUES } from './intentFeatures';

/** Sees each question's evidence and features (the training and measuring bench); unset in the product. */
type IntentObserver = (evidence: IntentEvidence, features: Float64Array, chosen: IntentScores) => void;
let observer: IntentObserver | undefined;

/** Sets (or, with no argument, clears) the observer of {@link chooseIntent}; returns the one it replaces. */
export function observeIntentEvidence(fn?: IntentObserver): IntentObserver | undefined {
  const before = observer;
  observer = fn;
  return before;
}

/**
 * @param q the question as typed
 * @param bare the question without its time and citation phrases
 * @param citations the citation numbers it holds
 * @param mentions the entities it names itself
 * @param entities its entities after coreference
 * @param hasComments the question's scope (its item, else the corpus) has comments
 * @param timed the question limits time
 */
export function chooseIntent(
  q: string,
  bare: string,
  citations: readonly number[],
  mentions: readonly Mention[],
  entities: readonly LinkedEntity[],
  hasComments: boolean,
  timed = false,
): IntentScores {
  const evidence: IntentEvidence = { question: q, bare, citations: citations.length, mentions, entities, hasComments, timed };
  const features = intentFeatures(evidence);
  const chosen = scoreIntents(features);
  observer?.(evidence, features, chosen);
  return chosen;
}
