/**
 * Citations of a report and de-duplication of findings. The synthesis cites the run's source ids
 * (`[S3]`, `[S3][S7]`, `[S3, S7]`) or marker ids; {@link resolveCitations} turns them into
 * numbered citations `[1]`, `[2]` that each resolve to a stored {@link SourceSpan}, and removes
 * (and reports) every citation it cannot resolve — a report never ships a dangling number.
 */
import { claimSimilarity } from '../markers/build';
import type { Logger } from '../util/log';
import type { ReportSources, SourceSpan } from './schema';

/** The report with numbered citations, its sources and what was removed. */
export interface ResolvedCitations {
  markdown: string;
  sources: ReportSources;
  /** Citations that did not resolve, as written (e.g. `S99`, `7`). */
  removed: string[];
}

const BRACKET = /\[([^[\]\n]{1,400})\](?!\()/g;
const SOURCE_ID = /^S\d+$/;
const NUMBER = /^\d+$/;
const MARKER_ID = /^[^\s[\]]+:[FODE]:[0-9a-f]{10}$/;

/** The tokens of a bracket when every one looks like a citation (a source id, number or marker id). */
function citationTokens(inner: string): string[] | undefined {
  const tokens = inner
    .split(/[,;，；\s]+/)
    .map((t) => t.trim())
    .filter(Boolean);
  if (!tokens.length) return undefined;
  return tokens.every((t) => SOURCE_ID.test(t) || NUMBER.test(t) || MARKER_ID.test(t)) ? tokens : undefined;
}

/**
 * True when the text of a bracket (`S3`, `S3, S7`, `7`, a marker id) is a citation
 * {@link resolveCitations} resolves: the Markdown reducer keeps such brackets as they are.
 */
export function isCitationText(inner: string): boolean {
  return inner.length >= 1 && inner.length <= 400 && !/[[\]\n]/.test(inner) && citationTokens(inner) !== undefined;
}

/** Where a citation that resolved to nothing was: tidied away with the space around it. */
const REMOVED = '\uE0FF';

/**
 * Replaces source-id citations with numbers in order of first use; a citation that `resolve`
 * cannot map to a span is removed and logged. Bare numbers (`[7]`) are never trusted: the
 * model does not know the numbering, so they are removed too.
 *
 * @example
 * const r = resolveCitations('Range drops [S2][S9].', (id) => spans.get(id));
 * r.markdown; // 'Range drops [1].'  (S9 unknown: removed, listed in r.removed)
 */
export function resolveCitations(markdown: string, resolve: (id: string) => SourceSpan | undefined, log?: Logger): ResolvedCitations {
  const numbers = new Map<string, number>();
  const citations: ReportSources['citations'] = [];
  const removed: string[] = [];
  const spanKey = (s: SourceSpan): string => `${s.item_id}\u0000${s.part}\u0000${s.start}\u0000${s.end}`;
  const out = markdown.replace(BRACKET, (whole, inner: string) => {
    const tokens = citationTokens(inner);
    if (!tokens) return whole;
    const nums: number[] = [];
    for (const t of tokens) {
      const span = NUMBER.test(t) ? undefined : resolve(t);
      if (!span) {
        removed.push(t);
        continue;
      }
      const key = spanKey(span);
      let n = numbers.get(key);
      if (n === undefined) {
        n = citations.length + 1;
        numbers.set(key, n);
        citations.push({ number: n, span });
      }
      if (!nums.includes(n)) nums.push(n);
    }
    return nums.length ? nums.map((n) => `[${n}]`).join('') : REMOVED;
  });
  for (const r of removed) log?.warn(`research: removed a citation that does not resolve to a source span: [${r}]`);
  // Tidy the space a removed citation leaves (before punctuation: none; between words: one) —
  // only there: the rest of the text is written as it is.
  const markdownOut = out.replace(/([ \t]*)\uE0FF(?:[ \t]*\uE0FF)*([ \t]*)/g, (whole: string, before: string, after: string, at: number, all: string) => {
    const next = all[at + whole.length];
    if (next === undefined || next === '\n' || next === '\r' || /[.,;:!?。，；：！？]/.test(next)) return '';
    return before || after ? ' ' : '';
  });
  return { markdown: markdownOut, sources: { citations }, removed };
}

/** Every `[n]` citation number in a Markdown text (Markdown links excluded). */
export function citedNumbers(markdown: string): number[] {
  const out: number[] = [];
  for (const m of markdown.matchAll(/\[(\d+)\](?!\()/g)) out.push(Number(m[1]));
  return out;
}

/** A finding-like record: text, the sources that support it, confidence. */
export interface Dedupable {
  text: string;
  source_ids: string[];
  confidence: number;
}

/** The numbers a text states, normalised ("1,200" → "1200"), in order. */
function numbersOf(text: string): string {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, '')).join(' ');
}

/** Two findings say the same thing: similar wording and the same numbers ("40 km at minus 3" is not "54 km at minus 5"). */
export function sameFinding(a: string, b: string, threshold: number): boolean {
  return numbersOf(a) === numbersOf(b) && claimSimilarity(a, b) >= threshold;
}

/**
 * Merges findings that say the same thing ({@link sameFinding}): the first keeps its text, source
 * ids are united, confidence is the max. Quadratic in the findings of one call.
 */
export function dedupeFindings<T extends Dedupable>(findings: readonly T[], threshold = 0.6): T[] {
  const out: T[] = [];
  for (const f of findings) {
    const same = out.find((o) => sameFinding(o.text, f.text, threshold));
    if (!same) {
      out.push({ ...f, source_ids: [...f.source_ids] });
      continue;
    }
    for (const s of f.source_ids) if (!same.source_ids.includes(s)) same.source_ids.push(s);
    same.confidence = Math.max(same.confidence, f.confidence);
  }
  return out;
}

/**
 * Share of findings that repeat an earlier one (similarity ≥ `threshold`). With `groupOf`, only
 * repeats of a finding from another group count (the cross-phase rate).
 */
export function duplicateRate<T extends Dedupable>(findings: readonly T[], threshold = 0.6, groupOf?: (f: T) => string | undefined): number {
  if (!findings.length) return 0;
  let dup = 0;
  for (let i = 0; i < findings.length; i++) {
    for (let j = 0; j < i; j++) {
      if (groupOf && groupOf(findings[i]!) === groupOf(findings[j]!)) continue;
      if (sameFinding(findings[i]!.text, findings[j]!.text, threshold)) {
        dup++;
        break;
      }
    }
  }
  return dup / findings.length;
}
