/**
 * The worker thread of {@link ItemPrepPool} (itemPrepPool.ts; bundled on its
 * own as `dist/itemPrepWorker.js`): reads and parses the items it is sent,
 * as the loader does (parseItemIsolated), and prepares each for the index
 * (prepareItem, with this thread's token numbering), then sends back the item
 * without its parts, its problems, the prepared arrays (moved, not copied) and
 * the token names numbered since its last reply.
 */
import { parentPort } from 'node:worker_threads';
import { parseItemIsolated } from '../corpus/itemParse';
import { factsOf, type CorpusProblem } from '../corpus/types';
import { prepareItem } from './itemPrep';
import type { PrepReply, PrepRequest } from './itemPrepProtocol';
import { TokenNumbering } from './tokenize';

const numbering = new TokenNumbering();
let namesSent = 0;

/** The names numbered since the last reply (replies leave in the order their names were numbered). */
function newNames(): string[] {
  const names = numbering.names.slice(namesSent);
  namesSent = numbering.names.length;
  return names;
}

async function handle(m: PrepRequest): Promise<void> {
  const problems: CorpusProblem[] = [];
  let reply: PrepReply;
  try {
    const loaded = await parseItemIsolated(m.found, problems);
    const item = loaded.item;
    if (!item) reply = { seq: m.seq, ok: true, skipped: loaded.skipped, filesRead: loaded.filesRead, problems, names: newNames() };
    else {
      const prepared = prepareItem(item, m.chunk, numbering);
      const { transcript, comments, facts, ...rest } = item;
      const shell = { ...rest, facts: facts ?? factsOf(transcript, comments) };
      reply = { seq: m.seq, ok: true, skipped: loaded.skipped, filesRead: loaded.filesRead, problems, shell, prepared, names: newNames() };
    }
  } catch (e) {
    reply = { seq: m.seq, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e), names: newNames() };
  }
  const p = reply.ok ? reply.prepared : undefined;
  parentPort!.postMessage(reply, p ? [p.textBytes.buffer as ArrayBuffer, p.textEnds.buffer as ArrayBuffer, p.tokens.buffer as ArrayBuffer, p.tokenEnds.buffer as ArrayBuffer] : []);
}

parentPort?.on('message', (m: PrepRequest) => void handle(m));
