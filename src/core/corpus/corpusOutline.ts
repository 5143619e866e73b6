/**
 * The corpus outline: what loading learned about each item that is not its
 * parsed text — title, metadata, content hash, word and comment counts, the
 * problems found — with the size and modification time of its files, kept in
 * `<corpus>/.marker-research/outline.json`. A later load takes an item whose
 * files are unchanged from here instead of reading and parsing it (a warm
 * start of 10 M words in well under a second instead of ~9 s); its parts are
 * parsed when first used ({@link PartStore}).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../storage/atomic';
import { readStateFile } from '../storage/safePath';
import { STORAGE_DIR } from '../storage/storageDir';
import { PARSER_VERSIONS } from './itemParse';
import type { CorpusProblem } from './types';

/** Bumped when what an outline entry holds, or how an item is parsed, changes. */
const OUTLINE_FORMAT = 4;

/** The outline's version: its format and the parsers' versions (an outline made by other parsers is not used). */
export const OUTLINE_VERSION = createHash('sha256')
  .update(JSON.stringify({ format: OUTLINE_FORMAT, parsers: PARSER_VERSIONS }))
  .digest('hex')
  .slice(0, 16);

const problemSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  file: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  endLine: z.number().int().optional(),
  endColumn: z.number().int().optional(),
  message: z.string(),
  code: z.string(),
});

/** What an outline entry keeps of an item (file paths relative to the corpus root: the corpus folder may move). */
const outlineItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  meta: z.record(z.string(), z.unknown()),
  metaFile: z.string().optional(),
  ignoredFiles: z.array(z.string()),
  contentHash: z.string(),
  wordCount: z.number().int().nonnegative(),
  facts: z.object({
    segments: z.number().int().nonnegative().nullable(),
    comments: z.number().int().nonnegative().nullable(),
    emptyComments: z.number().int().nonnegative(),
    speakers: z.array(z.string()),
    commentLikes: z.number().nullable(),
    transcriptFile: z.string().nullable(),
    commentsFile: z.string().nullable(),
  }),
});

const outlineEntrySchema = z.object({
  /** The item's files as `relPath part size mtime` lines ({@link itemStamp} in the loader). */
  stamp: z.string(),
  /** Undefined when the item was left out (no readable part): only its problems are kept. */
  item: outlineItemSchema.optional(),
  problems: z.array(problemSchema),
  skipped: z.number().int().nonnegative(),
});

const outlineSchema = z.object({
  version: z.string(),
  items: z.record(z.string(), outlineEntrySchema),
});

export type OutlineItem = z.infer<typeof outlineItemSchema>;
export type OutlineEntry = z.infer<typeof outlineEntrySchema> & { problems: CorpusProblem[] };
export type Outline = Map<string, OutlineEntry>;

export function outlineFile(root: string): string {
  return path.join(root, STORAGE_DIR, 'outline.json');
}

/**
 * The persisted outline of the corpus at `root`, by item id; empty when there
 * is none, it was made by another version, or it does not validate (the items
 * are then read and parsed, as on a first load).
 */
export async function readOutline(root: string): Promise<Outline> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readStateFile(outlineFile(root), 'utf8'));
  } catch {
    return new Map();
  }
  const parsed = outlineSchema.safeParse(raw);
  if (!parsed.success || parsed.data.version !== OUTLINE_VERSION) return new Map();
  return new Map(Object.entries(parsed.data.items) as [string, OutlineEntry][]);
}

/** Writes the outline atomically. */
export async function writeOutline(root: string, outline: Outline): Promise<void> {
  await writeFileAtomic(outlineFile(root), JSON.stringify({ version: OUTLINE_VERSION, items: Object.fromEntries(outline) }));
}
