/**
 * The chat benchmark (`node --import tsx bench/chat.ts`, part of `npm run bench`): the token cost
 * of follow-up questions answered from the report alone (seed 003) against the full research
 * context — every step's results with the text of every span they cite — on the same questions,
 * on a copy of the QMSum dev corpus (`$MARKER_RESEARCH_CORPORA`, default ../shared/corpora) after
 * an offline research run. Tokens: the project's estimate (src/core/llm/tokens.ts). Questions
 * beyond the report (answered from retrieved passages) are counted too, and shown apart.
 * Writes bench/results/chat.md.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAskContext } from '../src/core/ask/askContext';
import { runChatTurn } from '../src/core/chat/chatTurn';
import { createConversation } from '../src/core/chat/conversationStore';
import { loadCorpus } from '../src/core/corpus/loader';
import { estimateTokens } from '../src/core/llm/tokens';
import { listRuns, readRun } from '../src/core/research/runStore';
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { main as cli } from '../src/cli/main';
import { PassThrough } from 'node:stream';

const REPO = path.resolve(__dirname, '..');
const PROMPTS = path.join(REPO, 'prompts');

const QUESTIONS = [
  'What is the main conclusion?',
  'Which findings have the strongest evidence?',
  'Summarize the findings in three points.',
  'What does [3] say exactly?',
  '引用5的原文是什么？',
  'What do [1][2] say?',
  'What did the report find about the remote control design?',
  'What did the team decide about the budget?',
];

async function main(): Promise<void> {
  const corpora = process.env['MARKER_RESEARCH_CORPORA'] ?? path.join(REPO, '..', 'shared', 'corpora');
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-chat-'));
  try {
    const dir = path.join(work, 'qmsum-dev');
    await cp(path.join(corpora, 'qmsum-dev'), dir, { recursive: true, filter: (p) => !p.includes(`${path.sep}.marker-research`) });
    const sink = new PassThrough().resume();
    const code = await cli(['research', dir, '--json'], sink, sink);
    if (code !== 0) throw new Error(`research exited ${code}`);
    const runId = (await listRuns(dir))[0]!.run_id;
    const run = await readRun(dir, runId);
    const corpus = await loadCorpus(dir);
    const index = CorpusIndex.build(corpus);
    const ctx = await openAskContext(corpus, index);
    // The full research context: every step's results (findings, insights, sources) and the text of each cited span.
    const parts: string[] = [run.report ?? ''];
    for (const s of run.steps.values()) {
      parts.push(JSON.stringify({ step_id: s.step_id, findings: s.findings, insights: s.insights }));
      for (const src of s.sources) {
        const item = corpus.items.find((i) => i.id === src.item_id);
        parts.push((src.part === 'transcript' ? item?.transcript : item?.comments)?.text.slice(src.start, src.end) ?? '');
      }
    }
    const full = estimateTokens(parts.join('\n'));
    const conv = await createConversation(dir, { runId });
    const rows: string[] = [];
    let reportSum = 0;
    let reportN = 0;
    let allSum = 0;
    for (const q of QUESTIONS) {
      const t = await runChatTurn(ctx, conv, q, { promptsDir: PROMPTS });
      const saving = 1 - t.usage.contextTokens / full;
      rows.push(`| ${q} | ${t.mode} | ${t.usage.contextTokens} | ${full} | ${(saving * 100).toFixed(1)} % |`);
      allSum += saving;
      if (t.mode !== 'corpus') {
        reportSum += saving;
        reportN++;
      }
    }
    const lines = [
      `# Chat benchmark — follow-up context vs the full research context (qmsum-dev, offline research run ${runId}, ${run.steps.size} steps)`,
      '',
      '| question | answered from | context tokens | full research context tokens | saving |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Mean saving on questions answered from the report or its citations: **${((reportSum / Math.max(1, reportN)) * 100).toFixed(1)} %** (${reportN} questions); over all ${QUESTIONS.length}: ${((allSum / QUESTIONS.length) * 100).toFixed(1)} %.`,
      '',
    ];
    await mkdir(path.join(__dirname, 'results'), { recursive: true });
    await writeFile(path.join(__dirname, 'results', 'chat.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench chat: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
