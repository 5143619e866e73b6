/**
 * Answers without a model (labelled extractive): a citation question shows the cited originals
 * verbatim; a question about the report quotes the report's lines that bear on it (with their
 * citations); a question about the corpus quotes the retrieved passages, grouped by item.
 */
import { spamFreeComments } from '../markers/spamFree';
import { formatClock } from '../text/clock';
import { tokenize, tokenizeQuery } from '../search/tokenize';
import { isContentFree } from '../text/contentFree';
import type { Corpus } from '../corpus/types';
import type { ParsedQuery } from '../ask/query';
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

const zh = (q: ParsedQuery): boolean => /\p{Script=Han}/u.test(q.question);

/** Citation mode: each loaded original verbatim, under its label. */
export function answerCitations(q: ParsedQuery, loaded: readonly LoadedCitation[], citations: readonly ChatCitation[], missing: readonly number[]): string {
  const parts: string[] = [];
  for (const l of loaded) {
    const c = citations.find((x) => x.number === l.number)!;
    parts.push(`**${citationLabel(c)}**\n\n${quote(l.text)} [${l.number}]`);
  }
  if (missing.length) parts.push(zh(q) ? `没有编号为 ${missing.map((n) => `[${n}]`).join('、')} 的引用。` : `There is no citation ${missing.map((n) => `[${n}]`).join(', ')} in this conversation.`);
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
    const sentences = body.match(/[^.!?。！？]+[.!?。！？]?(?:\s*\[\d+\])*/gu) ?? [body];
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
  const head = zh(q) ? '报告中与此相关的内容（摘录，未使用模型）：' : 'From the report (extractive: its own lines, no model):';
  return `${head}\n\n${chosen.map((s) => `- ${s.l.text}`).join('\n')}`;
}

/** Corpus mode: the retrieved passages quoted, grouped by item, each with its citation number. */
export function answerFromPassages(q: ParsedQuery, corpus: Corpus, cited: readonly ChatCitation[], maxChars = 400): string {
  if (!cited.length) return zh(q) ? '语料中没有找到相关内容。' : 'Nothing in the corpus matches this question.';
  const byItem = new Map<string, ChatCitation[]>();
  for (const c of cited) byItem.set(c.span.item_id, [...(byItem.get(c.span.item_id) ?? []), c]);
  const parts: string[] = [zh(q) ? '语料中的相关段落（摘录，未使用模型）：' : 'Passages from the corpus (extractive: quoted, no model):'];
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
