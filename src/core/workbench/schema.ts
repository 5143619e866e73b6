/**
 * The researcher's workbench (issue 24): what is pinned to the notebook, the codebook, coded
 * segments and their memos. zod is the source of truth; types are inferred.
 *
 * A pinned span is the corpus's span (`corpus/spans.ts`: item, part, offsets into the part's
 * normalised text) with the exact text it had when it was pinned (`quote`) and its place in the
 * original file as the markers and reports store it (`SourceRange`, from `mapSpan` via
 * `storedRange`). The quote is what re-anchoring searches for after the corpus is indexed again
 * (`reanchor.ts`); a span that cannot be found again keeps its old offsets and is flagged `lost`.
 */
import { z } from 'zod';
import { sourceRangeSchema } from '../markers/schema';

/** Why a span could not be re-anchored: its item or part is gone, or its quote is no longer in the part. */
export const LOST_REASONS = ['item-missing', 'part-missing', 'quote-not-found'] as const;

/** A span of the corpus kept by the researcher (a notebook entry's evidence, a coded segment). */
export const pinnedSpanSchema = z
  .object({
    itemId: z.string().min(1),
    part: z.enum(['transcript', 'comments']),
    /** Offsets into the part's normalised text, as the corpus loader gives them. */
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
    /** The exact text of `[start, end)` when it was pinned (or last re-anchored). */
    quote: z.string().min(1),
    /** Where the span sits in the original file (file relative to the corpus root, zero-based lines and columns, time, speakers). */
    source: sourceRangeSchema,
    /** The item's title when the span was pinned: labels without the corpus at hand. */
    itemTitle: z.string().optional(),
    /** Set when re-anchoring could not find the quote again: the offsets are the old ones, never moved silently. */
    lost: z.object({ reason: z.enum(LOST_REASONS), since: z.string() }).optional(),
  })
  .refine((s) => s.end > s.start, { message: 'end must be greater than start', path: ['end'] });
export type PinnedSpan = z.infer<typeof pinnedSpanSchema>;

/** What a notebook entry was pinned from. */
export const ENTRY_KINDS = ['marker', 'ask-hit', 'answer-sentence', 'chat-answer', 'finding', 'selection', 'note'] as const;
export const entryKindSchema = z.enum(ENTRY_KINDS);
export type EntryKind = z.infer<typeof entryKindSchema>;

/** Where a pinned thing came from, beyond its spans (for the views: open the marker, the run, the chat). */
export const entryOriginSchema = z
  .object({
    markerId: z.string(),
    runId: z.string(),
    findingId: z.string(),
    conversationId: z.string(),
    question: z.string(),
  })
  .partial();
export type EntryOrigin = z.infer<typeof entryOriginSchema>;

const entryFields = {
  id: z.string().min(1),
  kind: entryKindSchema,
  /** The entry's label (its heading in notebook.md; the researcher may rename it there). */
  title: z.string(),
  /** The pinned thing's own words: a marker's claim, an answer sentence, a chat answer, a finding. Absent for a hit or a selection (their quote is the text). */
  text: z.string().optional(),
  /** The evidence: one span for a hit or a selection, the cited spans of an answer or finding, none for a note. */
  spans: z.array(pinnedSpanSchema),
  createdAt: z.iso.datetime(),
  origin: entryOriginSchema.optional(),
};

/** Kinds whose entries must have a span. */
const NEEDS_SPAN: ReadonlySet<EntryKind> = new Set(['ask-hit', 'selection']);

function checkSpans(e: { kind: EntryKind; spans: unknown[] }, ctx: z.RefinementCtx): void {
  if (NEEDS_SPAN.has(e.kind) && e.spans.length === 0) ctx.addIssue({ code: 'custom', path: ['spans'], message: `an entry of kind ${e.kind} needs a span` });
}

/**
 * What the notebook keeps of an entry in its record (the HTML comment before the entry in
 * notebook.md): everything but the researcher's note, which is the Markdown under the entry.
 */
export const entryRecordSchema = z.object(entryFields).superRefine(checkSpans);
export type EntryRecord = z.infer<typeof entryRecordSchema>;

/** A notebook entry: its record and the researcher's note (Markdown, kept verbatim). */
export const notebookEntrySchema = z.object({ ...entryFields, note: z.string().optional() }).superRefine(checkSpans);
export type NotebookEntry = z.infer<typeof notebookEntrySchema>;

/** A memo: the researcher's text about a code or a segment. */
export const memoSchema = z.object({ text: z.string(), updatedAt: z.string() });
export type Memo = z.infer<typeof memoSchema>;

/** A colour as `#rrggbb`. */
export const colourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour as #rrggbb');

export const codeSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, 'a code needs a name'),
  description: z.string().optional(),
  colour: colourSchema,
  /** The parent code, for a hierarchy of codes. */
  parentId: z.string().min(1).optional(),
  memo: memoSchema.optional(),
  createdAt: z.string().optional(),
});
export type Code = z.infer<typeof codeSchema>;

/** `.marker-research/codebook.json`. */
export const CODEBOOK_VERSION = 1;

/** Names compared as a researcher reads them: case, width and spacing ignored. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export const codebookSchema = z
  .object({
    version: z.literal(CODEBOOK_VERSION),
    codes: z.array(codeSchema),
  })
  .superRefine((book, ctx) => {
    const byId = new Map<string, number>();
    book.codes.forEach((c, i) => {
      if (byId.has(c.id)) ctx.addIssue({ code: 'custom', path: ['codes', i, 'id'], message: `duplicate code id "${c.id}" (also codes[${byId.get(c.id)}])` });
      else byId.set(c.id, i);
    });
    const names = new Map<string, number>();
    book.codes.forEach((c, i) => {
      const key = `${c.parentId ?? ''}\u0000${nameKey(c.name)}`;
      if (names.has(key)) ctx.addIssue({ code: 'custom', path: ['codes', i, 'name'], message: `duplicate code name "${c.name}" under the same parent (also codes[${names.get(key)}])` });
      else names.set(key, i);
    });
    book.codes.forEach((c, i) => {
      if (c.parentId === undefined) return;
      if (!byId.has(c.parentId)) {
        ctx.addIssue({ code: 'custom', path: ['codes', i, 'parentId'], message: `unknown parent code "${c.parentId}"` });
        return;
      }
      // Walk up: a chain longer than the codebook is a cycle.
      let at: string | undefined = c.parentId;
      for (let steps = 0; at !== undefined; steps++) {
        if (at === c.id || steps > book.codes.length) {
          ctx.addIssue({ code: 'custom', path: ['codes', i, 'parentId'], message: `code "${c.name}" is its own ancestor (a cycle of parents)` });
          break;
        }
        const k = byId.get(at);
        at = k === undefined ? undefined : book.codes[k]!.parentId;
      }
    });
  });
export type Codebook = z.infer<typeof codebookSchema>;

/** A span of an item coded with one code. */
export const codedSegmentSchema = z.object({
  id: z.string().min(1),
  codeId: z.string().min(1),
  span: pinnedSpanSchema,
  memo: memoSchema.optional(),
  createdAt: z.string(),
});
export type CodedSegment = z.infer<typeof codedSegmentSchema>;

/** `.marker-research/codings.json`. */
export const CODINGS_VERSION = 1;

export const codingsSchema = z
  .object({
    version: z.literal(CODINGS_VERSION),
    segments: z.array(codedSegmentSchema),
  })
  .superRefine((c, ctx) => {
    const seen = new Map<string, number>();
    c.segments.forEach((s, i) => {
      if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: ['segments', i, 'id'], message: `duplicate segment id "${s.id}" (also segments[${seen.get(s.id)}])` });
      else seen.set(s.id, i);
    });
  });
export type Codings = z.infer<typeof codingsSchema>;
