/**
 * The report's data table: the figures its findings state (numbers with a unit, or written in
 * digits — `findNumbers` of `spokenNumbers.ts`), each with what it measures (the content words
 * of its clause nearest to it, and the kind of number), who said it and where (the finding's
 * citation). Every cell is corpus text escaped with {@link markdownText}, which escapes `|`.
 */
import { contentWords, type ContentLang } from '../text/contentFree';
import { markdownText } from '../text/markdownSafe';
import { findNumbers, type NumberMention } from '../text/spokenNumbers';
import type { ReportWords } from './reportWords';

/** Rows of the table at most. */
export const DATA_ROWS = 12;
/** Content words that say what a figure measures. */
const MEASURE_WORDS = 4;
/** Rows one finding gives at most. */
const ROWS_PER_FINDING = 2;

/** Figures of a text, those next to each other of one kind merged ("1 月" "3 号" → "1 月 3 号"). */
function figures(text: string): NumberMention[] {
  const out: NumberMention[] = [];
  for (const m of findNumbers(text)) {
    const last = out[out.length - 1];
    if (last && last.kind === m.kind && m.start - last.end <= 2 && /^\s*$/u.test(text.slice(last.end, m.start))) out[out.length - 1] = { ...last, end: m.end, text: text.slice(last.start, m.end) };
    else out.push(m);
  }
  return out;
}

/** A finding the table may take figures from. */
export interface DataFinding {
  text: string;
  /** Who said it (speakers or "@author"), raw. */
  who: readonly string[];
  /** Its citation as the report writes it (`[S12]`), resolved with the rest of the report. */
  cite: string;
}

/** One row, raw (not escaped). */
export interface DataRow {
  figure: string;
  measures: string;
  who: string;
  cite: string;
}

/**
 * A figure worth a row: a number with a unit (a count of at least ten, or written in digits), or a
 * precise figure in digits ("2.31", "1,200", "2019") — not "dos amigos", "三个", a bare "18".
 */
function isFigure(m: NumberMention): boolean {
  if (m.kind === 'number') return /\d[.,]\d|\d{3}/.test(m.text);
  if (m.kind === 'count') return /\d/.test(m.text) || (m.value ?? 0) >= 10;
  return true;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CLAUSE_END = /[.;:!?。；：！？,，]/u;

/** The content words of the figure's clause nearest to it: those before it (the last few), else those after it. */
function measuredWords(text: string, m: NumberMention, lang: ContentLang | undefined): string[] {
  let a = m.start;
  while (a > 0 && !CLAUSE_END.test(text[a - 1]!)) a--;
  let z = m.end;
  while (z < text.length && !CLAUSE_END.test(text[z]!)) z++;
  // Not a digit, not a word of the figure, not a lone CJK character ("号", "个").
  const keep = (w: string): boolean => !/^\d/.test(w) && !m.text.includes(w) && !(CJK.test(w) && [...w].length < 2);
  const before = contentWords(text.slice(a, m.start), lang).filter(keep);
  if (before.length) return before.slice(-MEASURE_WORDS);
  return contentWords(text.slice(m.end, z), lang).filter(keep).slice(0, MEASURE_WORDS);
}

/**
 * The rows of the findings' figures, in the findings' order, one per figure and speaker.
 *
 * @example
 * dataRows([{ text: 'So for other services they were about thirty dollars an hour.', who: ['Grad A'], cite: '[S4]' }], reportWords('en'))
 * // [{ figure: 'thirty dollars an hour', measures: 'services (an amount of money)', who: 'Grad A', cite: '[S4]' }]
 */
export function dataRows(findings: readonly DataFinding[], W: ReportWords, lang?: ContentLang): DataRow[] {
  const rows: DataRow[] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    let taken = 0;
    for (const m of figures(f.text)) {
      if (!isFigure(m) || rows.length >= DATA_ROWS || taken >= ROWS_PER_FINDING) continue;
      const who = f.who.join(', ');
      const key = `${m.text.toLowerCase()}\u0000${who}`;
      if (seen.has(key)) continue;
      seen.add(key);
      taken++;
      const words = measuredWords(f.text, m, lang);
      const kind = W.numberKind[m.kind];
      rows.push({ figure: m.text, measures: words.length ? `${words.join(lang === 'zh' ? '' : ' ')} (${kind})` : kind, who, cite: f.cite });
    }
  }
  return rows;
}

/** The table's Markdown lines (empty without rows): a heading, the header, the rows; cells escaped. */
export function dataTableLines(rows: readonly DataRow[], W: ReportWords): string[] {
  if (!rows.length) return [];
  const [a, b, c, d] = W.dataColumns;
  return [
    `## ${W.data}`,
    '',
    `| ${a} | ${b} | ${c} | ${d} |`,
    '|---|---|---|---|',
    ...rows.map((r) => `| ${markdownText(r.figure)} | ${markdownText(r.measures)} | ${markdownText(r.who) || '—'} | ${r.cite} |`),
    '',
  ];
}
