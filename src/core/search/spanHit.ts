/** A ranked span as `search --json` and `ask --json` print it. */
import type { SpanSource } from '../corpus/spans';
import type { PartKind } from '../corpus/types';

export interface SpanHit {
  rank: number;
  itemId: string;
  title: string;
  part: PartKind;
  /** Offsets into the part's normalised text. */
  start: number;
  end: number;
  words: number;
  score: number;
  /** Zero-based lines and columns in the original file, time and speakers; null when the span cannot be mapped. */
  source: SpanSource | null;
  text: string;
}
