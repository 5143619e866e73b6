/**
 * Transcript and comments parts built in memory from plain texts, for unit tests of code that
 * reads parts (grounding, windows, spans). Units are joined by a newline, as the loader joins them;
 * each unit maps verbatim to its own line of a notional original file.
 */
import type { CommentRecord, CommentsPart, CorpusItem, TranscriptPart, TranscriptSegment } from '../../src/core/corpus/types';
import { countWords } from '../../src/core/text/words';

/** A turn: its text, or its text with a speaker and times. */
export type Turn = string | { text: string; speaker?: string; start?: number; end?: number };

/** A transcript part of `turns`, one per line of `t.json`. */
export function transcriptPart(turns: readonly Turn[], relPath = 't.json'): TranscriptPart {
  let offset = 0;
  const segments: TranscriptSegment[] = turns.map((t, index) => {
    const turn = typeof t === 'string' ? { text: t } : t;
    const seg: TranscriptSegment = {
      index,
      text: turn.text,
      offset,
      ...(turn.speaker ? { speaker: turn.speaker } : {}),
      ...(turn.start !== undefined ? { start: turn.start } : {}),
      ...(turn.end !== undefined ? { end: turn.end } : {}),
      source: { startLine: index, startColumn: 0, endLine: index, endColumn: turn.text.length },
      pieces: [{ at: 0, line: index, column: 0, length: turn.text.length, rawLength: turn.text.length }],
    };
    offset += turn.text.length + 1;
    return seg;
  });
  const text = segments.map((s) => s.text).join('\n');
  return { kind: 'transcript', file: { path: `/corpus/${relPath}`, relPath }, format: 'json', segments, text, wordCount: countWords(text) };
}

/** A comments part of `texts` (ids 1, 2, …), one per line of `c.jsonl`. */
export function commentsPart(texts: readonly string[], relPath = 'c.jsonl'): CommentsPart {
  let offset = 0;
  const comments: CommentRecord[] = texts.map((text, index) => {
    const c: CommentRecord = {
      index,
      id: String(index + 1),
      text,
      offset,
      author: `user${index + 1}`,
      source: { startLine: index, startColumn: 0, endLine: index, endColumn: text.length },
      pieces: [{ at: 0, line: index, column: 0, length: text.length, rawLength: text.length }],
    };
    offset += text.length + 1;
    return c;
  });
  const text = comments.map((c) => c.text).join('\n');
  return { kind: 'comments', file: { path: `/corpus/${relPath}`, relPath }, format: 'jsonl', comments, text, wordCount: countWords(text), emptyCount: 0 };
}

/** An item of the given parts. */
export function itemOf(id: string, parts: { transcript?: TranscriptPart; comments?: CommentsPart }, contentHash = `hash-${id}`): CorpusItem {
  const wordCount = (parts.transcript?.wordCount ?? 0) + (parts.comments?.wordCount ?? 0);
  return { id, title: `Item ${id}`, meta: {}, ignoredFiles: [], ...parts, contentHash, wordCount };
}
