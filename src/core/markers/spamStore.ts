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
 * What is kept is what gives the same decision back, and no more: the id of each comment that is
 * spam or showed a cue (its score is read by the extractive marker engine: a suspect comment is
 * never evidence, a weak cue lowers a comment's weight), once, under its verdict (score, and why
 * when spam), the verdicts listed once for the file; an item with neither is not listed. The
 * file grows with the flagged and cued comments, not with the comments or the items.
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

/** Bumped when what the file holds changes (2: one line per comment that showed a cue, verdicts shared; 1: three lists per item). */
const SPAM_FILE_FORMAT = 2;

/**
 * What the detector said of a comment: spam or not, its score (absent: it showed no cue), and
 * why when it is spam. Many comments share one (a template's copies, the same learned-model term).
 */
const verdictSchema = z.object({
  spam: z.boolean(),
  score: z.number().optional(),
  reasons: z.array(z.string()).optional(),
});
type Verdict = z.infer<typeof verdictSchema>;

const spamFileSchema = z
  .object({
    version: z.literal(SPAM_FILE_FORMAT),
    /** The detector that decided ({@link detectorVersion}). */
    detector: z.string(),
    /** The corpus content it was decided for ({@link contentKey}). */
    key: z.string(),
    /** Every distinct verdict, referred to by its place in this list. */
    verdicts: z.array(verdictSchema),
    /**
     * By item id: the ids of its comments that are spam or showed a cue, by verdict (the verdict's
     * place in `verdicts`, as the key). An item with comments of which none is either is not listed.
     */
    items: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  })
  .superRefine((file, ctx) => {
    for (const [itemId, byVerdict] of Object.entries(file.items)) {
      for (const k of Object.keys(byVerdict)) {
        if (!/^(0|[1-9]\d*)$/.test(k) || Number(k) >= file.verdicts.length) ctx.addIssue({ code: 'custom', path: ['items', itemId, k], message: `no verdict ${k}` });
      }
    }
  });

/** The content of the spam file. */
export type SpamFile = z.infer<typeof spamFileSchema>;

/**
 * The file's content for a decision: each comment id that is spam or has a score once, under its
 * verdict; items with neither left out. {@link decisionOfSpamFile} gives back the same decision.
 */
export function spamFileOf(spam: ReadonlyMap<string, SpamDecision>, detector: string, key: string): SpamFile {
  const verdicts: Verdict[] = [];
  const verdictAt = new Map<string, number>();
  const items: [string, Record<string, string[]>][] = [];
  for (const [itemId, d] of spam) {
    const byVerdict = new Map<number, string[]>();
    for (const id of new Set([...d.ids, ...d.scores.keys(), ...d.reasons.keys()])) {
      const score = d.scores.get(id);
      const reasons = d.reasons.get(id);
      const v: Verdict = { spam: d.ids.has(id), ...(score !== undefined ? { score } : {}), ...(reasons ? { reasons: [...reasons] } : {}) };
      const text = JSON.stringify(v);
      let at = verdictAt.get(text);
      if (at === undefined) {
        at = verdicts.length;
        verdicts.push(v);
        verdictAt.set(text, at);
      }
      const list = byVerdict.get(at);
      if (list) list.push(id);
      else byVerdict.set(at, [id]);
    }
    if (byVerdict.size) items.push([itemId, Object.fromEntries([...byVerdict].map(([at, ids]) => [String(at), ids]))]);
  }
  return { version: SPAM_FILE_FORMAT, detector, key, verdicts, items: Object.fromEntries(items) };
}

/**
 * The decision a file holds, for the corpus it was made for: every item with comments gets its
 * decision (an empty one when the file does not list it), in corpus order.
 */
export function decisionOfSpamFile(file: SpamFile, corpus: SpamCorpus): Map<string, SpamDecision> {
  const spam = new Map<string, SpamDecision>();
  const listed = new Map(Object.entries(file.items));
  for (const item of corpus.items) {
    if (!hasPart(item, 'comments') || spam.has(item.id)) continue;
    const d: SpamDecision = { ids: new Set(), reasons: new Map(), scores: new Map() };
    for (const [at, ids] of Object.entries(listed.get(item.id) ?? {})) {
      const v = file.verdicts[Number(at)]!;
      for (const id of ids) {
        if (v.spam) d.ids.add(id);
        if (v.score !== undefined) d.scores.set(id, v.score);
        if (v.reasons) d.reasons.set(id, [...v.reasons]);
      }
    }
    spam.set(item.id, d);
  }
  return spam;
}

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
  try {
    await writeFileAtomic(spamFile(corpus.root), JSON.stringify(spamFileOf(spam, detectorVersion(), contentKey(corpus))));
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
  const spam = decisionOfSpamFile(read.result.value, corpus);
  adoptCorpusSpam(corpus, spam);
  saved.add(spam);
  return spam;
}

/** Decisions that are in the file (read from it or written to it). */
const saved = new WeakSet<Map<string, SpamDecision>>();
