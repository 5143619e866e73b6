/**
 * Coded segments of a corpus (`.marker-research/codings.json`): spans of items coded with a code
 * of the codebook, each with its exact quote and place, and an optional memo. Validated on read
 * (an invalid file is an error naming the file and the field, never replaced), changed under the
 * file's lock and written atomically; spans are re-anchored after re-indexing like the notebook's.
 */
import { withFileLock } from '../storage/fileLock';
import { writeFileAtomic } from '../storage/atomic';
import { readCodebook } from './codebookStore';
import { newId, nowIso, type WorkbenchDeps } from './deps';
import { parseJsonFile } from './fileErrors';
import { codingsFile, readTextIfExists, shownName } from './files';
import { spanKey } from './pins';
import { reanchorOwned, spanChanged, type ItemLookup, type ReanchorReport } from './reanchor';
import { CODINGS_VERSION, codingsSchema, pinnedSpanSchema, type CodedSegment, type Codings, type PinnedSpan } from './schema';

export { codingsFile };

export function emptyCodings(): Codings {
  return { version: CODINGS_VERSION, segments: [] };
}

/** The codings in a file's text. @throws WorkbenchFileError naming `file` and the field (or line) that is wrong. */
export function parseCodings(text: string, file: string): Codings {
  return parseJsonFile(text, file, codingsSchema);
}

export function codingsText(c: Codings): string {
  return `${JSON.stringify(c, null, 1)}\n`;
}

/** The corpus's coded segments; none when there is no file. @throws WorkbenchFileError when the file does not validate. */
export async function readCodings(root: string): Promise<Codings> {
  const file = codingsFile(root);
  const text = await readTextIfExists(file);
  return text === undefined ? emptyCodings() : parseCodings(text, shownName(root, file));
}

/** Applies `fn` to the codings on disk under their lock; writes them when `fn` says they changed. */
async function updateCodings<T>(root: string, fn: (c: Codings) => { codings?: Codings; value: T }): Promise<T> {
  const file = codingsFile(root);
  return withFileLock(file, async () => {
    const text = await readTextIfExists(file);
    const out = fn(text === undefined ? emptyCodings() : parseCodings(text, shownName(root, file)));
    if (out.codings) await writeFileAtomic(file, codingsText(codingsSchema.parse(out.codings)));
    return out.value;
  });
}

/** What a new coded segment is made of. */
export interface NewSegment {
  codeId: string;
  span: PinnedSpan;
  memo?: string;
}

/** The segment added to `c`, or the one already coding the same span with the same code (`added: false`). */
export function addSegmentIn(c: Codings, input: NewSegment, deps: WorkbenchDeps = {}): { codings: Codings; segment: CodedSegment; added: boolean } {
  const span = pinnedSpanSchema.parse(input.span);
  const key = spanKey(span);
  const same = c.segments.find((s) => s.codeId === input.codeId && spanKey(s.span) === key);
  if (same) return { codings: c, segment: same, added: false };
  const at = nowIso(deps);
  const segment: CodedSegment = { id: newId(deps), codeId: input.codeId, span, ...(input.memo?.trim() ? { memo: { text: input.memo, updatedAt: at } } : {}), createdAt: at };
  return { codings: { ...c, segments: [...c.segments, segment] }, segment, added: true };
}

/**
 * Codes a span. The code must be in the codebook (an error otherwise); coding a span again with
 * the same code gives the segment already there (`added: false`).
 */
export async function addSegment(root: string, input: NewSegment, deps: WorkbenchDeps = {}): Promise<{ segment: CodedSegment; added: boolean }> {
  const book = await readCodebook(root);
  if (!book.codes.some((c) => c.id === input.codeId)) throw new Error(`no code with id "${input.codeId}" in the codebook`);
  return updateCodings(root, (c) => {
    const r = addSegmentIn(c, input, deps);
    return { ...(r.added ? { codings: r.codings } : {}), value: { segment: r.segment, added: r.added } };
  });
}

/** Removes a coded segment; false when there is none with that id. */
export async function removeSegment(root: string, id: string): Promise<boolean> {
  return updateCodings(root, (c) => {
    const segments = c.segments.filter((s) => s.id !== id);
    return segments.length === c.segments.length ? { value: false } : { codings: { ...c, segments }, value: true };
  });
}

/** Moves a segment to another code (which must be in the codebook). */
export async function recodeSegment(root: string, id: string, codeId: string): Promise<CodedSegment | undefined> {
  const book = await readCodebook(root);
  if (!book.codes.some((c) => c.id === codeId)) throw new Error(`no code with id "${codeId}" in the codebook`);
  return updateCodings(root, (c) => {
    const k = c.segments.findIndex((s) => s.id === id);
    if (k < 0) return { value: undefined };
    const segments = [...c.segments];
    segments[k] = { ...segments[k]!, codeId };
    return { codings: { ...c, segments }, value: segments[k] };
  });
}

/** Sets (or with null removes) a segment's memo; the segment, or undefined when there is none. */
export async function setSegmentMemo(root: string, id: string, text: string | null, deps: WorkbenchDeps = {}): Promise<CodedSegment | undefined> {
  return updateCodings(root, (c) => {
    const k = c.segments.findIndex((s) => s.id === id);
    if (k < 0) return { value: undefined };
    const { memo: _m, ...rest } = c.segments[k]!;
    const segment: CodedSegment = text?.trim() ? { ...rest, memo: { text, updatedAt: nowIso(deps) } } : rest;
    const segments = [...c.segments];
    segments[k] = segment;
    return { codings: { ...c, segments }, value: segment };
  });
}

/** Removes every segment of the given codes; how many were removed. */
export async function removeSegmentsOfCodes(root: string, codeIds: readonly string[]): Promise<number> {
  const ids = new Set(codeIds);
  return updateCodings(root, (c) => {
    const segments = c.segments.filter((s) => !ids.has(s.codeId));
    const removed = c.segments.length - segments.length;
    return removed ? { codings: { ...c, segments }, value: removed } : { value: 0 };
  });
}

/** Re-anchors every coded segment against the corpus as it is now (see `reanchor.ts`); written only when something changed. */
export async function reanchorCodings(root: string, items: ItemLookup, deps: WorkbenchDeps = {}): Promise<ReanchorReport> {
  const now = nowIso(deps);
  return updateCodings(root, (c) => {
    const { report, results } = reanchorOwned(
      c.segments.map((s) => ({ owner: s.id, index: 0, span: s.span })),
      items,
      now,
    );
    if (!results.some(spanChanged)) return { value: report };
    const segments = c.segments.map((s, i) => ({ ...s, span: results[i]!.span }));
    return { codings: { ...c, segments }, value: { ...report, written: true } };
  });
}
