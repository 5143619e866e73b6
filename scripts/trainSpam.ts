/**
 * Trains the shipped spam model: `node --import tsx scripts/trainSpam.ts [--labels DIR] [--out FILE] [--seed N] [--check]`.
 *
 * Reads the labelled comments of DIR (default: yt-spam-en-dev under `$MARKER_RESEARCH_CORPORA`, else
 * `<repo>/../shared/corpora`), fits the model (src/core/markers/spamTrain.ts, defaults TRAIN_DEFAULTS)
 * and writes its weights to FILE (default src/core/markers/spamModel.v1.json): the learned weights of
 * features and nothing of the comments' text beyond them. The same labels and seed give the same file.
 * `--check` writes nothing: exit 1 when FILE differs from what training gives (the shipped weights are
 * not reproducible), 0 when it is the same. Change the features or the defaults → retrain, bump the file's
 * version and EXTRACTIVE_VERSION.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { SHIPPED_SPAM_MODEL_FILE, type SpamModelData } from '../src/core/markers/spamModel';
import { TRAIN_DEFAULTS, trainSpamModel } from '../src/core/markers/spamTrain';
import { readSpamLabels } from './spamLabels';

const REPO = path.resolve(__dirname, '..');
/** The labels the shipped model is trained on. */
export const SPAM_LABELS_CORPUS = 'yt-spam-en-dev';

/** The model file's text: the header as indented JSON, then one weight per line (sorted), so a retrained file diffs readably. */
export function serialiseSpamModel(data: SpamModelData): string {
  const { weights, ...head } = data;
  const lines = Object.keys(weights)
    .sort()
    .map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(weights[k])}`);
  const headText = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${headText},\n "weights": {\n${lines.join(',\n')}\n }\n}\n`;
}

/** Trains on the labels under `dir` and returns the file text. */
export async function trainedSpamModelText(dir: string, seed: number = TRAIN_DEFAULTS.seed): Promise<string> {
  const rows = await readSpamLabels(dir);
  if (!rows.length) throw new Error(`trainSpam: no labelled comments under ${dir}`);
  return serialiseSpamModel(trainSpamModel(rows, { labels: path.basename(dir), seed }));
}

async function main(argv: string[]): Promise<number> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const corpora = path.resolve(process.env['MARKER_RESEARCH_CORPORA'] || path.join(REPO, '..', 'shared', 'corpora'));
  const dir = path.resolve(arg('--labels') ?? path.join(corpora, SPAM_LABELS_CORPUS));
  const out = path.resolve(REPO, arg('--out') ?? SHIPPED_SPAM_MODEL_FILE);
  const seed = arg('--seed') !== undefined ? Number(arg('--seed')) : TRAIN_DEFAULTS.seed;
  if (!Number.isInteger(seed)) {
    process.stderr.write(`trainSpam: --seed must be an integer\n`);
    return 2;
  }
  const text = await trainedSpamModelText(dir, seed);
  if (argv.includes('--check')) {
    const current = await readFile(out, 'utf8').catch(() => '');
    process.stdout.write(current === text ? `${out} is what training on ${dir} gives\n` : `${out} differs from what training on ${dir} gives\n`);
    return current === text ? 0 : 1;
  }
  await writeFile(out, text);
  const data = JSON.parse(text) as SpamModelData;
  process.stdout.write(`wrote ${out}: ${Object.keys(data.weights).length} weights from ${data.trained.comments} comments (${data.trained.spam} spam), seed ${seed}\n`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
