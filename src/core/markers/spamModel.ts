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
import { FeatureHasher } from './spamFeatureHashes';
import { SPAM_FEATURES_VERSION } from './spamFeatures';
import { readForSpam, type SpamReading } from './spamText';

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
  /**
   * Weights by the number a feature's key is the base-36 form of ({@link featureHash}): the
   * features are hashed, never written out. A key that is no feature's key (not the canonical
   * base-36 form of a 32-bit number) can never be looked up and is left out.
   */
  readonly #weights: WeightTable;
  readonly #hasher = new FeatureHasher();

  constructor(readonly data: SpamModelData) {
    const byHash = new Map<number, number>();
    for (const [key, w] of Object.entries(data.weights)) {
      const h = parseInt(key, 36);
      if (h >= 0 && h <= 0xffffffff && h.toString(36) === key) byHash.set(h, w);
    }
    this.#weights = new WeightTable(byHash);
  }

  /** Parses model data (a file's JSON), naming `file` in the error. */
  static parse(json: unknown, file: string): SpamModel {
    const r = spamModelSchema.safeParse(json);
    if (!r.success) throw new SpamModelError(file, r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
    if (r.data.features !== SPAM_FEATURES_VERSION) throw new SpamModelError(file, `trained on feature set ${r.data.features}, this build reads feature set ${SPAM_FEATURES_VERSION}`);
    return new SpamModel(r.data);
  }

  /**
   * The model's verdict on a comment: over its features ({@link spamFeatures}), each valued
   * 1/√n (n: its distinct features), the bias plus the weights of those it has one for.
   *
   * @example
   * shippedSpamModel().score('Check out my channel!').logOdds > 0 // true
   */
  score(text: string): SpamModelScore {
    return this.scoreReading(readForSpam(text));
  }

  /** {@link score} of a comment already read ({@link readForSpam}). */
  scoreReading(reading: SpamReading): SpamModelScore {
    const f = this.#hasher.hash(reading);
    const value = 1 / Math.sqrt(f.features);
    let z = this.data.bias;
    let known = 0;
    // In the order the features first come, as spamFeatures' map holds them: the sum is the same to the last bit.
    for (let i = 0; i < f.count; i++) {
      const w = this.#weights.get(f.hashes[i]!);
      if (w === undefined) continue;
      z += w * value;
      known++;
    }
    return { logOdds: z, known: f.count ? known / f.count : 0 };
  }
}

/** Weights by feature hash, in typed arrays (open addressing): a Map's number keys above 2^30 are boxed, and looked up slowly. */
class WeightTable {
  readonly #keys: Uint32Array;
  readonly #values: Float64Array;
  readonly #filled: Uint8Array;
  readonly #shift: number;

  constructor(weights: ReadonlyMap<number, number>) {
    let bits = 4;
    while (1 << bits < weights.size * 3) bits++;
    this.#keys = new Uint32Array(1 << bits);
    this.#values = new Float64Array(1 << bits);
    this.#filled = new Uint8Array(1 << bits);
    this.#shift = 32 - bits;
    const mask = (1 << bits) - 1;
    for (const [h, w] of weights) {
      let s = Math.imul(h, 0x9e3779b1) >>> this.#shift;
      while (this.#filled[s]) s = (s + 1) & mask;
      this.#filled[s] = 1;
      this.#keys[s] = h;
      this.#values[s] = w;
    }
  }

  /** The weight of a feature hash, or undefined. */
  get(h: number): number | undefined {
    const mask = this.#keys.length - 1;
    for (let s = Math.imul(h, 0x9e3779b1) >>> this.#shift; this.#filled[s]; s = (s + 1) & mask) if (this.#keys[s] === h) return this.#values[s];
    return undefined;
  }
}

let loaded: SpamModel | undefined;

/** The model shipped with the product (parsed once). */
export function shippedSpamModel(): SpamModel {
  return (loaded ??= SpamModel.parse(shipped, SHIPPED_SPAM_MODEL_FILE));
}
