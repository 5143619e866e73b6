/**
 * Trains the learned spam model (./spamModel): L2-regularised logistic
 * regression on a comment's features (./spamFeatures), fitted by stochastic
 * gradient descent whose order comes from a seeded generator, so the same
 * labels and seed give the same weights, to the digit. Used by
 * scripts/trainSpam.ts (the shipped weights) and by bench/spamQuality.ts (one
 * model per fold of its leave-one-video-out figures).
 */
import { SPAM_FEATURES_VERSION, spamFeatures } from './spamFeatures';
import type { SpamModelData } from './spamModel';
import { mulberry32 } from '../util/seededRandom';

/** One labelled comment. */
export interface LabelledComment {
  text: string;
  spam: boolean;
}

export interface TrainOptions {
  /** Where the labels came from (written into the model file). */
  labels: string;
  seed?: number;
  epochs?: number;
  l2?: number;
  learningRate?: number;
  /** Keep a feature only when at least this many training comments have it. */
  minDocs?: number;
  /** The model file's version. */
  version?: number;
}

/** Defaults, chosen by leave-one-video-out on the dev labels (bench/spamQuality.ts). */
export const TRAIN_DEFAULTS = { seed: 21, epochs: 30, l2: 1e-4, learningRate: 0.5, minDocs: 2 } as const;


/** Rounds to 3 decimals (the file keeps no more; -0 becomes 0): a weight that rounds to 0 is left out. */
const round3 = (x: number): number => Math.round(x * 1e3) / 1e3 || 0;

/**
 * Fits the model on labelled comments.
 *
 * @example
 * const data = trainSpamModel([{ text: 'subscribe to my channel', spam: true }, { text: 'great song', spam: false }], { labels: 'example' });
 */
export function trainSpamModel(examples: readonly LabelledComment[], opts: TrainOptions): SpamModelData {
  const seed = opts.seed ?? TRAIN_DEFAULTS.seed;
  const epochs = opts.epochs ?? TRAIN_DEFAULTS.epochs;
  const l2 = opts.l2 ?? TRAIN_DEFAULTS.l2;
  const lr0 = opts.learningRate ?? TRAIN_DEFAULTS.learningRate;
  const minDocs = opts.minDocs ?? TRAIN_DEFAULTS.minDocs;
  const rows = examples.map((e) => ({ x: spamFeatures(e.text), y: e.spam ? 1 : 0 }));
  const docs = new Map<string, number>();
  for (const r of rows) for (const f of r.x.keys()) docs.set(f, (docs.get(f) ?? 0) + 1);
  const kept = new Set([...docs].filter(([, n]) => n >= minDocs).map(([f]) => f));
  const data = rows.map((r) => ({ x: [...r.x].filter(([f]) => kept.has(f)), y: r.y }));
  const spam = data.filter((r) => r.y === 1).length;
  const w = new Map<string, number>([...kept].sort().map((f) => [f, 0]));
  let bias = spam && spam < data.length ? Math.log(spam / (data.length - spam)) : 0;
  const next = mulberry32(seed);
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    // Fisher–Yates with the seeded generator.
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const lr = lr0 / Math.sqrt(1 + epoch);
    for (const i of order) {
      const { x, y } = data[i]!;
      let z = bias;
      for (const [f, v] of x) z += w.get(f)! * v;
      const p = 1 / (1 + Math.exp(-z));
      const g = p - y;
      bias -= lr * g;
      for (const [f, v] of x) {
        const wf = w.get(f)!;
        w.set(f, wf - lr * (g * v + l2 * wf));
      }
    }
  }
  const weights: Record<string, number> = {};
  for (const [f, v] of w) {
    const r = round3(v);
    if (r !== 0) weights[f] = r;
  }
  return {
    format: 'marker-research/spam-model',
    version: opts.version ?? 1,
    features: SPAM_FEATURES_VERSION,
    trained: { labels: opts.labels, comments: data.length, spam, seed, epochs, l2, learningRate: lr0, minDocs },
    bias: round3(bias),
    weights,
  };
}
