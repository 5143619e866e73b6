/**
 * The corpus model: what a loaded folder of transcripts and comments looks like
 * to the rest of Marker Research. Every piece of text keeps where it came from.
 */

/** A zero-based range in an original file (columns count UTF-16 code units). */
export interface TextRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export type TranscriptFormat = 'json' | 'txt' | 'md' | 'srt' | 'vtt';
export type CommentsFormat = 'jsonl' | 'json' | 'csv';
export type PartKind = 'transcript' | 'comments';

/** A file of the corpus, by absolute path and path relative to the corpus root (forward slashes). */
export interface SourceFile {
  path: string;
  relPath: string;
}

/** One run of a segment's text and where it starts in the original file (see sourceMap.ts). */
export interface SourcePiece {
  /** Offset of the run in the segment text. */
  at: number;
  line: number;
  column: number;
  /** Characters of text in the run. */
  length: number;
  /** Characters of the original the run spans: equals `length` for verbatim runs. */
  rawLength: number;
}

/** One turn / cue / line of a transcript. */
export interface TranscriptSegment {
  /** Turn index in the source (JSON array position; cue/line order otherwise). */
  index: number;
  speaker?: string;
  /** Seconds from the start of the media, where the format has timestamps. */
  start?: number;
  end?: number;
  text: string;
  /** Offset of `text` in the transcript's normalised text. */
  offset: number;
  /** Where `text` sits in the original file. */
  source: TextRange;
  /** Character-exact mapping of `text` to the original file. */
  pieces: SourcePiece[];
}

export interface TranscriptPart {
  kind: 'transcript';
  file: SourceFile;
  format: TranscriptFormat;
  segments: TranscriptSegment[];
  /** Normalised text: segment texts joined by a newline; offsets of segments point into it. */
  text: string;
  wordCount: number;
}

export interface CommentRecord {
  index: number;
  id: string;
  parentId?: string;
  author?: string;
  text: string;
  likes?: number;
  replyCount?: number;
  publishedAt?: string;
  /** Offset of `text` in the comments part's normalised text. */
  offset: number;
  source: TextRange;
  pieces: SourcePiece[];
}

export interface CommentsPart {
  kind: 'comments';
  file: SourceFile;
  format: CommentsFormat;
  comments: CommentRecord[];
  /** Normalised text: comment texts joined by a newline. */
  text: string;
  wordCount: number;
  /** Records whose text was empty: counted, kept out of the text. */
  emptyCount: number;
}

export interface ItemMeta {
  title?: string;
  source?: string;
  url?: string;
  published_at?: string;
  duration?: number | string;
  [key: string]: unknown;
}

/** Distinct speakers an item's facts keep. */
export const ITEM_FACT_SPEAKERS = 30;

/**
 * What the views show of an item's parts without needing their text: read at
 * parse time and kept with the item when its parsed parts are not (lazily
 * held items), so listing items parses nothing.
 */
export interface ItemFacts {
  /** Transcript segments, null without a transcript. */
  segments: number | null;
  /** Comment records (empty ones included), null without comments. */
  comments: number | null;
  /** Comment records whose text was empty (0 without comments). */
  emptyComments: number;
  /** Distinct transcript speakers in order of appearance, at most {@link ITEM_FACT_SPEAKERS}. */
  speakers: string[];
  /** Likes of the comments added up, null when none has a like count. */
  commentLikes: number | null;
  transcriptFile: string | null;
  commentsFile: string | null;
}

/** One content item (a video, podcast episode or meeting). */
export interface CorpusItem {
  id: string;
  title: string;
  meta: ItemMeta;
  metaFile?: SourceFile;
  transcript?: TranscriptPart;
  comments?: CommentsPart;
  /** Files of this item that were found but not used (e.g. a second transcript). */
  ignoredFiles: SourceFile[];
  /** sha256 over the bytes of every file of the item, for incremental work. */
  contentHash: string;
  wordCount: number;
  /** Set by the loader; computed from the parts where absent ({@link ItemFacts}). */
  facts?: ItemFacts;
}

export type ProblemSeverity = 'error' | 'warning' | 'info';

/** Something wrong (or noteworthy) in the input; never thrown, always reported. */
export interface CorpusProblem {
  severity: ProblemSeverity;
  /** Path relative to the corpus root. */
  file: string;
  /** Zero-based line, when known. */
  line?: number;
  column?: number;
  /** Where the text the problem is about ends (zero-based), when it spans more than a point (skipped records). */
  endLine?: number;
  endColumn?: number;
  message: string;
  /** Short machine-readable reason, e.g. `invalid-json`. */
  code: string;
}

export interface CorpusStats {
  items: number;
  transcripts: number;
  commentParts: number;
  words: number;
  comments: number;
  emptyComments: number;
  /** Records or files that could not be read. */
  skipped: number;
  filesRead: number;
}

export interface Corpus {
  root: string;
  items: CorpusItem[];
  problems: CorpusProblem[];
  stats: CorpusStats;
}

/**
 * Whether `item` has the part: from its facts when it has them (a lazily held
 * item is not parsed to tell), else from the part itself.
 */
export function hasPart(item: CorpusItem, part: PartKind): boolean {
  if (item.facts) return (part === 'transcript' ? item.facts.segments : item.facts.comments) !== null;
  return (part === 'transcript' ? item.transcript : item.comments) !== undefined;
}

/** The facts of an item, from its parts. */
export function factsOf(transcript: TranscriptPart | undefined, comments: CommentsPart | undefined): ItemFacts {
  const speakers = new Set<string>();
  for (const seg of transcript?.segments ?? []) {
    const sp = seg.speaker?.trim();
    if (!sp || speakers.has(sp)) continue;
    speakers.add(sp);
    if (speakers.size >= ITEM_FACT_SPEAKERS) break;
  }
  let likes: number | null = null;
  for (const c of comments?.comments ?? []) if (typeof c.likes === 'number') likes = (likes ?? 0) + c.likes;
  return {
    segments: transcript ? transcript.segments.length : null,
    comments: comments ? comments.comments.length : null,
    emptyComments: comments?.emptyCount ?? 0,
    speakers: [...speakers],
    commentLikes: likes,
    transcriptFile: transcript?.file.relPath ?? null,
    commentsFile: comments?.file.relPath ?? null,
  };
}

/** Formats a problem as `file:line:col: severity: message` (1-based line and column). */
export function formatProblem(p: CorpusProblem): string {
  const loc = p.line === undefined ? '' : `:${p.line + 1}${p.column === undefined ? '' : `:${p.column + 1}`}`;
  return `${p.file}${loc}: ${p.severity}: ${p.message} [${p.code}]`;
}
