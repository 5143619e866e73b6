/**
 * The corpus's spam decision kept in `<corpus>/.marker-research/spam.json`, so that a new
 * process (the engine after a restart, every CLI command) does not parse every item with comments
 * again to decide it. Spam is decided over the whole corpus (templates repeated across items,
 * {@link corpusSpam}): the saved decision is keyed by the content hash of every item with comments
 * (any change to any of them, an item with comments added or removed, decides it again) and by the
 * detector's version (the rules' {@link SPAM_RULES_VERSION}, the shipped model's version and feature
 * set, the threshold). A file of another key, another format, or that does not validate is never
 * used: the decision is made again and the file replaced. Only the default detector (the shipped
 * model, the default threshold) is saved.
 *
 * @example
 * const { spam } = await persistedCorpusSpam(corpus); // read when saved for this content, else decided and saved
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { hasPart } from '../corpus/types';
import { writeFileAtomic } from '../storage/atomic';
import { readStateJson } from '../storage/readStateJson';
import { STORAGE_DIR } from '../storage/storageDir';
import { SPAM_RULES_VERSION, SPAM_THRESHOLD, type SpamDecision } from './spam';
import { SPAM_FEATURES_VERSION } from './spamFeatures';
import { adoptCorpusSpam, corpusSpam, knownCorpusSpam, type SpamCorpus } from './spamFree';
import { shippedSpamModel } from './spamModel';

/** Bumped when what the file holds changes. */
const SPAM_FILE_FORMAT = 1;

const decisionSchema = z.object({
  ids: z.array(z.string()),
  reasons: z.array(z.tuple([z.string(), z.array(z.string())])),
  scores: z.array(z.tuple([z.string(), z.number()])),
});

const spamFileSchema = z.object({
  version: z.literal(SPAM_FILE_FORMAT),
  /** The detector that decided ({@link detectorVersion}). */
  detector: z.string(),
  /** The corpus content it was decided for ({@link contentKey}). */
  key: z.string(),
  items: z.record(z.string(), decisionSchema),
});

/** Where the decision of the corpus at `root` is kept. */
export function spamFile(root: string): string {
  return path.join(root, STORAGE_DIR, 'spam.json');
}

/** The default detector's version: the rules', the shipped model's and its feature set's, the threshold. */
export function detectorVersion(): string {
  const model = shippedSpamModel().data;
  return `rules ${SPAM_RULES_VERSION}; model ${model.version}; features ${SPAM_FEATURES_VERSION}; threshold ${SPAM_THRESHOLD}`;
}

/** The corpus content a decision depends on: every item with comments, by id and content hash, in corpus order (read from the items' facts: nothing parsed). */
function contentKey(corpus: SpamCorpus): string {
  const h = createHash('sha256');
  for (const i of corpus.items) if (hasPart(i, 'comments')) h.update(`${i.id}\u0000${i.contentHash}\u0001`);
  return h.digest('hex');
}

/** Where the decision came from: known in this process, read from the file, or decided now (and saved). */
export type SpamSource = 'known' | 'saved' | 'decided';

/**
 * The corpus's spam decision ({@link corpusSpam}), from memory, else from the saved file when it was
 * made for this content by this detector, else decided (parsing every item with comments) and saved.
 * After it, {@link corpusSpam} gives the same decision without deciding. A decision that cannot
 * be saved (the corpus is no folder, or the write is refused) is still given, with `saveError`
 * when a write failed: a question never fails for it.
 */
export async function persistedCorpusSpam(corpus: SpamCorpus & { root: string }): Promise<{ spam: Map<string, SpamDecision>; source: SpamSource; saveError?: string }> {
  const known = knownCorpusSpam(corpus);
  if (known && saved.has(known)) return { spam: known, source: 'known' };
  if (!known) {
    const spam = await loadSavedCorpusSpam(corpus);
    if (spam) return { spam, source: 'saved' };
  }
  // Decided now, or decided earlier in this process by a reader that could not save it (a synchronous one): saved now.
  const spam = known ?? corpusSpam(corpus);
  const source = known ? 'known' : 'decided';
  // A corpus that is no folder (one made in memory) keeps its decision in memory only.
  if (!(await isFolder(corpus.root))) return { spam, source };
  const items = Object.fromEntries([...spam].map(([id, d]) => [id, { ids: [...d.ids], reasons: [...d.reasons], scores: [...d.scores] }]));
  try {
    await writeFileAtomic(spamFile(corpus.root), JSON.stringify({ version: SPAM_FILE_FORMAT, detector: detectorVersion(), key: contentKey(corpus), items }));
  } catch (e) {
    // Not saved (a read-only folder, a refused state path): the decision stands for this process; the next decides again.
    return { spam, source, saveError: (e as Error).message };
  }
  saved.add(spam);
  return { spam, source };
}

async function isFolder(dir: string): Promise<boolean> {
  return stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * The saved decision, when the file was made for the corpus's current content by this detector
 * (then {@link corpusSpam} gives it without deciding); undefined otherwise. Never decides, never
 * parses an item: what a context opened for questions calls, so that every reader of comments
 * (the answer's sentences too) finds the decision made.
 */
export async function loadSavedCorpusSpam(corpus: SpamCorpus & { root: string }): Promise<Map<string, SpamDecision> | undefined> {
  const known = knownCorpusSpam(corpus);
  if (known && saved.has(known)) return known;
  const read = await readStateJson(spamFile(corpus.root), spamFileSchema);
  if (!read.result.ok || read.result.value.detector !== detectorVersion() || read.result.value.key !== contentKey(corpus)) return undefined;
  const spam = new Map<string, SpamDecision>();
  for (const [id, d] of Object.entries(read.result.value.items)) spam.set(id, { ids: new Set(d.ids), reasons: new Map(d.reasons), scores: new Map(d.scores) });
  adoptCorpusSpam(corpus, spam);
  saved.add(spam);
  return spam;
}

/** Decisions that are in the file (read from it or written to it). */
const saved = new WeakSet<Map<string, SpamDecision>>();
