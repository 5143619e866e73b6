/**
 * Issue 19, class 9 (and class 7's disk-full case): what a new user meets first. Every failure is
 * one line that says what is wrong and what to do, with a documented exit code and no stack
 * trace; a research run on nothing to research, or one that dies of a full disk, ends `failed`
 * with the reason in run.json — never `running`, and no run folder is left without a status.
 * Inputs are generated: corpora of nothing, of binary and empty files, bogus run ids, bad
 * numbers for every numeric option, unwritable export paths, disks with little room left.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statfsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { RESEARCH_USAGE } from '../../src/cli/researchCommand';
import { main } from '../../src/cli/main';
import { rng, runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const STACK = /^\s+at /m;

type CliRun = { code: number; out: string; err: string };

/** Exit `code`, exactly one `marker-research …` line on stderr matching `pattern`, no stack trace. */
function assertOneLine(r: CliRun, label: string, code: number, pattern: RegExp): string {
  assert.equal(r.code, code, `${label}: exit ${r.code}, expected ${code}: ${r.err}`);
  assert.doesNotMatch(r.err, STACK, `${label}: a stack trace: ${r.err}`);
  const lines = r.err.split('\n').filter((l) => l.startsWith('marker-research'));
  assert.equal(lines.length, 1, `${label}: one marker-research line, got ${JSON.stringify(lines)}`);
  assert.match(lines[0]!, pattern, label);
  return lines[0]!;
}

/** Every run folder of the corpus, with the status and error of its run.json (undefined: none). */
async function runStates(root: string): Promise<{ id: string; status?: string; error?: string }[]> {
  const dir = path.join(root, '.marker-research', 'runs');
  if (!existsSync(dir)) return [];
  const out: { id: string; status?: string; error?: string }[] = [];
  for (const id of await readdir(dir)) {
    const file = path.join(dir, id, 'run.json');
    if (!existsSync(file)) {
      out.push({ id });
      continue;
    }
    const m = JSON.parse(await readFile(file, 'utf8')) as { status: string; error?: string };
    out.push({ id, status: m.status, ...(m.error ? { error: m.error } : {}) });
  }
  return out;
}

/** No run is left `running` and every run folder has a run.json. */
async function assertNoHalfRuns(root: string, label: string): Promise<void> {
  for (const r of await runStates(root)) {
    assert.ok(r.status !== undefined, `${label}: run folder ${r.id} has no run.json`);
    assert.notEqual(r.status, 'running', `${label}: run ${r.id} left running`);
  }
}

function randomBytes(rnd: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rnd() * 256);
  return b;
}

const TRANSCRIPT_NAMES = ['transcript.txt', 'transcript.srt', 'transcript.vtt', 'transcript.json', 'transcript.md'];
const COMMENT_NAMES = ['comments.jsonl', 'comments.csv', 'comments.json'];

/** A corpus with nothing to research, of kind `kind`: no files, other files only, binary items, empty items, or a mix. */
async function nothingCorpus(root: string, kind: number, rnd: () => number): Promise<string> {
  await mkdir(root, { recursive: true });
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const items = 1 + Math.floor(rnd() * 3);
  if (kind === 1) {
    for (let i = 0; i < items; i++) {
      await mkdir(path.join(root, `folder${i}`), { recursive: true });
      await writeFile(path.join(root, `folder${i}`, pick(['photo.png', 'notes.pdf', 'data.bin', 'video.mp4'])), randomBytes(rnd, 500 + Math.floor(rnd() * 3000)));
    }
    await writeFile(path.join(root, 'readme.pdf'), randomBytes(rnd, 800));
  }
  for (let i = 0; kind >= 2 && i < items; i++) {
    const dir = path.join(root, `item${i}`);
    await mkdir(dir);
    const binary = kind === 2 || (kind === 4 && rnd() < 0.5);
    // Empty: nothing, blank lines, or (in a JSON file) an empty list of turns or comments.
    const content = (name: string): Buffer | string => (binary ? randomBytes(rnd, 1000 + Math.floor(rnd() * 4000)) : pick(['', '\n', '   \n\n', ...(name.endsWith('.json') ? ['[]', '{"turns": []}'] : [])]));
    const transcript = pick(TRANSCRIPT_NAMES);
    await writeFile(path.join(dir, transcript), content(transcript));
    const comments = pick(COMMENT_NAMES);
    if (rnd() < 0.7) await writeFile(path.join(dir, comments), content(comments));
  }
  return root;
}

describe('first contact: research on nothing to research', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-first-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('an empty folder, other files only, binary or empty items: exit 1, one line, the run failed with the reason', async () => {
    const rnd = rng(19_9);
    for (let v = 0; v < 10; v++) {
      const kind = v % 5;
      const root = await nothingCorpus(path.join(work, `nothing-${v}`), kind, rnd);
      const label = `variant ${v} (kind ${kind})`;
      const r = await runCli(['research', root, ...(v % 2 ? ['--json'] : [])]);
      assertOneLine(r, label, 1, /^marker-research research: nothing to research in .*: (no transcript or comments files were found|none of its \d+ items has readable text)/);
      const runs = await runStates(root);
      assert.equal(runs.length, 1, `${label}: one run folder`);
      assert.equal(runs[0]!.status, 'failed', label);
      assert.match(runs[0]!.error ?? '', /^nothing to research/, `${label}: the reason is in run.json`);
      await assertNoHalfRuns(root, label);
    }
  });
});

describe('first contact: bad arguments', () => {
  let work: string;
  let corpus: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-first-args-'));
    corpus = path.join(work, 'demo');
    await cp(DEMO, corpus, { recursive: true, filter: (p) => !p.includes('.marker-research') });
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('--resume of a run that does not exist, or is no run id: exit 2, one line naming --resume and the runs there; no run folder made', async () => {
    const first = await runCli(['research', corpus, '--complexity', 'light']);
    assert.equal(first.code, 0, first.err);
    const before = (await runStates(corpus)).map((r) => r.id).sort();
    const rnd = rng(19_91);
    const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
    const ids = [
      'no-such-run', `20240101-120000-${hex(4)}`, hex(12), `${hex(3)}_${hex(3)}`,
      '../x', '..', 'a/b', 'a b', `${hex(4)}\u00e9`, 'x'.repeat(200), '-leading-dash', '.hidden',
    ];
    for (const id of ids) {
      const r = await runCli(['research', corpus, `--resume=${id}`]);
      const line = assertOneLine(r, `--resume ${id}`, 2, /^marker-research research: --resume/);
      if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,80}$/.test(id)) assert.match(line, new RegExp(`no run .* the runs there, newest first: ${before[0]}`), line);
      else assert.match(line, /invalid run id/, line);
    }
    assert.deepEqual((await runStates(corpus)).map((r) => r.id).sort(), before, 'no run folder was made');
  });

  test('a bad number for any numeric option: exit 2 and "--<flag> must be …", checked before the corpus is read', async () => {
    const nowhere = path.join(work, 'no-such-corpus');
    const positive = ['-1', '-0.5', '0', '1.5', 'abc', '', '1e400', '-Infinity', 'NaN', '2x'];
    const nonNegative = ['-1', '-0.001', '-7', 'abc', '', '-Infinity', 'NaN'];
    const wholeNonNegative = [...nonNegative, '1.5'];
    const cases: { cmd: string[]; flag: string; values: string[] }[] = [
      { cmd: ['ask', nowhere, 'q'], flag: 'k', values: positive },
      { cmd: ['ask', nowhere, 'q'], flag: 'budget-words', values: positive },
      { cmd: ['search', nowhere, 'q'], flag: 'k', values: positive },
      { cmd: ['search', nowhere, 'q'], flag: 'budget-words', values: positive },
      { cmd: ['search', nowhere, 'q'], flag: 'expand', values: wholeNonNegative },
      { cmd: ['search', nowhere, 'q'], flag: 'min-likes', values: wholeNonNegative },
      { cmd: ['search', nowhere, 'q'], flag: 'from', values: nonNegative },
      { cmd: ['search', nowhere, 'q'], flag: 'to', values: nonNegative },
      { cmd: ['markers', nowhere], flag: 'context-tokens', values: positive },
      { cmd: ['markers', nowhere], flag: 'window-words', values: positive },
      { cmd: ['markers', nowhere], flag: 'overlap-words', values: wholeNonNegative },
      { cmd: ['markers', nowhere], flag: 'window-limit', values: wholeNonNegative },
      { cmd: ['markers', nowhere], flag: 'concurrency', values: positive },
      { cmd: ['condense', nowhere, '--model', 'm'], flag: 'concurrency', values: positive },
      { cmd: ['condense', nowhere, '--model', 'm'], flag: 'parallelism', values: positive },
      { cmd: ['condense', nowhere, '--model', 'm'], flag: 'window-words', values: positive },
      { cmd: ['eval', 'retrieval', nowhere], flag: 'budget-words', values: positive },
      { cmd: ['research', nowhere], flag: 'max-followups', values: ['-1', '21', '1.5', 'x'] },
      { cmd: ['research', nowhere], flag: 'overview-max-items', values: ['-3', '0', 'x'] },
    ];
    let n = 0;
    for (const { cmd, flag, values } of cases) {
      for (const value of values) {
        // Both spellings: "--k -1" (which parseArgs alone calls ambiguous) and "--k=-1".
        for (const args of [[...cmd, `--${flag}`, value], [...cmd, `--${flag}=${value}`]]) {
          const r = await runCli(args);
          const line = assertOneLine(r, args.join(' '), 2, new RegExp(`^marker-research ${cmd[0]}: --${flag} must be `));
          assert.ok(line.includes(`"${value}"`), `the value is named: ${line}`);
          assert.doesNotMatch(r.err, /ambiguous|does not exist/, line);
          n++;
        }
      }
    }
    assert.ok(n > 250, `${n} bad values tried`);
  });

  test('a missing value, an unknown option or command: exit 2, one line', async () => {
    const probes: [string[], RegExp][] = [
      [['ask', corpus, 'q', '--k'], /--k needs a value/],
      [['ask', corpus, 'q', '--k', '--json'], /--k needs a value/],
      [['search', corpus, 'q', '--frobnicate'], /unknown option --frobnicate/],
      [['index', corpus, '--json=yes'], /--json takes no value/],
      [['frobnicate'], /unknown command "frobnicate"; the commands are index, search/],
      [['research'], /expected exactly one corpus folder/],
      [['ask', corpus, 'q', '--run', 'no-such-run'], /--run no-such-run: no run "no-such-run" in /],
      [['chat', corpus, '--run', 'no-such-run', '--message', 'q'], /--run: no run "no-such-run" in /],
    ];
    for (const [args, pattern] of probes) assertOneLine(await runCli(args), args.join(' '), 2, pattern);
  });

  test('--help lists the exit codes every command uses; a cancelled research exits 130, as the help says', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    for (const code of ['0', '1', '2', '3', '130']) assert.match(help.out, new RegExp(`^\\s+${code}\\s+\\S`, 'm'), `exit code ${code} listed`);
    assert.match(help.out, /130\s+cancelled/);
    assert.match(RESEARCH_USAGE, /130 when cancelled/);
    assert.doesNotMatch(RESEARCH_USAGE, /1 when it is[^;]*cancelled/, 'a cancelled run does not exit 1');
    // Ctrl-C as soon as research has generated the markers (its first line on stderr).
    const fresh = path.join(work, 'cancel');
    await cp(DEMO, fresh, { recursive: true, filter: (p) => !p.includes('.marker-research') });
    const out = new PassThrough();
    const err = new PassThrough();
    let e = '';
    out.resume();
    err.on('data', (d: Buffer) => {
      e += d.toString();
      if (/markers: \d+ generated/.test(e)) process.emit('SIGINT');
    });
    const code = await main(['research', fresh], out, err);
    assert.equal(code, 130, e);
    assert.match(e, /^marker-research research: cancelled$/m);
    assert.doesNotMatch(e, STACK);
    await assertNoHalfRuns(fresh, 'cancelled');
  });
});

describe('first contact: ask says why there are no hits', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-first-ask-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const VOCAB = ['harbor', 'lanes', 'battery', 'winter', 'bakery', 'traffic', 'commute', 'market', 'coffee', 'prices', 'rider', 'street'];

  /** Items with a timed transcript only, or comments only, of random words. */
  async function onePartCorpus(root: string, part: 'transcript' | 'comments', rnd: () => number): Promise<{ lastEnd: number }> {
    let lastEnd = 0;
    const items = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < items; i++) {
      const dir = path.join(root, `item${i}`);
      await mkdir(dir, { recursive: true });
      const sentence = (): string => Array.from({ length: 8 }, () => VOCAB[Math.floor(rnd() * VOCAB.length)]).join(' ');
      if (part === 'transcript') {
        const n = 5 + Math.floor(rnd() * 20);
        const turns = Array.from({ length: n }, (_, t) => ({ speaker: `S${t % 2}`, text: sentence(), start: t * 30, end: t * 30 + 29 }));
        lastEnd = Math.max(lastEnd, turns[n - 1]!.end);
        await writeFile(path.join(dir, 'transcript.json'), JSON.stringify({ turns }));
      } else {
        const lines = Array.from({ length: 3 + Math.floor(rnd() * 10) }, (_, c) => JSON.stringify({ comment_id: `c${c}`, author: `user${c}`, text: sentence(), likes: c }));
        await writeFile(path.join(dir, 'comments.jsonl'), `${lines.join('\n')}\n`);
      }
    }
    return { lastEnd };
  }

  test('no comments, no transcripts, a time past the end, words nobody says: each "no hits" says why (text and --json)', async () => {
    const rnd = rng(19_93);
    for (let v = 0; v < 4; v++) {
      const tOnly = path.join(work, `transcripts-${v}`);
      const { lastEnd } = await onePartCorpus(tOnly, 'transcript', rnd);
      const cOnly = path.join(work, `comments-${v}`);
      await onePartCorpus(cOnly, 'comments', rnd);
      const topic = VOCAB[Math.floor(rnd() * VOCAB.length)]!;
      const lateMin = Math.ceil(lastEnd / 60) + 5 + Math.floor(rnd() * 30);
      const probes: [string, string, RegExp][] = [
        [tOnly, `what do commenters say about the ${topic}?`, /no hits: the question is about comments, and this corpus has no comments/],
        [cOnly, `what does the speaker say about the ${topic}?`, /no hits: the question is about what is said, and this corpus has no transcript/],
        [tOnly, `what was said after minute ${lateMin}?`, /no hits: the question is limited to the time from [\d:]+ on, and no transcript in this corpus has speech then \(the latest ends at [\d:]+\)/],
        [tOnly, `zyxqv${v} plorbt`, /no hits: nothing in this corpus matches the words "zyxqv\d+", "plorbt"/],
      ];
      for (const [dir, question, pattern] of probes) {
        const r = await runCli(['ask', dir, question]);
        assert.equal(r.code, 0, r.err);
        assert.match(r.out, pattern, `${question}: ${r.out}`);
        const j = JSON.parse((await runCli(['ask', dir, question, '--json'])).out) as { hits: unknown[]; whyNoHits?: string };
        assert.equal(j.hits.length, 0);
        assert.match(`no hits: ${j.whyNoHits ?? ''}`, pattern);
      }
    }
  });
});

describe('first contact: files that cannot be written', () => {
  let work: string;
  let corpus: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-first-write-'));
    corpus = path.join(work, 'demo');
    await cp(DEMO, corpus, { recursive: true, filter: (p) => !p.includes('.marker-research') });
    assert.equal((await runCli(['markers', corpus])).code, 0);
    assert.equal((await runCli(['research', corpus, '--complexity', 'light'])).code, 0);
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('an export path under a regular file: exit 3, one line naming the file, no stack', async () => {
    const file = path.join(work, 'a-file.txt');
    await writeFile(file, 'not a folder');
    const targets = ['x.csv', 'x.json', 'sub/x.csv', 'sub/deeper/x.json'].map((t) => path.join(file, t));
    for (const t of targets) {
      const r = await runCli(['export', corpus, '--markers', t]);
      assertOneLine(r, t, 3, new RegExp(`^marker-research export: cannot write ${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: a part of its path is a file, not a folder \\((ENOTDIR|EEXIST)\\)`));
    }
    for (const t of ['r.md', 'r.html', 'sub/r.html'].map((n) => path.join(file, n))) {
      assertOneLine(await runCli(['export', corpus, '--report', 'latest', t]), t, 3, /cannot write .*: a part of its path is a file/);
    }
  });
});

/** Mounts a tmpfs of `size` at `dir` (root only): false where that is not allowed. */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Unmounts even while this process still holds a file there open (an index's texts file). */
function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}

const canMount = ((): boolean => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = path.join(os.tmpdir(), `mr-mount-probe-${process.pid}`);
  execFileSync('mkdir', ['-p', probe]);
  const ok = mountTmpfs(probe, '64k');
  if (ok) unmount(probe);
  execFileSync('rmdir', [probe]);
  return ok;
})();

describe('first contact: a full disk and a read-only file system', { skip: !canMount && 'needs root to mount a tmpfs' }, () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-first-disk-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** Fills the file system at `mnt` so that `pages` pages stay free. */
  async function fill(mnt: string, pages: number): Promise<void> {
    const st = statfsSync(mnt);
    await writeFile(path.join(mnt, 'filler'), Buffer.alloc(Math.max(0, st.bavail * st.bsize - pages * st.bsize)));
  }

  test('disk full during search and research: exit 3 naming a file, no stack; no run left running or without run.json', async () => {
    const rnd = rng(19_97);
    // Room for nothing, for the run folder, for some of the run's files, for all of them; and two levels drawn at random.
    const levels = [0, 1, 2, 3, 4, 6, 8, 12, 16, 64, 1 + Math.floor(rnd() * 24), 1 + Math.floor(rnd() * 24)];
    const seen = { search: 0, research: 0, ok: 0 };
    for (const [i, pages] of levels.entries()) {
      const mnt = path.join(work, `disk-${i}`);
      await mkdir(mnt);
      assert.ok(mountTmpfs(mnt, '4m'));
      try {
        const root = path.join(mnt, 'c');
        await cp(DEMO, root, { recursive: true, filter: (p) => !p.includes('.marker-research') });
        // Half the levels start with markers in place, so the research reaches its own files.
        if (i % 2) assert.equal((await runCli(['markers', root])).code, 0);
        await fill(mnt, pages);
        for (const cmd of [['research', root], ['search', root, 'range']] as const) {
          const r = await runCli([...cmd]);
          const label = `${cmd[0]} with ${pages} pages free`;
          if (r.code === 0) {
            seen.ok++;
            continue;
          }
          seen[cmd[0]]++;
          const line = assertOneLine(r, label, 3, new RegExp(`^marker-research ${cmd[0]}: cannot write ${mnt}/c/\\.marker-research/\\S+: no space left on the device \\(ENOSPC\\); free some disk space and try again$`));
          assert.ok(line.length < 400, line);
        }
        await assertNoHalfRuns(root, `${pages} pages`);
        for (const run of await runStates(root)) if (run.status === 'failed') assert.match(run.error ?? '', /cannot write .*ENOSPC/, 'the cause is in run.json');
      } finally {
        unmount(mnt);
      }
    }
    assert.ok(seen.research >= 3 && seen.search >= 1 && seen.ok >= 1, JSON.stringify(seen));
  });

  test('a read-only file system: search, research and export exit 3 naming the file', async () => {
    const mnt = path.join(work, 'ro');
    await mkdir(mnt);
    assert.ok(mountTmpfs(mnt, '4m'));
    try {
      const root = path.join(mnt, 'c');
      await cp(DEMO, root, { recursive: true, filter: (p) => !p.includes('.marker-research') });
      assert.equal((await runCli(['markers', root])).code, 0);
      execFileSync('mount', ['-o', 'remount,ro', mnt]);
      for (const args of [['search', root, 'range'], ['research', root], ['export', root, '--markers', path.join(mnt, 'm.csv')]]) {
        assertOneLine(await runCli(args), args[0]!, 3, new RegExp(`^marker-research ${args[0]}: cannot write ${mnt}/\\S+: the file system is read-only \\(EROFS\\); choose a place on a writable file system$`));
      }
      assert.deepEqual(await runStates(root), [], 'no run folder on a read-only disk');
    } finally {
      unmount(mnt);
    }
  });
});
