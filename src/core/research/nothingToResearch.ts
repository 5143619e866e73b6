/**
 * Whether a corpus has anything to research (issue 19, class 9): a folder without items, or whose
 * items hold no readable text (empty files, binary files named like transcripts), ends a run
 * `failed` with the reason in run.json instead of planning zero steps or reporting "(no
 * findings)" as done.
 *
 * @example
 * nothingToResearch(corpus) // → undefined, or "nothing to research in /c: no transcript or comments files were found …"
 */
import type { Corpus, CorpusItem } from '../corpus/types';

/** A run on a corpus with nothing to research; the message says what is missing and what to do. */
export class NothingToResearchError extends Error {
  readonly reason = 'nothing-to-research' as const;
  constructor(readonly detail: string) {
    super(`research: ${detail}`);
    this.name = 'NothingToResearchError';
  }
}

/** Characters of an item's text looked at to tell text from binary (its start). */
const SAMPLE_CHARS = 64 * 1024;
/** Text with more than this share of replacement characters (U+FFFD) and control characters is binary. */
const MAX_UNREADABLE_SHARE = 0.2;

// eslint-disable-next-line no-control-regex
const UNREADABLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/g;

/** Share of unreadable characters among the non-space characters of `text`'s start. */
function unreadableShare(text: string): number {
  const sample = text.slice(0, SAMPLE_CHARS);
  const visible = sample.replace(/\s+/g, '').length;
  if (!visible) return 0;
  return (sample.match(UNREADABLE)?.length ?? 0) / visible;
}

/** How an item's text reads: `readable`, `empty` (no words), or `binary`. */
export function itemReadability(item: CorpusItem): 'readable' | 'empty' | 'binary' {
  if (item.wordCount <= 0) return 'empty';
  const texts = [item.transcript?.text, item.comments?.text].filter((t): t is string => t !== undefined && t.trim() !== '');
  // An item held without its parsed parts (the language server's lazy items) counts by its words.
  if (!texts.length) return 'readable';
  return texts.some((t) => unreadableShare(t) <= MAX_UNREADABLE_SHARE) ? 'readable' : 'binary';
}

/**
 * Why the corpus has nothing to research, or undefined when an item has readable text. Stops at
 * the first readable item.
 */
export function nothingToResearch(corpus: Corpus): string | undefined {
  if (!corpus.items.length) {
    return `nothing to research in ${corpus.root}: no transcript or comments files were found (one folder per item with transcript.{json,vtt,srt,txt,md} and/or comments.{jsonl,json,csv}, or flat <id>.transcript.srt / <id>.comments.jsonl)`;
  }
  const empty: string[] = [];
  const binary: string[] = [];
  for (const item of corpus.items) {
    const r = itemReadability(item);
    if (r === 'readable') return undefined;
    (r === 'empty' ? empty : binary).push(item.id);
  }
  const list = (ids: string[]): string => `${ids.slice(0, 5).map((id) => `"${id}"`).join(', ')}${ids.length > 5 ? `, … (${ids.length})` : ''}`;
  const parts = [empty.length ? `${empty.length} with no words (${list(empty)})` : '', binary.length ? `${binary.length} binary, not text (${list(binary)})` : ''].filter(Boolean);
  return `nothing to research in ${corpus.root}: none of its ${corpus.items.length} items has readable text — ${parts.join('; ')}; check that the transcript and comments files hold UTF-8 text`;
}
