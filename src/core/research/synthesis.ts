/**
 * Synthesis: the report. The model writes sections that cite the run's source ids; the
 * extractive engine lists the findings per step. Either way citations are resolved to numbered
 * `[n]` that each map to a stored span (unresolvable ones are removed and logged), epic reports
 * come in one chapter per phase, and a source list closes the report. Findings their cited spans
 * do not support (`findingSupport.ts`) are kept and marked: in the findings the model is given, on
 * their lines of an extractive or fallback report, and counted in a line at the top.
 *
 * Everything written here that the project did not write itself is untrusted: corpus text, item
 * titles, paths and speakers, the goal, and the model's plan and findings are escaped as text
 * ({@link markdownText}); the model's report sections are reduced to the safe Markdown subset
 * ({@link reduceMarkdown}), every fence closed, so the only links of a report are its citations.
 */
import { isCancellation } from '../llm/types';
import { CancelledError } from '../util/abort';
import { isCitationText, resolveCitations, type ResolvedCitations } from './citations';
import { failureCause } from './failures';
import type { RetrievalHandler } from './handler';
import { synthesisReplySchema, type NotCovered, type Plan, type RunFinding, type SourceSpan, type SynthesisReply } from './schema';
import type { Session } from './session';
import { locationLabel, storedLocationLabel } from '../corpus/locationLabel';
import type { CorpusItem } from '../corpus/types';
import { reduceMarkdown } from '../text/markdownReduce';
import { markdownText } from '../text/markdownSafe';
import { notCoveredLines } from './notCoveredSection';
import { acrossCounts, acrossLine } from './acrossCorpus';
import { dataRows, dataTableLines, type DataFinding } from './dataTable';
import { findingPlace, type FindingPlace } from './findingPlace';
import { holdsTerms } from './findingSelection';
import { goalLanguage, itemNoun } from './goalTopics';
import { reportWords, type ReportWords } from './reportWords';
import { stepHeading } from './stepHeading';
import { stepQuestion } from './stepQuestion';

/**
 * Model-written Markdown (summary, section bodies, conclusion) reduced to the safe subset; its
 * source-id citations kept for resolution; its headings below the report's own (`minHeading`), so
 * none of them is read as the report's `## Sources` or a chapter.
 */
function modelMarkdown(text: string, minHeading: number): string {
  return reduceMarkdown(text.trim(), { isCitation: isCitationText, minHeading });
}

/**
 * One line of the source list: where in words (speaker · time or turn · item;
 * author · likes · date · item), then the part and the file's lines —
 * `[n] Daniel · 0:35 · City Cycling… — transcript · city/transcript.vtt:L12–L14`.
 * Without the item (not loaded, or changed so the span no longer fits it) the
 * words come from what the span stored.
 */
export function describeSource(n: number, s: SourceSpan, item?: CorpusItem): string {
  const r = s.source;
  const lines = r.startLine === r.endLine ? `L${r.startLine + 1}` : `L${r.startLine + 1}–L${r.endLine + 1}`;
  const text = (s.part === 'transcript' ? item?.transcript : item?.comments)?.text;
  const where = item && text !== undefined && s.end <= text.length ? locationLabel(item, s.part, s.start, s.end) : storedLocationLabel(r, s.part, item?.title ?? s.item_id);
  return `[${n}] ${markdownText(where)} — ${s.part} · ${markdownText(r.file)}:${lines}`;
}

function cites(f: RunFinding): string {
  return f.source_ids.map((id) => `[${id}]`).join('');
}

/**
 * Why a finding's cited spans do not support it, in words (raw: the caller escapes), or
 * undefined for a supported (or unchecked) finding — "unsupported: numbers 42, 3.5 not in the
 * cited span", "unsupported: 10 % of its words are in the cited span", "unsourced: cites no
 * source that resolves".
 */
export function supportNote(f: Pick<RunFinding, 'support'>, zh: boolean): string | undefined {
  const sp = f.support;
  if (!sp) return undefined;
  if (sp.status === 'unsourced') return zh ? '无来源：未引用任何可解析的来源' : 'unsourced: cites no source that resolves';
  if (sp.reason === 'numbers_not_in_sources' && sp.missing_numbers?.length) {
    return zh ? `无依据：数字 ${sp.missing_numbers.join('、')} 不在所引片段中` : `unsupported: number${sp.missing_numbers.length === 1 ? '' : 's'} ${sp.missing_numbers.join(', ')} not in the cited span`;
  }
  const share = Math.round(sp.overlap * 100);
  return zh ? `无依据：其内容只有 ${share} % 出现在所引片段中` : `unsupported: only ${share} % of its words are in the cited span`;
}

/** A finding as a report line: its text and citations, and what its spans do not support, marked. */
function findingLine(f: RunFinding, zh: boolean): string {
  const note = supportNote(f, zh);
  return `- ${markdownText(f.text.replace(/\s+/g, ' '))} ${cites(f)}${note ? ` **⚠ ${markdownText(note)}**` : ''}`;
}

/**
 * The line near the top of a report counting the findings their cited spans do not support and
 * those that cite nothing that resolves (no line when there are none).
 */
function supportLines(zh: boolean, findings: readonly RunFinding[], modelWritten: boolean): string[] {
  const unsupported = findings.filter((f) => f.support?.status === 'unsupported').length;
  const unsourced = findings.filter((f) => f.support?.status === 'unsourced').length;
  if (!unsupported && !unsourced) return [];
  const n = findings.length;
  if (zh) {
    const parts = [...(unsupported ? [`${unsupported} 条得不到所引片段的支持（数字不在片段中，或与片段几乎没有共同内容）`] : []), ...(unsourced ? [`${unsourced} 条没有可解析的来源`] : [])];
    const tail = modelWritten ? '撰写报告的模型已被告知是哪些；请对照来源核实。' : '这些发现仍保留在下文，并标有“⚠ 无依据”或“⚠ 无来源”。';
    return [`> **⚠ ${n} 条发现中，${parts.join('；')}。** ${tail}`, ''];
  }
  const parts = [
    ...(unsupported ? [`${unsupported} ${unsupported === 1 ? 'is' : 'are'} not supported by the spans ${unsupported === 1 ? 'it cites' : 'they cite'} (a number not in the span, or too few words in common)`] : []),
    ...(unsourced ? [`${unsourced} cite${unsourced === 1 ? 's' : ''} no source that resolves`] : []),
  ];
  const tail = modelWritten ? 'The model writing the report was told which; check them against their sources.' : 'They are kept below, marked “⚠ unsupported” or “⚠ unsourced”.';
  return [`> **⚠ Of ${n} finding${n === 1 ? '' : 's'}, ${parts.join('; ')}.** ${tail}`, ''];
}

/** Epic reports, and deep ones whose material split into phases, come in one chapter per phase. */
function chaptered(plan: Plan): boolean {
  return plan.complexity === 'epic' || ((plan.phases?.length ?? 0) >= 2 && plan.steps.some((st) => st.phase_name));
}

/** What planning could not do as asked (the plan's notes), as lines at the top of the report. */
function planNoteLines(W: ReportWords, plan: Plan): string[] {
  if (!plan.notes?.length) return [];
  return [...plan.notes.map((n) => W.planningNote(markdownText(n))), ''];
}

/** Phases in plan order, then anything else. */
function phaseOrder(plan: Plan, findings: readonly RunFinding[]): string[] {
  const names = (plan.phases ?? []).map((p) => p.name);
  for (const f of findings) if (f.phase_name && !names.includes(f.phase_name)) names.push(f.phase_name);
  return names;
}

/** The findings as the synthesis prompt lists them, each unsupported one marked. */
function findingsText(plan: Plan, findings: readonly RunFinding[], zh: boolean): string {
  const out: string[] = [];
  const byStep = new Map<string, RunFinding[]>();
  for (const f of findings) byStep.set(f.step_id, [...(byStep.get(f.step_id) ?? []), f]);
  for (const st of plan.steps) {
    const fs = byStep.get(st.step_id) ?? [];
    if (!fs.length) continue;
    out.push(`## Step ${st.step_id}${st.phase_name ? ` [phase: ${st.phase_name}]` : ''}: ${st.goal}`);
    for (const f of fs) {
      // The model is told which findings their spans do not support, so it does not state them as facts.
      const note = supportNote(f, zh);
      out.push(`- ${f.text} ${cites(f)} (confidence ${f.confidence})${note ? (zh ? ` [⚠ ${note}；不要把它当作事实陈述]` : ` [⚠ ${note}; do not state it as a fact]`) : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** Renders the model's reply; epic sections are grouped into one chapter per phase. */
function renderModelReport(reply: SynthesisReply, plan: Plan, findings: readonly RunFinding[], header: string, banner: readonly string[], zh: boolean): string {
  const out: string[] = [`# ${markdownText(reply.title.replace(/\s+/g, ' '))}`, '', ...banner, header, '', modelMarkdown(reply.summary, 3), ''];
  if (chaptered(plan)) {
    const phases = phaseOrder(plan, findings);
    phases.forEach((p, i) => {
      const secs = reply.sections.filter((x) => x.phase_name === p || (!x.phase_name && x.heading.includes(p)));
      out.push(`## Chapter ${i + 1}: ${markdownText(p)}`, '');
      if (!secs.length) {
        for (const f of findings.filter((x) => x.phase_name === p)) out.push(findingLine(f, zh));
        out.push('');
      }
      for (const sec of secs) out.push(`### ${markdownText(sec.heading)}`, '', modelMarkdown(sec.body, 4), '');
    });
    const rest = reply.sections.filter((x) => !phases.some((p) => x.phase_name === p || (!x.phase_name && x.heading.includes(p))));
    for (const sec of rest) out.push(`## ${markdownText(sec.heading)}`, '', modelMarkdown(sec.body, 3), '');
  } else {
    for (const sec of reply.sections) out.push(`## ${markdownText(sec.heading)}`, '', modelMarkdown(sec.body, 3), '');
  }
  out.push('## Conclusion', '', modelMarkdown(reply.conclusion, 3), '');
  return out.join('\n');
}

/**
 * The extractive report, an evidence brief: per step (epic: per phase chapter) a short heading,
 * the "Across the corpus" line, and the findings best first, each naming who said it and where
 * (quoted when the engine is offline; a fallback's findings are the model's words); then the
 * figures the findings state, in a table. Its fixed words are in the run's language (`W`).
 */
function renderExtractiveReport(s: Session, plan: Plan, findings: readonly RunFinding[], handler: RetrievalHandler, W: ReportWords, header: string, banner: readonly string[], fallback: boolean): string {
  const items = new Set(findings.flatMap((f) => f.source_ids));
  const title = fallback ? W.fallbackTitle : W.extractiveTitle;
  const zh = W.lang === 'zh';
  const out: string[] = [`# ${title}${zh ? '：' : ': '}${markdownText(plan.goal)}`, '', ...banner, header, '', ...(fallback ? [] : [W.extractiveNote, '']), W.countLine(findings.length, items.size, plan.steps.length), ''];
  const corpusItems = new Map(s.corpus.items.map((it) => [it.id, it]));
  const scopeIds = plan.scope_item_ids ?? s.inputs.map((x) => x.item.id);
  const noun = itemNoun(scopeIds.flatMap((id) => corpusItems.get(id) ?? []));
  const quoted = s.engine === 'extractive' && !fallback;
  const placeOf = (f: RunFinding): FindingPlace | undefined => {
    const span = f.source_ids.map((id) => handler.registry.get(id)).find((x) => x !== undefined);
    return span && findingPlace(span, corpusItems.get(span.item_id));
  };
  const tableFindings: DataFinding[] = [];
  const line = (f: RunFinding, place: FindingPlace | undefined): string => {
    // A fallback's findings are the model's words: listed as the model wrote them, with their marks.
    if (!place || !quoted) return findingLine(f, zh);
    const [who, ...rest] = place.label.split(' · ');
    const named = place.who.length > 0 && who !== undefined;
    const label = named ? `**${markdownText(who)}**${rest.length ? ` · ${markdownText(rest.join(' · '))}` : ''}` : markdownText(place.label);
    const text = markdownText(f.text.replace(/\s+/g, ' '));
    const note = supportNote(f, zh);
    return `- ${label}${zh ? '：' : ': '}${quoted ? `${W.quote[0]}${text}${W.quote[1]}` : text} ${cites(f)}${note ? ` **⚠ ${markdownText(note)}**` : ''}`;
  };
  const stepSection = (st: Plan['steps'][number], level: string): void => {
    const fs = findings.filter((f) => f.step_id === st.step_id);
    // The heading names the step's facet and topic; an epic thread's phase is its chapter's heading already.
    const goal = st.phase_name ? st.goal.replace(` (${st.phase_name})`, '') : st.goal;
    out.push(`${level} ${markdownText(stepHeading(goal, plan.goal))}`, '');
    const places = fs.map(placeOf);
    const question = stepQuestion(st.goal, plan.goal, []);
    const topic = question.primaryWords.length ? question.primaryWords : question.words;
    const stepScope = scopeIds.length ? scopeIds : st.required_content_items;
    out.push(acrossLine(acrossCounts(handler.index, topic, stepScope, places.filter((p): p is FindingPlace => !!p)), W, noun), '');
    if (!fs.length) out.push(W.noFindings);
    else if (quoted && question.weights.size && !fs.some((f) => holdsTerms(f.text, question.weights))) out.push(`*${W.keyPointsInstead}*`, '');
    fs.forEach((f, i) => {
      out.push(line(f, places[i]));
      tableFindings.push({ text: f.text, who: places[i]?.who.map((w) => (places[i]!.part === 'comments' ? `@${w}` : w)) ?? [], cite: cites(f) });
    });
    out.push('');
  };
  if (chaptered(plan)) {
    phaseOrder(plan, findings).forEach((p, i) => {
      out.push(`## ${W.chapter(i + 1)}: ${markdownText(p)}`, '');
      for (const st of plan.steps.filter((x) => x.phase_name === p)) stepSection(st, '###');
    });
    const across = plan.steps.filter((x) => !x.phase_name);
    if (across.length) out.push(`## ${W.acrossPhases}`, '');
    for (const st of across) stepSection(st, '###');
  } else for (const st of plan.steps) stepSection(st, '##');
  // The figures the findings state, collected in a table (offline: quoted figures; a fallback's are the model's words).
  if (quoted) out.push(...dataTableLines(dataRows(tableFindings, W, W.lang), W));
  return out.join('\n');
}

/** The final report and its resolved sources. */
export interface SynthesisOutput extends ResolvedCitations {
  extractive: boolean;
  /** Set when a model run's report is a fallback built extractively: why the model did not write it. */
  fallback?: string;
}

/** What {@link synthesize} needs to know about the run besides its findings. */
export interface SynthesisMeta {
  runId: string;
  /** "2 of 3 steps failed (s1, s3): <cause>" when steps failed; said at the top of the report. */
  stepFailure?: string;
  /** No step succeeded: do not ask the model for a report, write the fallback (saying this). */
  skipModel?: boolean;
  /** The plan's coverage: items of the goal's scope no step researched (with reasons) and items a step read only in part (deferred for its budget). */
  coverage?: { notCovered: readonly NotCovered[]; deferred: readonly string[]; scopeSize?: number };
}

/** The loud lines at the top of a fallback or partial report (a Markdown blockquote and a blank line). */
function bannerLines(W: ReportWords, rawFallback: string | undefined, rawStepFailure: string | undefined): string[] {
  // Causes quote error messages (paths, model replies): text, never markup.
  const fallback = rawFallback === undefined ? undefined : markdownText(rawFallback);
  const stepFailure = rawStepFailure === undefined ? undefined : markdownText(rawStepFailure);
  if (fallback !== undefined) return [W.fallbackBanner(`${fallback}${stepFailure && !fallback.includes(stepFailure) ? `${W.listSeparator}${stepFailure}` : ''}`), ''];
  if (stepFailure) return [W.partialBanner(stepFailure), ''];
  return [];
}

/** The header line under a report's title: goal, complexity, engine and run, in the report's language. */
function headerLine(W: ReportWords, plan: Plan, engineLabel: string, runId: string): string {
  const sep = W.lang === 'zh' ? '：' : ': ';
  return `_${W.goal}${sep}${markdownText(plan.goal)} · ${W.complexity}${sep}${plan.complexity} · ${W.engine}${sep}${markdownText(engineLabel)} · ${W.run} ${markdownText(runId)}_`;
}

/** Writes the report of a run from its findings. */
export async function synthesize(s: Session, plan: Plan, findings: readonly RunFinding[], handler: RetrievalHandler, meta: SynthesisMeta): Promise<SynthesisOutput> {
  const zh = s.lang === 'zh';
  // A model writes in the prompts' language (English or Chinese); an offline report in its items' language, as its plan's step labels are.
  const modelWords = reportWords(s.lang);
  const briefWords = reportWords(goalLanguage(s.inputs));
  const engineLabel = s.engine === 'extractive' ? briefWords.extractiveEngine : `${s.engine.provider} ${s.engine.model}`;
  let markdown: string | undefined;
  let extractive = s.engine === 'extractive';
  let fallback: string | undefined;
  if (!extractive && meta.skipModel) {
    fallback = zh ? `所有步骤都失败了（${meta.stepFailure ?? '模型调用失败'}），没有可供模型撰写报告的发现` : `every step failed (${meta.stepFailure ?? 'the model calls failed'}), so there were no findings for the model to write a report from`;
    extractive = true;
  } else if (!extractive) {
    try {
      const prompt = await s.prompt('research-synthesis');
      const chapters = chaptered(plan) ? `Write one section per phase, in this order, and set each section's "phase_name" to the phase: ${phaseOrder(plan, findings).join(' | ')}.` : 'Write one section per theme of the findings.';
      const r = await s.call({
        messages: prompt.render({ goal: plan.goal, complexity: plan.complexity, chapters, findings: findingsText(plan, findings, zh) }),
        schema: synthesisReplySchema,
        schemaName: 'research_synthesis',
        phase: 'synthesis',
      });
      const header = `_Goal: ${markdownText(plan.goal)} · complexity: ${plan.complexity} · engine: ${markdownText(engineLabel)} · run ${markdownText(meta.runId)}_`;
      markdown = renderModelReport(r.value, plan, findings, header, [...bannerLines(modelWords, undefined, meta.stepFailure), ...planNoteLines(modelWords, plan), ...supportLines(zh, findings, true)], zh);
    } catch (error) {
      if (error instanceof CancelledError || isCancellation(error) || s.signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError('research: cancelled');
      const cause = failureCause(error);
      s.log.warn(`research: synthesis by the model failed: ${cause} (${(error as Error).message}); writing a fallback report`);
      fallback = zh ? `模型无法撰写报告：${cause}` : `the model could not write the report: ${cause}`;
      extractive = true;
    }
  }
  const W = extractive ? briefWords : modelWords;
  markdown ??= renderExtractiveReport(s, plan, findings, handler, W, headerLine(W, plan, engineLabel, meta.runId), [...bannerLines(W, fallback, meta.stepFailure), ...planNoteLines(W, plan), ...supportLines(W.lang === 'zh', findings, false)], fallback !== undefined);
  const resolved = resolveCitations(markdown, (id) => handler.registry.get(id) ?? (handler.marker(id) ? handler.sourceForMarker(id) : undefined), s.log);
  const items = new Map(s.corpus.items.map((it) => [it.id, it]));
  const list = resolved.sources.citations.map((c) => describeSource(c.number, c.span, items.get(c.span.item_id)));
  // What the run did not research, or read only in part, comes before the sources (never silently left out).
  const gaps = notCoveredLines(meta.coverage?.notCovered ?? [], meta.coverage?.deferred ?? [], items, W, meta.coverage?.scopeSize);
  const main = gaps.length ? `${resolved.markdown.trimEnd()}\n\n${gaps.join('\n').trimEnd()}` : resolved.markdown;
  const body = list.length ? `${main.trimEnd()}\n\n## ${W.sources}\n\n${list.join('\n')}\n` : `${main.trimEnd()}\n`;
  return { ...resolved, markdown: body, extractive, ...(fallback !== undefined ? { fallback } : {}) };
}
