/**
 * Source maps: from a span of normalised text back to the original file.
 *
 * Each segment (turn, cue, line, comment) carries `pieces`: runs of its text
 * whose characters map one-to-one to a place in the original file, or single
 * characters that came from an escape or entity (`rawLength` > 1). Joining
 * spaces between lines are pieces too, mapped to the end of the previous run.
 */
import type { SourcePiece, TextRange } from './types';

export type { SourcePiece } from './types';

/** Builds a text together with its pieces. */
export class MappedTextBuilder {
  text = '';
  readonly pieces: SourcePiece[] = [];

  /** Appends characters copied verbatim from (line, column) of the original. */
  verbatim(s: string, line: number, column: number): void {
    if (!s) return;
    const last = this.pieces[this.pieces.length - 1];
    if (last && last.length === last.rawLength && last.line === line && last.column + last.rawLength === column && last.at + last.length === this.text.length) {
      last.length += s.length;
      last.rawLength += s.length;
    } else {
      this.pieces.push({ at: this.text.length, line, column, length: s.length, rawLength: s.length });
    }
    this.text += s;
  }

  /** Appends text that stands for `rawLength` original characters at (line, column), e.g. a decoded escape. */
  mapped(s: string, line: number, column: number, rawLength: number): void {
    if (!s) return;
    this.pieces.push({ at: this.text.length, line, column, length: s.length, rawLength });
    this.text += s;
  }

  /** Appends `from`..`to` of another builder's text with its mapping. */
  appendFrom(other: MappedTextBuilder, from: number, to: number): void {
    for (const p of other.pieces) {
      const a = Math.max(from, p.at);
      const z = Math.min(to, p.at + p.length);
      if (a >= z) continue;
      const piece = other.text.slice(a, z);
      if (p.length === p.rawLength) this.verbatim(piece, p.line, p.column + (a - p.at));
      else if (p.rawLength === 0) this.synthetic(piece);
      else this.mapped(piece, p.line, p.column, p.rawLength);
    }
  }

  /** A copy without leading and trailing whitespace. */
  trimmed(): MappedTextBuilder {
    const start = this.text.length - this.text.trimStart().length;
    const end = this.text.trimEnd().length;
    const b = new MappedTextBuilder();
    if (end > start) b.appendFrom(this, start, end);
    return b;
  }

  /** Appends a character that is not in the original (a joining space), mapped to the end of the previous run. */
  synthetic(s: string): void {
    if (!s) return;
    const last = this.pieces[this.pieces.length - 1];
    const line = last?.line ?? 0;
    const column = last ? last.column + last.rawLength : 0;
    this.pieces.push({ at: this.text.length, line, column, length: s.length, rawLength: 0 });
    this.text += s;
  }
}

/** Where offset `at` of a segment's text sits in the original: the start of that character. */
export function pieceStart(pieces: readonly SourcePiece[], at: number): { line: number; column: number } {
  const p = findPiece(pieces, at);
  if (!p) return { line: 0, column: 0 };
  if (p.length === p.rawLength) return { line: p.line, column: p.column + Math.max(0, at - p.at) };
  return { line: p.line, column: p.column };
}

/** The end (exclusive) in the original of the character before offset `end`. */
export function pieceEnd(pieces: readonly SourcePiece[], end: number): { line: number; column: number } {
  const p = findPiece(pieces, Math.max(0, end - 1));
  if (!p) return { line: 0, column: 0 };
  if (p.length === p.rawLength) return { line: p.line, column: p.column + Math.min(p.length, end - p.at) };
  return { line: p.line, column: p.column + p.rawLength };
}

function findPiece(pieces: readonly SourcePiece[], at: number): SourcePiece | undefined {
  let lo = 0;
  let hi = pieces.length - 1;
  if (hi < 0) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pieces[mid]!.at <= at) lo = mid; else hi = mid - 1;
  }
  return pieces[lo];
}

/** The original range of a whole piece list. */
export function piecesRange(pieces: readonly SourcePiece[], textLength: number): TextRange {
  const a = pieceStart(pieces, 0);
  const b = pieceEnd(pieces, textLength);
  return { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column };
}

/**
 * Maps the characters of a JSON string literal (`raw` is the literal's content
 * between the quotes, starting at (line, column)) to pieces; returns the decoded text.
 */
export function mapJsonString(raw: string, line: number, column: number): MappedTextBuilder {
  const b = new MappedTextBuilder();
  let runStart = 0;
  // From one backslash to the next: the characters between are copied verbatim, in one piece.
  for (let i = raw.indexOf('\\'); i >= 0; i = raw.indexOf('\\', runStart)) {
    b.verbatim(raw.slice(runStart, i), line, column + runStart);
    const e = raw[i + 1];
    if (e === 'u') {
      const code = parseInt(raw.slice(i + 2, i + 6), 16);
      b.mapped(Number.isNaN(code) ? '' : String.fromCharCode(code), line, column + i, 6);
      runStart = i + 6;
    } else {
      b.mapped(JSON_ESCAPES[e ?? ''] ?? e ?? '', line, column + i, 2);
      runStart = i + 2;
    }
  }
  b.verbatim(raw.slice(runStart), line, column + runStart);
  return b;
}

/** What a JSON escape `\x` stands for, by `x` (other than `u`). */
const JSON_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
