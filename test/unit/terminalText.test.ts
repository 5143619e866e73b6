/**
 * Issue 19, class 5: terminal escapes in corpus text never reach the terminal. A corpus is
 * generated whose transcript text, speakers, titles, folder names (its own path included) and
 * comment authors carry every ESC / CSI / OSC / DCS / APC / PM / SOS form, 7-bit and 8-bit, with
 * BEL and ST terminators, OSC 8 hyperlinks, OSC 52 clipboard writes, lone C0 / C1 controls and
 * bidi overrides; every CLI command is run on it (offline engines, no model), and no control
 * character may appear in stdout or stderr. `--json` output must still parse to the text the
 * corpus holds.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { escapeTerminalText, TerminalSafeStream, writeStatus } from '../../src/cli/terminalText';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { rng, runCli } from '../support/testing';

const ESC = '\x1b';
/** Every way to start a control sequence or string: 7-bit (ESC + letter) and 8-bit (one C1 character). */
const INTRODUCERS = [`${ESC}[`, `${ESC}]`, `${ESC}P`, `${ESC}_`, `${ESC}^`, `${ESC}X`, '\x9b', '\x9d', '\x90', '\x9f', '\x9e', '\x98', `${ESC}c`, `${ESC}7`, `${ESC}(0`, ESC];
const BODIES = ['2J', 'H', '?1049h', '0;pwned-title', '2;window', '8;;https://evil.example/x', '52;c;ZWNobyBwd25lZA==', '31m', '1337;File=inline=1:AAAA', '+q544e', '?25l'];
/** BEL, ST (7-bit ESC \ and 8-bit U+009C), or none. */
const TERMINATORS = ['\x07', `${ESC}\\`, '\x9c', ''];
/** Lone controls: CR (overwrites the line), BS, NUL, VT, FF, SUB, DEL, C1 NEL / RI, and every bidi embedding, override and isolate. */
const LOOSE = ['\r', '\b', '\x00', '\x0b', '\x0c', '\x1a', '\x7f', '\x85', '\x8d', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const WORDS = ['zebrafish', 'harbor', 'lanes', 'winter', 'battery', 'bakery', 'traffic', 'range', 'commute', 'market'];

/** What a terminal would act on: must never be in what the CLI prints (TAB and LF are fine). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function assertTerminalSafe(label: string, text: string): void {
  const m = FORBIDDEN.exec(text);
  if (!m) return;
  const at = m.index;
  assert.fail(`${label}: U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} reaches the terminal at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`);
}

const osc8 = (url: string, label: string): string => `${ESC}]8;;${url}${ESC}\\${label}${ESC}]8;;${ESC}\\`;

/** Every introducer × terminator pair once (with a body), then random extras: a list of hostile fragments. */
function allSequences(rnd: () => number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: string[] = [];
  for (const intro of INTRODUCERS) for (const term of TERMINATORS) out.push(`${intro}${pick(BODIES)}${term}`);
  for (const c of LOOSE) out.push(c);
  out.push(osc8('https://evil.example/steal', 'harmless link'), `${ESC}]52;c;cm0gLXJmIH4=\x07`, '\x9d52;c;cm0gLXJmIH4=\x9c', `\u202eexe.txt\u202c`);
  return out;
}

/** A line of words with hostile fragments between them; always holds the word "zebrafish". */
function hostileLine(rnd: () => number, fragments: string[], n: number): string {
  const parts: string[] = ['zebrafish'];
  for (let i = 0; i < n; i++) {
    parts.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
    if (fragments.length) parts.push(fragments.shift()!);
  }
  return parts.join(' ');
}

/** A name usable as a folder name: no "/" or NUL. */
const asName = (s: string): string => s.replaceAll('/', '').replaceAll('\x00', '');

/** Writes a corpus under `root` (whose own name is hostile) with every fragment placed somewhere. */
async function writeHostileCorpus(parent: string, seed: number): Promise<string> {
  const rnd = rng(seed);
  const fragments = allSequences(rnd);
  const pool = [...fragments];
  const root = path.join(parent, asName(`corpus ${ESC}]0;title${'\x07'} \x9b2J ${'\u202e'}x`));
  await mkdir(root, { recursive: true });
  const items = 4;
  for (let i = 0; i < items; i++) {
    const frag = (): string => (pool.length ? pool.shift()! : fragments[Math.floor(rnd() * fragments.length)]!);
    const id = asName(`item${i} ${frag()}`);
    const dir = path.join(root, id);
    await mkdir(dir);
    await writeFile(path.join(dir, 'meta.json'), JSON.stringify({ title: `Title ${i} ${frag()} ${frag()}`, duration: 600 }));
    const turns = Array.from({ length: 8 }, (_, t) => ({ speaker: `Speaker ${t % 3} ${frag()}`, text: hostileLine(rnd, pool, 3), start: t * 20, end: t * 20 + 19 }));
    await writeFile(path.join(dir, 'transcript.json'), JSON.stringify({ title: `T ${i}`, turns }));
    const comments = Array.from({ length: 6 }, (_, c) => JSON.stringify({ comment_id: `c${c}`, author: `author${c} ${frag()}`, text: hostileLine(rnd, pool, 2), likes: c * 3 }));
    await writeFile(path.join(dir, 'comments.jsonl'), `${comments.join('\n')}\n`);
  }
  // What is left of the pool goes into one more item, so every fragment is in the corpus.
  const last = path.join(root, asName(`rest ${'\x9d'}8;;http://x${'\x9c'}`));
  await mkdir(last);
  await writeFile(path.join(last, 'transcript.txt'), `${hostileLine(rnd, pool, pool.length + 1)}\n`);
  return root;
}

describe('escapeTerminalText', () => {
  // Code units a generated string is made of: controls of every kind, bidi, ASCII, CJK, a surrogate pair.
  const PALETTE = [...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)), ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)), ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f', ...'abc xyz-=[];', '电', '😀', 'é'];

  function randomString(rnd: () => number, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += PALETTE[Math.floor(rnd() * PALETTE.length)]!;
    return s;
  }

  test('no control character survives; newline and tab do; the escapes read back to the input; escaping twice changes nothing', () => {
    const rnd = rng(19_5);
    for (let i = 0; i < 500; i++) {
      const s = randomString(rnd, 1 + Math.floor(rnd() * 60));
      const e = escapeTerminalText(s);
      assertTerminalSafe(`string ${i}`, e);
      assert.equal(e.split('\n').length, s.split('\n').length, 'newlines kept');
      assert.equal(e.split('\t').length, s.split('\t').length, 'tabs kept');
      assert.equal(escapeTerminalText(e), e, 'idempotent');
      assert.equal(e.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), s, 'the escapes are the characters');
    }
  });

  test('JSON output stays JSON with the same value', () => {
    const rnd = rng(19_52);
    for (let i = 0; i < 200; i++) {
      const value = { text: randomString(rnd, 40), list: [randomString(rnd, 5), randomString(rnd, 9)], n: i, nested: { [randomString(rnd, 4)]: randomString(rnd, 12) } };
      const out = escapeTerminalText(JSON.stringify(value, null, 2));
      assertTerminalSafe(`json ${i}`, out);
      assert.deepEqual(JSON.parse(out), value);
    }
  });

  test('TerminalSafeStream: writes in order, control sequences of its own as is, a C1 character split across byte chunks still escaped', () => {
    const target = new PassThrough();
    let got = '';
    target.on('data', (d: Buffer) => (got += d.toString()));
    const s = new TerminalSafeStream(target);
    s.write(`a${ESC}[2J`);
    s.writeControl('\r');
    s.write('b');
    const c1 = Buffer.from('x\u009b2Jy', 'utf8');
    s.write(c1.subarray(0, 2));
    s.write(c1.subarray(2));
    assert.equal(got, 'a\\u001b[2J\rbx\\u009b2Jy');
  });

  test('writeStatus: nothing on a pipe; on a terminal, its own line clearing and the text escaped', () => {
    const pipe = new PassThrough();
    let piped = '';
    pipe.on('data', (d: Buffer) => (piped += d.toString()));
    writeStatus(new TerminalSafeStream(pipe), `1/2 ${ESC}]0;x\x07`);
    assert.equal(piped, '');
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    let shown = '';
    tty.on('data', (d: Buffer) => (shown += d.toString()));
    writeStatus(new TerminalSafeStream(tty), `1/2 ${ESC}]0;x\x07`);
    assert.equal(shown, '\r\x1b[K1/2 \\u001b]0;x\\u0007');
  });
});

describe('every CLI command on a corpus full of terminal escapes', () => {
  let parent: string;
  let root: string;
  let corpus: Corpus;
  before(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'mr-term-'));
    root = await writeHostileCorpus(parent, 1905);
    corpus = await loadCorpus(root);
  });
  after(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  test('the generated corpus holds the hostile text (titles, ids, speakers, authors, text)', () => {
    assert.ok(corpus.items.length >= 5);
    assert.ok(corpus.items.some((i) => FORBIDDEN.test(i.id)), 'ids');
    assert.ok(corpus.items.some((i) => FORBIDDEN.test(i.title)), 'titles');
    assert.ok(corpus.items.some((i) => i.transcript?.segments.some((s) => FORBIDDEN.test(s.speaker ?? ''))), 'speakers');
    assert.ok(corpus.items.some((i) => i.comments?.comments.some((c) => FORBIDDEN.test(c.author ?? ''))), 'authors');
    for (const seq of ['\x9b', '\x9d', '\x90', '\x9f', `${ESC}]`, `${ESC}P`, `${ESC}_`, '\u202e', '\x07']) {
      assert.ok(corpus.items.some((i) => i.transcript?.text.includes(seq) || i.comments?.text.includes(seq) || i.title.includes(seq) || i.id.includes(seq)), JSON.stringify(seq));
    }
  });

  test('no control character in stdout or stderr of any command, text or --json', async () => {
    const hostileId = corpus.items[0]!.id;
    // [arguments, exit code]: the offline engines do the work; the failures are on purpose.
    const ok = (...args: string[]): [string[], number] => [args, 0];
    const runs: [string[], number][] = [
      ok('index', root), ok('index', root, '--json'),
      ok('markers', root), ok('markers', root, '--json'),
      ok('search', root, 'zebrafish harbor'), ok('search', root, 'zebrafish', '--json'), ok('search', root, 'zebrafish', '--part', 'comments'), ok('search', root, 'zebrafish', '--budget-words', '200'),
      ok('ask', root, 'what is said about zebrafish', '--explain'), ok('ask', root, 'what do commenters say about zebrafish', '--json'), ok('ask', root, 'what did Speaker 1 say about the harbor?'),
      ok('chat', root, '--message', 'what is said about zebrafish'), ok('chat', root, '--message', 'zebrafish lanes', '--json'),
      ok('research', root), ok('research', root, '--json', '--complexity', 'light'),
      ok('export', root, '--markers', path.join(parent, `m ${ESC}]0;x\x07.csv`)), ok('export', root, '--report', 'latest', path.join(parent, 'r.md')),
      ok('eval', 'retrieval', root),
      ok('search', root, 'x', '--item', hostileId), ok('ask', root, 'x', '--item', hostileId),
      // Failures print what they were given: run ids, unknown commands, options and folders.
      [['research', root, '--resume', `run${ESC}[2J`], 2], [['chat', root, '--run', `r${'\x9b'}2J`], 2], [['research', root, '--resume', 'no-such-run'], 2],
      [[`frob${ESC}]0;x\x07`], 2], [['search', root, 'x', `--k${ESC}[2J`, '3'], 2], [['index', path.join(root, `missing${'\x9d'}0;x\x07`)], 1],
    ];
    for (const [args, code] of runs) {
      const r = await runCli(args);
      const label = args.map((a) => JSON.stringify(a)).join(' ');
      assert.equal(r.code, code, `${label}: exit ${r.code}: ${r.err}`);
      assertTerminalSafe(`${label} stdout`, r.out);
      assertTerminalSafe(`${label} stderr`, r.err);
      assert.ok(r.out.length + r.err.length > 0, `${label} printed something`);
    }
  });

  test('--json parses to the text the corpus holds', async () => {
    const index = JSON.parse((await runCli(['index', root, '--json'])).out) as { root: string; items: { id: string; title: string }[] };
    assert.equal(index.root, corpus.root);
    assert.deepEqual(index.items.map((i) => [i.id, i.title]), corpus.items.map((i) => [i.id, i.title]));
    const texts = corpus.items.flatMap((i) => [i.transcript?.text ?? '', i.comments?.text ?? '']);
    const hits = JSON.parse((await runCli(['search', root, 'zebrafish', '--k', '30', '--json'])).out) as { itemId: string; title: string; text: string }[];
    assert.ok(hits.length > 5);
    assert.ok(hits.some((h) => FORBIDDEN.test(h.text)), 'hits carry the control characters as values');
    for (const h of hits) {
      assert.ok(texts.some((t) => t.includes(h.text)), `hit text is the corpus's own: ${JSON.stringify(h.text.slice(0, 60))}`);
      assert.equal(h.title, corpus.items.find((i) => i.id === h.itemId)?.title);
    }
    const ask = JSON.parse((await runCli(['ask', root, 'what do commenters say about zebrafish', '--json'])).out) as { hits: { text: string }[] };
    assert.ok(ask.hits.length > 0);
    for (const h of ask.hits) assert.ok(texts.some((t) => t.includes(h.text)));
  });
});
