/**
 * The chat benchmark (`node --import tsx bench/chat.ts`, part of `npm run bench`): the token cost
 * of follow-up questions answered from the report alone (seed 003) against the full research
 * context — every step's results with the text of every span they cite — on the same questions,
 * on a copy of the QMSum dev corpus (`$MARKER_RESEARCH_CORPORA`, default ../shared/corpora; a
 * missing corpus is a failure naming its path) after an offline research run.
 *
 * The answers go to the fake model server (streamed, real openai client; the question is
 * understood by the offline rules, as without a model), and the cost is counted on the answer
 * request the server received, with the bench's yardstick (the fake server's estimate) — not the
 * context size the chat code reports. The baseline is the same request with the full research
 * context in place of the material that was sent. Questions beyond the report (answered from
 * retrieved passages) are counted too, and shown apart. Figures only: no targets.
 * Writes bench/results/chat.md.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { openAskContext } from '../src/core/ask/askContext';
import { runChatTurn } from '../src/core/chat/chatTurn';
import { createConversation } from '../src/core/chat/conversationStore';
import { loadCorpus } from '../src/core/corpus/loader';
import { createModelClient, type ModelClient } from '../src/core/llm/client';
import { listRuns, readRun } from '../src/core/research/runStore';
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { main as cli } from '../src/cli/main';
import { startFakeModelServer } from '../test/support/fakeModelServer';
import { BenchError, copyDevCorpus, REPO, runBench, yardstickTokens, type BenchReport } from './benchSupport';

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

/** The material of an answer request: the user message without its first paragraph (the mode line) and its last line (the question). */
function materialOf(user: string): string | undefined {
  const start = user.indexOf('\n\n');
  const end = Math.max(user.lastIndexOf('\n\nQuestion: '), user.lastIndexOf('\n\n问题：'));
  return start >= 0 && end > start ? user.slice(start + 2, end) : undefined;
}

async function bench(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-chat-'));
  const server = await startFakeModelServer();
  try {
    const dir = await copyDevCorpus('qmsum-dev', work);
    const sink = new PassThrough().resume();
    const code = await cli(['research', dir, '--json'], sink, sink);
    if (code !== 0) throw new BenchError(`research on ${dir} exited ${code}`);
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
    const full = yardstickTokens(parts.join('\n'));
    // The answer goes to the fake server; understanding stays with the offline rules (a structured call is refused).
    const real = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 1, timeoutMs: 30_000 });
    const model: ModelClient = {
      provider: real.provider, model: real.model, contextTokens: real.contextTokens, semaphore: real.semaphore, ledger: real.ledger,
      complete: () => Promise.reject(new Error('bench: understanding by the offline rules')),
      streamText: (req, onDelta) => real.streamText(req, onDelta),
    };
    const conv = await createConversation(dir, { runId });
    const rows: string[] = [];
    let reportSum = 0;
    let reportN = 0;
    let allSum = 0;
    for (const q of QUESTIONS) {
      const seen = server.chatRequests().length;
      const t = await runChatTurn(ctx, conv, q, { promptsDir: PROMPTS, model });
      const answers = server.chatRequests().slice(seen);
      if (answers.length !== 1 || t.engine !== 'model') throw new BenchError(`"${q}": expected one answer request to the fake server, saw ${answers.length} (engine ${t.engine}; ${t.notes.join('; ')})`);
      const messages = answers[0]!.messages ?? [];
      const sent = yardstickTokens(messages.map((m) => m.content).join(''));
      const material = materialOf([...messages].reverse().find((m) => m.role === 'user')?.content ?? '');
      if (material === undefined) throw new BenchError(`"${q}": the answer request has no material between the mode line and the question (prompt changed?)`);
      const materialTokens = yardstickTokens(material);
      const baseline = sent - materialTokens + full;
      const saving = 1 - sent / baseline;
      rows.push(`| ${q} | ${t.mode} | ${sent} | ${materialTokens} (chat code says ${t.usage.contextTokens}) | ${baseline} | ${(saving * 100).toFixed(1)} % |`);
      allSum += saving;
      if (t.mode !== 'corpus') {
        reportSum += saving;
        reportN++;
      }
    }
    const lines = [
      `# Chat benchmark — follow-up requests vs the same requests with the full research context (qmsum-dev, offline research run ${runId}, ${run.steps.size} steps)`,
      '',
      `Counted on the answer requests the fake model server received (bench yardstick). Full research context: ${full} tokens.`,
      '',
      '| question | answered from | request tokens (sent) | material tokens (sent) | request with the full research context | saving |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Mean saving on questions answered from the report or its citations: **${((reportSum / Math.max(1, reportN)) * 100).toFixed(1)} %** (${reportN} questions); over all ${QUESTIONS.length}: ${((allSum / QUESTIONS.length) * 100).toFixed(1)} %.`,
      '',
    ];
    report.note('figures only, no targets');
    await mkdir(path.join(__dirname, 'results'), { recursive: true });
    await writeFile(path.join(__dirname, 'results', 'chat.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

void runBench('chat', (report) => bench(report));
