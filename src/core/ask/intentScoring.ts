/**
 * Scores every intent of a question from its feature vector (intentFeatures.ts) and decides by
 * the scores: a multinomial logistic regression whose weights are learned by `bench/intent.ts
 * --train` from the labelled set of test/support/intentQuestions.ts and shipped as a versioned
 * data file, intentWeights.json, imported here so every bundle carries it. The zod schema below
 * is the file's source of truth. The weights are aligned to the feature vector by name once, at
 * load; scoring allocates only its result.
 */
import { z } from 'zod';
import shipped from './intentWeights.json';
import { INTENT_FEATURES } from './intentFeatures';
import { INTENTS, intentSchema, type Intent } from './query';

/** The shipped weights' file, as errors name it. */
export const SHIPPED_INTENT_WEIGHTS_FILE = 'src/core/ask/intentWeights.json';

export const intentWeightsSchema = z.object({
  format: z.literal('marker-research/intent-weights'),
  /** Bumped when the weights change. */
  version: z.number().int().positive(),
  trained: z.object({
    /** Where the labelled questions came from (a generator: no dev question is in it). */
    labels: z.string(),
    questions: z.number().int().nonnegative(),
    templates: z.number().int().nonnegative(),
    epochs: z.number().int().positive(),
    l2: z.number().nonnegative(),
    learningRate: z.number().positive(),
  }),
  intents: z.array(intentSchema).min(2),
  features: z.array(z.string()).min(1),
  /** One row per intent (in `intents` order), one weight per feature (in `features` order). */
  weights: z.array(z.array(z.number())),
});
export type IntentWeightsData = z.infer<typeof intentWeightsSchema>;

/** Weights aligned to {@link INTENT_FEATURES}: row k (intent `intents[k]`) starts at k × features. */
export interface IntentModel {
  intents: readonly Intent[];
  weights: Float64Array;
}

/** A weights file that does not parse or whose rows do not match its lists. */
export class IntentWeightsError extends Error {}

/** The model of a weights file; a feature the file does not know weighs 0, one the scorer does not compute is ignored. */
export function intentModel(data: unknown, file = SHIPPED_INTENT_WEIGHTS_FILE): IntentModel {
  const parsed = intentWeightsSchema.safeParse(data);
  if (!parsed.success) throw new IntentWeightsError(`intent weights: ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const d = parsed.data;
  if (d.weights.length !== d.intents.length || d.weights.some((row) => row.length !== d.features.length)) {
    throw new IntentWeightsError(`intent weights: ${file}: ${d.weights.length} rows of weights for ${d.intents.length} intents and ${d.features.length} features`);
  }
  const at = new Map(d.features.map((f, j) => [f, j]));
  const F = INTENT_FEATURES.length;
  const weights = new Float64Array(d.intents.length * F);
  d.intents.forEach((_, k) => {
    INTENT_FEATURES.forEach((name, j) => {
      const src = at.get(name);
      if (src !== undefined) weights[k * F + j] = d.weights[k]![src]!;
    });
  });
  return { intents: d.intents, weights };
}

/** The shipped model. */
export const SHIPPED_INTENT_MODEL: IntentModel = intentModel(shipped);

/** What scoring decides. */
export interface IntentScores {
  intent: Intent;
  /** The chosen intent's probability (0–1): low when another intent scores nearly as well. */
  confidence: number;
  /** Every intent's probability (softmax of the scores), summing to 1. */
  scores: Record<Intent, number>;
}

/** Scores every intent of `features` (order: {@link INTENT_FEATURES}) and picks the most probable. */
export function scoreIntents(features: Float64Array, model: IntentModel = SHIPPED_INTENT_MODEL): IntentScores {
  const F = INTENT_FEATURES.length;
  const K = model.intents.length;
  const z = new Float64Array(K);
  let best = 0;
  for (let k = 0; k < K; k++) {
    let s = 0;
    const row = k * F;
    for (let j = 0; j < F; j++) if (features[j]) s += model.weights[row + j]! * features[j]!;
    z[k] = s;
    if (s > z[best]!) best = k;
  }
  let sum = 0;
  for (let k = 0; k < K; k++) sum += Math.exp(z[k]! - z[best]!);
  const scores = Object.fromEntries(INTENTS.map((i) => [i, 0])) as Record<Intent, number>;
  for (let k = 0; k < K; k++) scores[model.intents[k]!] = Math.exp(z[k]! - z[best]!) / sum;
  const intent = model.intents[best]!;
  return { intent, confidence: scores[intent], scores };
}
