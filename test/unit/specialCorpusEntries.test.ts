/**
 * FIFOs, sockets, devices and symbolic links in a corpus folder: each is reported as a problem
 * naming its path and what it is, none is opened for its content (a FIFO would block the load,
 * a device never ends, a link leads out of the corpus), and the rest of the corpus loads.
 *
 * Entries of every kind are generated (seeded) under corpus names in both layouts, beside
 * regular items; a second test swaps files the walk found for a FIFO or a link before they are
 * read, which the read itself must refuse without blocking.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { parseItemIsolated } from '../../src/core/corpus/itemParse';
import { discoverItems, loadCorpus } from '../../src/core/corpus/loader';
import type { CorpusProblem } from '../../src/core/corpus/types';
import { rng } from '../support/testing';

const KINDS = {
  fifo: /FIFO/,
  socket: /socket/,
  'link to /dev/zero': /symbolic link to a character device/,
  'link to /dev/null': /symbolic link to a character device/,
  'link loop': /symbolic link that loops/,
  'link to a file': /symbolic link to a regular file/,
  'link to a folder': /symbolic link to a folder/,
  'dangling link': /symbolic link to nothing/,
} as const;
type Kind = keyof typeof KINDS;

const PARTS = ['transcript.txt', 'transcript.json', 'transcript.vtt', 'comments.jsonl', 'comments.csv', 'meta.json'];

const work: string[] = [];
const servers: net.Server[] = [];
const fifos: string[] = [];

/** A writer that comes and goes releases a read blocked on a FIFO (so a test fails instead of hanging). */
async function releaseFifos(): Promise<void> {
  for (const f of fifos) {
    const h = await open(f, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
    await h?.close();
  }
}

after(async () => {
  await releaseFifos();
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  for (const d of work) await rm(d, { recursive: true, force: true });
});

async function makeEntry(kind: Kind, full: string, outside: string): Promise<void> {
  switch (kind) {
    case 'fifo':
      execFileSync('mkfifo', [full]);
      fifos.push(full);
      return;
    case 'socket': {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(full, resolve));
      return;
    }
    case 'link to /dev/zero':
      return symlink('/dev/zero', full);
    case 'link to /dev/null':
      return symlink('/dev/null', full);
    case 'link loop':
      return symlink(path.basename(full), full);
    case 'link to a file':
      return symlink(outside, full);
    case 'link to a folder':
      return symlink(path.dirname(outside), full);
    case 'dangling link':
      return symlink(path.join(path.dirname(outside), 'no-such-file'), full);
  }
}

const problemsAt = (problems: readonly CorpusProblem[], rel: string): CorpusProblem[] => problems.filter((p) => p.file === rel && p.code === 'not-a-file');

describe('entries of a corpus that are not regular files', () => {
  test('each is reported once with its path and what it is; every regular item loads', async () => {
    const random = rng(23);
    for (let round = 0; round < 3; round++) {
      const root = await mkdtemp(path.join(tmpdir(), 'mr-special-'));
      work.push(root);
      const outsideDir = await mkdtemp(path.join(tmpdir(), 'mr-outside-'));
      work.push(outsideDir);
      const outside = path.join(outsideDir, 'secret.transcript.txt');
      await writeFile(outside, 'a line from outside the corpus that must never be read\n');
      // Regular items, both layouts.
      const regular: string[] = [];
      for (let i = 0; i < 4; i++) {
        const id = `item${i}`;
        if (i % 2) {
          await mkdir(path.join(root, id));
          await writeFile(path.join(root, id, 'transcript.txt'), `Item ${i} says hello.\nAnd goodbye.\n`);
        } else {
          await writeFile(path.join(root, `${id}.comments.jsonl`), `{"comment_id":"c1","text":"comment of item ${i}"}\n`);
        }
        regular.push(id);
      }
      // Special entries under corpus names: every kind at least once, then random ones.
      const kinds = Object.keys(KINDS) as Kind[];
      const entries: { rel: string; kind: Kind }[] = [];
      for (let i = 0; i < kinds.length + 6; i++) {
        const kind = i < kinds.length ? kinds[i]! : kinds[Math.floor(random() * kinds.length)]!;
        const part = PARTS[Math.floor(random() * PARTS.length)]!;
        let rel: string;
        if (kind === 'link to a folder' && random() < 0.5) {
          rel = `linked${i}`; // a link that looks like an item folder
        } else if (random() < 0.5) {
          await mkdir(path.join(root, `odd${i}`));
          // Half of the folders also hold a regular part, so the item itself still loads.
          if (random() < 0.5 && part !== 'comments.jsonl') await writeFile(path.join(root, `odd${i}`, 'comments.jsonl'), `{"text":"odd ${i} still has comments"}\n`);
          rel = `odd${i}/${part}`;
        } else {
          rel = `odd${i}.${part}`;
        }
        await makeEntry(kind, path.join(root, ...rel.split('/')), outside);
        entries.push({ rel, kind });
      }
      const corpus = await loadCorpus(root);
      for (const e of entries) {
        const ps = problemsAt(corpus.problems, e.rel);
        assert.equal(ps.length, 1, `${e.rel} (${e.kind}): one problem, got ${JSON.stringify(corpus.problems)}`);
        assert.match(ps[0]!.message, KINDS[e.kind], `${e.rel}: says what it is`);
        assert.match(ps[0]!.message, /not a regular file; skipped/);
      }
      assert.equal(corpus.problems.filter((p) => p.code === 'not-a-file').length, entries.length, 'no other entry is reported');
      for (const id of regular) assert.ok(corpus.items.some((it) => it.id === id), `${id} loads`);
      const all = corpus.items.map((it) => `${it.transcript?.text ?? ''}\n${it.comments?.text ?? ''}`).join('\n');
      assert.doesNotMatch(all, /outside the corpus/, 'nothing behind a link is read');
      for (const it of corpus.items.filter((x) => x.id.startsWith('odd'))) assert.match(it.comments?.text ?? '', /still has comments/);
    }
  });

  test('a file the walk found and that is then swapped for a FIFO or a link is refused when read, without blocking', async () => {
    const random = rng(29);
    const root = await mkdtemp(path.join(tmpdir(), 'mr-swap-'));
    work.push(root);
    const swaps = ['fifo', 'link to /dev/null', 'link to a file', 'link loop'] as const;
    const expected: { rel: string; kind: Kind }[] = [];
    for (let i = 0; i < 8; i++) {
      const kind = swaps[i % swaps.length]!;
      const part = PARTS[Math.floor(random() * (PARTS.length - 1))]!; // not meta alone: the item must have a part
      await mkdir(path.join(root, `s${i}`));
      await writeFile(path.join(root, `s${i}`, 'comments.csv'), 'comment_id,text\nc1,"the regular part of s' + i + '"\n');
      if (part !== 'comments.csv') {
        await writeFile(path.join(root, `s${i}`, part), part.endsWith('json') ? '{"turns":[{"text":"hi"}]}' : part.endsWith('jsonl') ? '{"text":"hi"}\n' : 'hi\n');
        expected.push({ rel: `s${i}/${part}`, kind });
      }
    }
    const problems: CorpusProblem[] = [];
    const found = await discoverItems(root, problems);
    assert.deepEqual(problems, [], 'the walk saw regular files only');
    for (const e of expected) {
      const full = path.join(root, ...e.rel.split('/'));
      await unlink(full);
      await makeEntry(e.kind, full, path.join(root, 's0', 'comments.csv'));
    }
    const reads = Promise.all(found.map((f) => parseItemIsolated(f, problems)));
    // A safety net, not a time limit: a read blocked on a FIFO is released after 120 s and the test fails.
    let timer: NodeJS.Timeout | undefined;
    const blocked = new Promise<'blocked'>((resolve) => (timer = setTimeout(() => resolve('blocked'), 120_000)));
    const first = await Promise.race([reads, blocked]);
    clearTimeout(timer);
    if (first === 'blocked') {
      await releaseFifos();
      await reads;
      assert.fail('a read blocked on a FIFO');
    }
    const loaded = await reads;
    for (const e of expected) {
      const ps = problemsAt(problems, e.rel);
      assert.equal(ps.length, 1, `${e.rel} (${e.kind}): refused at read, got ${JSON.stringify(problems)}`);
      assert.match(ps[0]!.message, e.kind === 'fifo' ? /FIFO/ : /symbolic link/);
    }
    assert.equal(loaded.filter((l) => l.item).length, found.length, 'every item still loads from its regular part');
    for (const l of loaded) assert.match(l.item?.comments?.text ?? '', /the regular part of s\d/);
  });
});
