/**
 * zod schemas for every input file of a corpus. They are the source of truth:
 * the TypeScript shapes of raw records are inferred from them.
 */
import { z } from 'zod';

const seconds = z.union([z.number(), z.string()]).optional().nullable();

export const itemMetaSchema = z
  .object({
    title: z.string().optional().nullable(),
    source: z.string().optional().nullable(),
    url: z.string().optional().nullable(),
    published_at: z.string().optional().nullable(),
    duration: z.union([z.number(), z.string()]).optional().nullable(),
  })
  .passthrough();

export const transcriptTurnSchema = z
  .object({
    speaker: z.string().nullable().optional(),
    text: z.string(),
    start: seconds,
    end: seconds,
  })
  .passthrough();

export const transcriptSegmentSchema = z
  .object({
    text: z.string(),
    start: seconds,
    end: seconds,
    speaker: z.string().nullable().optional(),
  })
  .passthrough();

export const transcriptJsonSchema = z
  .object({
    title: z.string().optional().nullable(),
    turns: z.array(z.unknown()).optional(),
    segments: z.array(z.unknown()).optional(),
  })
  .passthrough()
  .refine((v) => Array.isArray(v.turns) || Array.isArray(v.segments), {
    message: 'expected an object with a "turns" or "segments" array',
  });

/** A comment record after alias normalisation. */
export const commentRecordSchema = z
  .object({
    comment_id: z.union([z.string(), z.number()]).optional().nullable(),
    author: z.string().optional().nullable(),
    text: z.string({ error: 'missing "text" (or an alias such as textOriginal, content, body)' }),
    likes: z.number().optional().nullable(),
    published_at: z.string().optional().nullable(),
    parent_id: z.union([z.string(), z.number()]).optional().nullable(),
    reply_count: z.number().optional().nullable(),
  })
  .passthrough();

export type RawCommentRecord = z.infer<typeof commentRecordSchema>;

/** Field aliases seen in real comment exports, mapped to our canonical names. */
export const COMMENT_FIELD_ALIASES: Record<string, keyof RawCommentRecord> = {
  id: 'comment_id',
  commentId: 'comment_id',
  cid: 'comment_id',
  COMMENT_ID: 'comment_id',
  authorDisplayName: 'author',
  author_name: 'author',
  username: 'author',
  user: 'author',
  AUTHOR: 'author',
  textOriginal: 'text',
  textDisplay: 'text',
  content: 'text',
  body: 'text',
  comment: 'text',
  message: 'text',
  CONTENT: 'text',
  likeCount: 'likes',
  like_count: 'likes',
  votes: 'likes',
  upvotes: 'likes',
  score: 'likes',
  publishedAt: 'published_at',
  created_at: 'published_at',
  date: 'published_at',
  timestamp: 'published_at',
  DATE: 'published_at',
  parentId: 'parent_id',
  parent: 'parent_id',
  reply_to: 'parent_id',
  totalReplyCount: 'reply_count',
  replyCount: 'reply_count',
};

/**
 * Maps aliased fields to canonical ones (canonical names win), flattens the
 * YouTube Data API `snippet` nesting and coerces numeric strings ("1.2K") in
 * count fields.
 */
export function normaliseCommentFields(raw: Record<string, unknown>): Record<string, unknown> {
  let rec: Record<string, unknown> = raw;
  const snippet = raw['snippet'];
  if (snippet && typeof snippet === 'object') {
    const s = snippet as Record<string, unknown>;
    const top = (s['topLevelComment'] as Record<string, unknown> | undefined)?.['snippet'];
    rec = { ...(top && typeof top === 'object' ? top : {}), ...s, ...raw };
    if (raw['id'] !== undefined) rec['comment_id'] = raw['id'];
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    const canon = COMMENT_FIELD_ALIASES[k];
    if (canon) {
      if (out[canon] === undefined && rec[canon] === undefined) out[canon] = v;
    } else {
      out[k] = v;
    }
  }
  for (const key of ['likes', 'reply_count'] as const) out[key] = coerceCount(out[key]);
  const published = out['published_at'];
  if (typeof published === 'number' && Number.isFinite(published)) {
    // Epoch seconds or milliseconds.
    out['published_at'] = new Date(published > 1e12 ? published : published * 1000).toISOString();
  }
  return out;
}

function coerceCount(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const m = /^\s*([\d.,]+)\s*([kKmM万]?)\s*$/.exec(v);
  if (!m) return v.trim() === '' ? undefined : v;
  const n = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(n)) return v;
  const mult = m[2] === 'k' || m[2] === 'K' ? 1e3 : m[2] === 'm' || m[2] === 'M' ? 1e6 : m[2] === '万' ? 1e4 : 1;
  return Math.round(n * mult);
}
