/**
 * Answers without a model (labelled extractive): a citation question shows the cited originals
 * verbatim; a question about the report quotes the report's lines that bear on it (with their
 * citations); a question about the corpus answers with the extractive answer's sentences
 * (`ask/answer.ts`: 2–6 sentences of the corpus, each naming its item and who said it where),
 * grouped by item. Labels in the question's language (`chatWords.ts`).
 */
import type { AnswerSentence } from '../ask/answer';
import { spamFreeComments } from '../markers/spamFree';
import { formatClock } from '../text/clock';
import { tokenize, tokenizeQuery } from '../search/tokenize';
import { isContentFree } from '../text/contentFree';
import type { Corpus } from '../corpus/types';
import type { ParsedQuery } from '../ask/query';
import { chatWords } from './chatWords';
import type { ReportContext } from './reportContext';
import type { ChatCitation, LoadedCitation } from './schema';

/** How a citation is named in an answer: `[n] file:line · 1:02 · Daniel`. */
export function citationLabel(c: ChatCitation): string {
  const s = c.span.source;
  const time = s.startTime !== undefined ? ` · ${formatClock(s.startTime)}` : '';
  const who = s.speakers?.length ? ` · ${s.speakers.slice(0, 3).join(', ')}` : '';
  return `[${c.number}] ${s.file}:${s.startLine + 1}${time}${who}`;
}

/** Quoted as a Markdown block quote, whitespace kept readable. */
function quote(text: string): string {
  return text
    .trim()
    .split(/\n+/)
    .map((l) => `> ${l.trim()}`)
    .join('\n');
}

/** Citation mode: each loaded original verbatim, under its label. */
export function answerCitations(q: ParsedQuery, loaded: readonly LoadedCitation[], citations: readonly ChatCitation[], missing: readonly number[]): string {
  const parts: string[] = [];
  for (const l of loaded) {
    const c = citations.find((x) => x.number === l.number)!;
    parts.push(`**${citationLabel(c)}**\n\n${quote(l.text)} [${l.number}]`);
  }
  const W = chatWords(q.question);
  if (missing.length) parts.push(W.noCitation(missing.map((n) => `[${n}]`).join(W.lang === 'zh' ? '、' : ', ')));
  return parts.join('\n\n');
}

interface Line {
  text: string;
  heading: string;
}

/** The report's content lines (bullets, sentences of paragraphs) under their headings. */
function reportLines(markdown: string): Line[] {
  const out: Line[] = [];
  let heading = '';
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      heading = h[1]!;
      continue;
    }
    if (line.startsWith('>') || /^_.*_$/.test(line)) continue;
    const body = line.replace(/^[-*+]\s+|^\d+[.)]\s+/, '');
    // Paragraphs: one entry per sentence that carries a citation, else the paragraph.
    // (a "." followed by a non-space — 250.000, 4.2, file.txt — does not end a sentence)
    const sentences = body.match(/(?:[^.!?。！？]|\.(?=\S))+[.!?。！？]?(?:\s*\[\d+\])*/gu) ?? [body];
    const cited = sentences.filter((s) => /\[\d+\]/.test(s));
    for (const s of cited.length ? cited : [body]) if (s.trim().length > 3) out.push({ text: s.trim(), heading });
  }
  return out;
}

const CONCLUSION = /conclusion|summary|overall|takeaway|结论|結論|总结|總結|摘要|conclusi[oó]n|resumen/iu;

/** Report mode: the report's lines that bear most on the question, with their citations (a general question: the conclusion, else the first point of each section). */
export function answerFromReport(q: ParsedQuery, report: ReportContext, max = 5): string {
  // A content-free line (a finding such as "That's all there is to say, I guess about it. [3]") is never quoted.
  const lines = reportLines(report.markdown).filter((l) => (/\[\d+\]/.test(l.text) || CONCLUSION.test(l.heading)) && !isContentFree(l.text.replace(/\[\d+\]/g, ' ')));
  const terms = new Set(tokenizeQuery(q.searchText || q.resolvedQuery).filter((t) => !/^(?:report|finding|conclusion|main|result|报告|结论)$/u.test(t)));
  const scored = lines.map((l, i) => {
    const toks = new Set(tokenize(l.text));
    let hit = 0;
    for (const t of terms) if (toks.has(t)) hit++;
    return { l, i, score: hit + (CONCLUSION.test(l.heading) ? 0.5 : 0) };
  });
  let chosen = scored.filter((s) => s.score >= 1).sort((a, b) => b.score - a.score || a.i - b.i).slice(0, max);
  if (!chosen.length) {
    const conclusion = scored.filter((s) => CONCLUSION.test(s.l.heading));
    if (conclusion.length) chosen = conclusion.slice(0, max);
    else {
      // The first point of each section: the report's own outline.
      const seen = new Set<string>();
      chosen = scored.filter((s) => (seen.has(s.l.heading) ? false : (seen.add(s.l.heading), true))).slice(0, max);
    }
  }
  chosen.sort((a, b) => a.i - b.i);
  const head = chatWords(q.question).fromReport;
  return `${head}\n\n${chosen.map((s) => `- ${s.l.text}`).join('\n')}`;
}

/** A sentence of the answer with the citation number it was given. */
export interface CitedSentence {
  sentence: AnswerSentence;
  citation: ChatCitation;
}

/**
 * Corpus mode: the extractive answer's sentences, grouped by item (the item's title once), each
 * saying who said it where and carrying its citation number; when none answers, why.
 */
export function answerFromSentences(q: ParsedQuery, cited: readonly CitedSentence[], whyNone?: string): string {
  const W = chatWords(q.question);
  if (!cited.length) return W.nothing(whyNone);
  const byItem = new Map<string, CitedSentence[]>();
  for (const c of cited) byItem.set(c.sentence.citation.itemId, [...(byItem.get(c.sentence.citation.itemId) ?? []), c]);
  const parts: string[] = [W.fromCorpus];
  const [open, close] = W.lang === 'zh' ? ['“', '”'] : W.lang === 'es' ? ['«', '»'] : ['“', '”'];
  for (const cs of byItem.values()) {
    parts.push(`**${cs[0]!.sentence.citation.title}**`);
    parts.push(cs.map((c) => `- ${c.sentence.citation.location}: ${open}${c.sentence.text}${close} [${c.citation.number}]`).join('\n'));
  }
  return parts.join('\n\n');
}

/** Corpus mode without answer sentences (none qualified): the retrieved passages quoted, grouped by item, each with its citation number. */
export function answerFromPassages(q: ParsedQuery, corpus: Corpus, cited: readonly ChatCitation[], maxChars = 400, whyNone?: string): string {
  const W = chatWords(q.question);
  if (!cited.length) return W.nothing(whyNone);
  const byItem = new Map<string, ChatCitation[]>();
  for (const c of cited) byItem.set(c.span.item_id, [...(byItem.get(c.span.item_id) ?? []), c]);
  const parts: string[] = [W.fromCorpus];
  for (const [itemId, cs] of byItem) {
    const item = corpus.items.find((i) => i.id === itemId);
    parts.push(`**${item?.title ?? itemId}**`);
    for (const c of cs) {
      // Comments as the answer may quote them: spam blanked (`spamFree.ts`).
      const text = ((c.span.part === 'transcript' ? item?.transcript : item && spamFreeComments(item, corpus))?.text.slice(c.span.start, c.span.end)) ?? '';
      const flat = text.replace(/\s+/g, ' ').trim();
      const who = c.span.source.speakers?.length ? `${c.span.source.speakers.slice(0, 2).join(', ')}: ` : '';
      parts.push(`- ${who}“${flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat}” [${c.number}]`);
    }
  }
  return parts.join('\n\n');
}
