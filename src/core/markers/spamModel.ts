/**
 * The learned spam model: logistic regression over a comment's features
 * (./spamFeatures), trained by scripts/trainSpam.ts on labelled comments
 * (./spamTrain) and shipped as a versioned data file, spamModel.v1.json,
 * imported here so that every bundle (extension, language server, CLI) carries
 * it. The zod schema below is the file's source of truth.
 *
 * The model gives the log-odds that a comment is spam and how much of the
 * comment it knows (the share of its features with a weight): the detector
 * (./spam) weighs the log-odds by that share, so a comment in a language the
 * model never saw is judged by the rules alone.
 */
import { z } from 'zod';
import shipped from './spamModel.v1.json';
import { SPAM_FEATURES_VERSION, spamFeatures } from './spamFeatures';

/** The shipped weights' file, as errors name it. */
export const SHIPPED_SPAM_MODEL_FILE = 'src/core/markers/spamModel.v1.json';

export const spamModelSchema = z.object({
  format: z.literal('marker-research/spam-model'),
  /** The file's version: bumped when the weights change (part of the extractive engine's cache key through EXTRACTIVE_VERSION). */
  version: z.number().int().positive(),
  /** The feature set the weights belong to ({@link SPAM_FEATURES_VERSION}). */
  features: z.number().int().positive(),
  trained: z.object({
    /** Where the labels came from (a corpus name: no text of it is in this file). */
    labels: z.string(),
    comments: z.number().int().nonnegative(),
    spam: z.number().int().nonnegative(),
    seed: z.number().int(),
    epochs: z.number().int().positive(),
    l2: z.number().nonnegative(),
    learningRate: z.number().positive(),
    /** A feature is kept only when at least this many training comments have it. */
    minDocs: z.number().int().positive(),
  }),
  bias: z.number(),
  weights: z.record(z.string(), z.number()),
});
export type SpamModelData = z.infer<typeof spamModelSchema>;

/** A model file that does not parse, or belongs to another feature set. */
export class SpamModelError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`spam model: ${file}: ${message}`);
  }
}

/** What the model says of one comment. */
export interface SpamModelScore {
  /** Log-odds of spam (bias included). */
  logOdds: number;
  /** Share of the comment's features the model has a weight for (0: it knows nothing of the comment). */
  known: number;
}

/** A loaded model. */
export class SpamModel {
  readonly #weights: Map<string, number>;

  constructor(readonly data: SpamModelData) {
    this.#weights = new Map(Object.entries(data.weights));
  }

  /** Parses model data (a file's JSON), naming `file` in the error. */
  static parse(json: unknown, file: string): SpamModel {
    const r = spamModelSchema.safeParse(json);
    if (!r.success) throw new SpamModelError(file, r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
    if (r.data.features !== SPAM_FEATURES_VERSION) throw new SpamModelError(file, `trained on feature set ${r.data.features}, this build reads feature set ${SPAM_FEATURES_VERSION}`);
    return new SpamModel(r.data);
  }

  /**
   * The model's verdict on a comment.
   *
   * @example
   * shippedSpamModel().score('Check out my channel!').logOdds > 0 // true
   */
  score(text: string): SpamModelScore {
    const features = spamFeatures(text);
    let z = this.data.bias;
    let known = 0;
    for (const [f, v] of features) {
      const w = this.#weights.get(f);
      if (w === undefined) continue;
      z += w * v;
      known++;
    }
    return { logOdds: z, known: features.size ? known / features.size : 0 };
  }
}

let loaded: SpamModel | undefined;

/** The model shipped with the product (parsed once). */
export function shippedSpamModel(): SpamModel {
  return (loaded ??= SpamModel.parse(shipped, SHIPPED_SPAM_MODEL_FILE));
}
