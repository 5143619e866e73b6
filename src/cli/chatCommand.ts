/**
 * `marker-research chat <corpusDir> [--run RUN_ID|latest] [--conversation ID] [--message "<q>" --json]`:
 * follow-up questions over a research report and over the corpus (seeds 003, 004) — an
 * interactive prompt that streams answers, or one question per call for scripts; either way the
 * conversation is kept in `.marker-research/chats/<id>.jsonl` and continues across calls.
 */
import * as readline from 'node:readline';
import { openAskContext } from '../core/ask/askContext';
import type { AskContext } from '../core/ask/types';
import { runChatTurn } from '../core/chat/chatTurn';
import { createConversation, loadConversation } from '../core/chat/conversationStore';
import { citationLabel } from '../core/chat/extractiveResponder';
import type { ChatTurn, Conversation } from '../core/chat/schema';
import { createModelClient, type ModelClient } from '../core/llm/client';
import { isCancellation } from '../core/llm/types';
import { listRuns, readRun } from '../core/research/runStore';
import { queryJson } from './askCommand';
import { openCorpusToSearch } from './commandCorpus';
import { parseCommandArgs, UsageError, type CliContext } from './io';
import { rawStream } from './terminalText';
import { promptsDir, timeoutMsOption } from './markersCommand';

export const CHAT_USAGE = `marker-research chat <corpusDir> [options]
  --run ID           the research run to talk about ("latest": the newest run with a report); without it: the corpus
  --conversation ID  continue this conversation (created with this id when it does not exist)
  --message Q        ask one question and exit (else: an interactive prompt; /sources, /new, /quit)
  --provider P --base-url URL --model NAME   a model writes the answers (streamed); default: extractive, offline
  --timeout SECONDS  deadline of one model request, of each silence while streaming (default 120)
  --json             with --message: one JSON object on stdout`;

/** The newest run that has a report. */
async function latestRunWithReport(root: string): Promise<string> {
  for (const r of await listRuns(root)) {
    const run = await readRun(root, r.run_id).catch(() => undefined);
    if (run?.report) return r.run_id;
  }
  throw new UsageError(`--run latest: no research run with a report in ${root}; run "marker-research research ${root}" first`);
}

/** A turn as `chat --json` prints it. */
export function turnJson(conversation: Conversation, t: ChatTurn): Record<string, unknown> {
  return {
    conversation: conversation.header.id,
    run: conversation.header.runId,
    turn: t.turn,
    mode: t.mode,
    engine: t.engine,
    query: queryJson(t.query),
    answer: t.answer,
    citations: t.citations.map((c) => ({ number: c.number, span: c.span })),
    loaded: t.loaded.map((l) => l.number),
    originals: t.loaded,
    usage: t.usage,
    notes: t.notes,
    cancelled: t.cancelled,
    ms: Math.round(t.ms * 10) / 10,
  };
}

function renderCitations(t: ChatTurn): string {
  return t.citations.map((c) => `  ${citationLabel(c)}`).join('\n');
}

export async function chatCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      run: { type: 'string' }, conversation: { type: 'string' }, message: { type: 'string' }, json: { type: 'boolean', default: false },
      provider: { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' }, timeout: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('chat: expected exactly one corpus folder');
  const provider = values.provider;
  if (provider !== undefined && provider !== 'openai' && provider !== 'ollama') throw new UsageError('--provider expects openai or ollama');
  if (provider && !values.model) throw new UsageError(`--provider ${provider} needs --model`);
  if (values.json && values.message === undefined) throw new UsageError('--json needs --message (the interactive prompt prints text)');
  const opened = await openCorpusToSearch(ctx, 'chat', positionals[0]!);
  if (!opened) return 1;
  const { corpus } = opened;
  const runId = values.run === 'latest' ? await latestRunWithReport(corpus.root) : values.run;
  if (runId) await readRun(corpus.root, runId).catch((e: Error) => {
    throw new UsageError(`--run: ${e.message.replace(/^research: /, '')}`);
  });
  let conversation: Conversation;
  if (values.conversation) {
    const problems: string[] = [];
    conversation = await loadConversation(corpus.root, values.conversation, problems).catch(async (e: Error) => {
      if (!/^chat: no conversation/.test(e.message)) throw e;
      return createConversation(corpus.root, { runId: runId ?? null, id: values.conversation });
    });
    for (const p of problems) ctx.err.write(`${p}\n`);
    if (runId && conversation.header.runId !== runId) throw new UsageError(`--run ${runId}: conversation ${values.conversation} is about ${conversation.header.runId ? `run ${conversation.header.runId}` : 'the corpus'}; start a new conversation for another run`);
  } else conversation = await createConversation(corpus.root, { runId: runId ?? null });
  const { index } = await opened.searchIndex();
  const askCtx = await openAskContext(corpus, index, { signal: ctx.signal });
  const model = provider
    ? createModelClient({ provider, baseUrl: values['base-url'] ?? (provider === 'openai' ? 'https://api.openai.com/v1' : 'http://127.0.0.1:11434'), model: values.model!, apiKey: process.env['MARKER_RESEARCH_API_KEY'] ?? process.env['OPENAI_API_KEY'], timeoutMs: timeoutMsOption(values.timeout) })
    : undefined;
  ctx.err.write(`conversation ${conversation.header.id} (${conversation.header.runId ? `run ${conversation.header.runId}` : 'the corpus'}, ${conversation.turns.length} earlier turns; answers: ${model ? `${model.provider} ${model.model}` : 'extractive, no model'})\n`);

  if (values.message !== undefined) {
    const streamed = !values.json;
    const turn = await runChatTurn(askCtx, conversation, values.message, { model, promptsDir: promptsDir(), signal: ctx.signal, ...(streamed ? { onDelta: (d: string) => ctx.out.write(d) } : {}) });
    for (const n of turn.notes) ctx.err.write(`note: ${n}\n`);
    if (values.json) ctx.out.write(`${JSON.stringify(turnJson(conversation, turn), null, 2)}\n`);
    else ctx.out.write(`\n\n${renderCitations(turn)}\n`);
    return 0;
  }
  return interactive(ctx, askCtx, conversation, model);
}

/** The prompt: one question per line; answers stream; Ctrl-C stops an answer (the turn is kept), or leaves at the prompt. */
async function interactive(ctx: CliContext, askCtx: AskContext, first: Conversation, model: ModelClient | undefined): Promise<number> {
  let conversation = first;
  // readline writes its own prompt and line editing (terminal control) to the terminal itself; answers go through ctx.out.
  const rl = readline.createInterface({ input: process.stdin, output: rawStream(ctx.out), terminal: !!process.stdin.isTTY });
  let answering: AbortController | undefined;
  rl.on('SIGINT', () => (answering ? answering.abort() : rl.close()));
  ctx.out.write('Ask a question (/sources, /new, /quit).\n');
  rl.setPrompt('> ');
  rl.prompt();
  // Lines typed while an answer streams wait in the iterator; the end of the input ends the loop.
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === '/quit' || line === '/exit') break;
    if (!line) {
      rl.prompt();
      continue;
    }
    if (line === '/sources') {
      ctx.out.write(conversation.citations.length ? `${conversation.citations.map((c) => `  ${citationLabel(c)}`).join('\n')}\n` : 'no citations yet\n');
      rl.prompt();
      continue;
    }
    if (line === '/new') {
      conversation = await createConversation(askCtx.corpus.root, { runId: conversation.header.runId });
      ctx.out.write(`new conversation ${conversation.header.id}\n`);
      rl.prompt();
      continue;
    }
    answering = new AbortController();
    const onOuter = (): void => answering?.abort();
    ctx.signal.addEventListener('abort', onOuter, { once: true });
    try {
      const turn = await runChatTurn(askCtx, conversation, line, { model, promptsDir: promptsDir(), signal: answering.signal, onDelta: (d) => ctx.out.write(d) });
      ctx.out.write(`${turn.cancelled ? ' [stopped]' : ''}\n\n${renderCitations(turn)}\n`);
      for (const n of turn.notes) ctx.out.write(`  note: ${n}\n`);
    } catch (e) {
      if (!isCancellation(e)) throw e;
      ctx.out.write('\n[stopped]\n');
    } finally {
      ctx.signal.removeEventListener('abort', onOuter);
      answering = undefined;
    }
    rl.prompt();
  }
  rl.close();
  return 0;
}
