#!/usr/bin/env node
// End-to-end test of the Marker Research extension inside a real VS Code:
// code-server (VS Code 1.100.3 with a real Node extension host, served on
// 127.0.0.1) driven by Debian's chromium through playwright-core.
//
//   node test/e2e/run.mjs [--ext <extension dir>] [--corpus <corpus dir>] [--keep]
//
//   --ext     extension to package and install (default: the repo root)
//   --corpus  fixture corpus with expected.json (default: samples/demo-corpus)
//   --keep    keep the per-run folder even when every check passes
//
// Environment:
//   MARKER_RESEARCH_E2E_CACHE  tool cache for setup.sh (default ~/.cache/marker-research-e2e)
//   MARKER_RESEARCH_E2E_WORK   parent of the per-run folders (default /tmp/marker-research-e2e)
//
// Prints `ok   <check>` / `FAIL <check>: <reason>` per check, then exactly
// `N passed, N failed`; exits 1 on any failure. The per-run folder is removed
// on success and kept (path printed, logs shown) on failure.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { l10nChecks } from './l10nChecks.mjs';
import { webviewReport } from './webviewReport.mjs';
import { newWorkbenchContext } from './workbenchContext.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const WORK_BASE = process.env.MARKER_RESEARCH_E2E_WORK || '/tmp/marker-research-e2e';
const SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'workbench.png');
const MARKERS_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'markers.png');
const EVIDENCE_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'evidence.png');
const RESEARCH_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'research.png');
const ASK_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'ask.png');
const CAPTIONS_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'readable-captions.png');
const CAPTIONS_DIMMED_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'readable-captions-dimmed.png');
const CAPTIONS_HIDDEN_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'readable-captions-hidden.png');
const ASK_CAPTIONS_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'ask-captions.png');
const ASK_ANSWER_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'ask-answer.png');
/**
 * A caption item (issue 21) the run adds to its copy of the demo corpus: 141 auto-caption lines of
 * a Spanish podcast (test/e2e/fixtures/README.md), no timestamps, no speakers. Its readable view
 * is paragraphs with one header each; the question's top Ask hit quotes whole sentences of it.
 */
const CAPTION_FIXTURES = path.join(HERE, 'fixtures', 'captions');
const CAPTIONS = { item: 'podcast-es-captions', question: '¿Cómo consiguió Hawkers patrocinar a Los Ángeles Lakers?', annotation: '[ __ ]' };
const CHAT_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'chat.png');
const PLAN_RUN_MODAL_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'plan-run-modal.png');
const NOTIFICATIONS_SCREENSHOT = path.join(REPO, 'test-results', 'e2e', 'notifications-after-run.png');
/** A progress notification closes at least 800 ms after it was shown (VS Code's minimum); this long is "outliving its work". */
const PROGRESS_CLOSE_MS = 5_000;
/** The Chat view checks: a follow-up about the finished run's report, then a citation question. */
const DEMO_CHAT = { followUp: 'What is the main conclusion?', citation: 2 };
/**
 * The Ask box checks for a corpus whose expected.json has no "ask" (the demo corpus):
 *   entity     a speaker question over the whole corpus, then a follow-up saying "he"
 *   scoped     a question limited to the item in focus (opened in the tree); the chip then asks the whole corpus
 *   palette    typed after "Ask the Corpus" from the command palette focused the box
 * `item`: an item some hit must come from; `intent`/`entity`/`strategy`: what the understood
 * line and that hit's badges must say (omitted: not checked).
 */
const DEMO_ASK = {
  entity: { question: 'What did Daniel say about injuries?', intent: 'search_entity', entity: 'Daniel', item: 'city-cycling-podcast', strategy: 'entity' },
  followUp: { question: 'And what did he say about the construction cost?', entity: 'Daniel', item: 'city-cycling-podcast' },
  scoped: { item: 'ev-winter-range', question: '热泵对冬季续航有什么影响？' },
  palette: { question: 'What do viewers say about coffee prices?', intent: 'analyze_reception', item: 'coffee-market-report', strategy: 'reception' },
  answer: { question: 'How much did the protected bike lanes cost to build?' },
};
const OUTPUT_CHANNEL = 'Marker Research';
const ACTIVATION_LINE = 'Marker Research activated';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const SETUP_TIMEOUT_MS = 20 * 60_000; // setup.sh (apt + npm install from nothing takes ~1.5 min)
const WATCHDOG_MS = 10 * 60_000; // everything after setup

// ------------------------------------------------------------------ arguments
function parseArgs(argv) {
  const opts = { ext: REPO, corpus: path.join(REPO, 'samples', 'demo-corpus'), keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return path.resolve(v);
    };
    if (a === '--ext') opts.ext = value();
    else if (a.startsWith('--ext=')) opts.ext = path.resolve(a.slice(6));
    else if (a === '--corpus') opts.corpus = value();
    else if (a.startsWith('--corpus=')) opts.corpus = path.resolve(a.slice(9));
    else if (a === '--keep') opts.keep = true;
    else if (a === '--browse') opts.browse = value();
    else if (a === '--engine-check') opts.engineCheck = true;
    else if (a === '--loop-stats') opts.loopStats = true;
    else if (a === '--generate') { opts.generate = Number(argv[++i]); if (!(opts.generate > 0)) usage('--generate needs a number of items'); }
    else if (a === '--spanish') opts.spanish = true;
    else if (a.startsWith('--browse=')) opts.browse = path.resolve(a.slice(9));
    else if (a === '-h' || a === '--help') usage();
    else usage(`unknown argument ${a}`);
  }
  return opts;
}
function usage(msg) {
  if (msg) console.error(msg);
  console.error('usage: node test/e2e/run.mjs [--ext <dir>] [--corpus <dir>] [--keep] [--browse <out.png>]');
  console.error('  --browse <png>  look only: open --corpus (no expected.json needed), index it, open its first item\'s markers, save a screenshot');
  console.error('  --generate N    with --browse: a generated corpus of N items (English and Chinese, with comments) instead of --corpus');
  console.error('  --spanish       with --generate: Spanish podcast items full of fillers; also checks the offline goals (Spanish, no stopword topics)');
  console.error('  --loop-stats    with --browse: sample the extension host\'s event loop while the corpus is indexed and its markers');
  console.error('                  generated (waits for them), then run an offline research pass; report the longest stall');
  console.error('  --engine-check  with --generate: every item grows to ~6,000 words and the corpus is indexed again; while the engine works,');
  console.error('                  a marker of an indexed item must open at once, and the extension host\'s event loop must not stall');
  process.exit(msg ? 2 : 0);
}
const opts = parseArgs(process.argv.slice(2));

// ------------------------------------------------------------------ results
let passed = 0;
let failed = 0;
const firstLine = (e) => String(e instanceof Error ? e.message : e).split('\n')[0];
function pass(name) { passed++; console.log(`ok   ${name}`); }
function fail(name, reason) { failed++; console.log(`FAIL ${name}: ${firstLine(reason)}`); }
async function check(name, fn) {
  try { await fn(); pass(name); return true; } catch (e) { fail(name, e); return false; }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secs = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

/** Polls fn() until it returns a truthy value; bounded by ms. */
async function waitFor(what, ms, fn, every = 250) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try { const v = await fn(); if (v) return v; } catch (e) { if (e?.fatal) throw e; last = e; }
    if (Date.now() >= end) throw new Error(`timeout (${ms / 1000} s) waiting for ${what}${last ? ` (${firstLine(last)})` : ''}`);
    await sleep(every);
  }
}

// ------------------------------------------------------------------ state + cleanup
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
let RUN = null;          // per-run folder
let csProc = null;       // code-server (leader of its own process group)
let browser = null;      // playwright Browser
let cleanedUp = false;

const RUN_TAG = 'MARKER_RESEARCH_E2E_RUN';

/** [pid, run folder] of every process carrying a run tag in its environment. */
function taggedProcesses() {
  const found = [];
  let entries = [];
  try { entries = fs.readdirSync('/proc'); } catch { return found; }
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    let environ;
    try { environ = fs.readFileSync(`/proc/${e}/environ`, 'utf8'); } catch { continue; } // gone, or not ours to read
    const tag = environ.split('\0').find((v) => v.startsWith(`${RUN_TAG}=`));
    if (tag) found.push([Number(e), tag.slice(RUN_TAG.length + 1)]);
  }
  return found;
}
/** Every process of this run (code-server and all its children, chromium): they carry this run's tag. */
function taggedPids() {
  return RUN ? taggedProcesses().filter(([, run]) => run === RUN).map(([pid]) => pid) : [];
}

/**
 * Processes left by an earlier harness that was SIGKILLed (no cleanup ran): tagged with a
 * run folder under WORK_BASE whose harness.pid is no longer alive. Runs of a harness that
 * is still going (a concurrent `npm test`) are left alone.
 */
function reapOrphans() {
  const orphans = taggedProcesses().filter(([, run]) => {
    if (path.dirname(run) !== path.resolve(WORK_BASE)) return false;
    let owner = NaN;
    try { owner = Number(fs.readFileSync(path.join(run, 'harness.pid'), 'utf8')); } catch { /* no pid file */ }
    return !(owner > 0 && alive(owner));
  });
  if (!orphans.length) return;
  console.log(`killing ${orphans.length} process(es) left by earlier e2e runs: ${orphans.map(([pid]) => pid).join(' ')}`);
  for (const [pid] of orphans) { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }
}

/** Synchronous kill of code-server's process group and of every tagged process (safe in 'exit'). */
function killAllSync(signal) {
  if (csProc?.pid) { try { process.kill(-csProc.pid, signal); } catch { /* already gone */ } }
  for (const pid of taggedPids()) { try { process.kill(pid, signal); } catch { /* already gone */ } }
}

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  if (browser) {
    await Promise.race([browser.close().catch(() => {}), sleep(10_000)]);
    browser = null;
  }
  killAllSync('SIGTERM');
  const end = Date.now() + 5_000;
  while (Date.now() < end && ((csProc?.pid && alive(csProc.pid)) || taggedPids().length)) await sleep(100);
  killAllSync('SIGKILL');
}

process.on('exit', () => { killAllSync('SIGKILL'); });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.log(`\ninterrupted by ${sig}`);
    cleanup().finally(() => {
      if (RUN) console.log(`kept run folder: ${RUN}`);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  });
}
let watchdog = null;
function startWatchdog() {
  watchdog = setTimeout(() => {
    console.log(`FAIL watchdog: the e2e run exceeded ${WATCHDOG_MS / 60_000} min after setup`);
    failed++;
    cleanup().finally(() => {
      if (RUN) console.log(`kept run folder: ${RUN}`);
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(1);
    });
  }, WATCHDOG_MS);
  watchdog.unref();
}

// ------------------------------------------------------------------ helpers
function run(cmd, args, { cwd = REPO, env = process.env, timeoutMs, what }) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(`${what} failed (${why})${tail ? `\n${tail}` : ''}`);
  }
  return r;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function tail(file, n) {
  try { return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n'); } catch { return '(no such file)'; }
}

/** Files under dir (recursive), or [] when dir does not exist. */
function listFiles(dir) {
  try {
    return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile()).map((d) => path.join(d.parentPath ?? d.path, d.name));
  } catch { return []; }
}

/**
 * The extension's LogOutputChannel file. code-server (VS Code 1.100) writes it as
 *   <user-data-dir>/logs/<yyyymmddThhmmss>/exthost<N>/<publisher>.<name>/<channel name>.log
 * e.g. logs/20250101T120000/exthost1/marker-research.marker-research/Marker Research.log
 * (older builds used exthost<N>/output_logging_<ts>/<n>-<channel>.log: accept any
 * "*<channel>.log" below an exthost* folder).
 */
function outputChannelLogs(userDataDir) {
  return listFiles(path.join(userDataDir, 'logs')).filter((f) => {
    const rel = path.relative(path.join(userDataDir, 'logs'), f).split(path.sep);
    return rel.length >= 3 && /^exthost\d*$/.test(rel[1]) && path.basename(f).endsWith(`${OUTPUT_CHANNEL}.log`);
  });
}
function extHostLogs(userDataDir) {
  return listFiles(path.join(userDataDir, 'logs')).filter((f) => /[/\\]exthost\d*[/\\](remote)?exthost\.log$/.test(f));
}

function copyCorpus(src, dest) {
  fs.cpSync(src, dest, {
    recursive: true,
    // the tool's own state folder is not part of the fixture: every run starts clean
    filter: (s) => path.basename(s) !== '.marker-research' && path.basename(s) !== 'node_modules',
  });
}

/**
 * What the engine makes of the caption fixture, read in a child process through tsx: its
 * sentences (core's `readingSentences`: the segmenter the markers and Ask use), whitespace
 * collapsed, and where its first annotation is in its readable view (zero-based line, columns).
 */
function captionFixture() {
  const code = `const { loadCorpus } = require('./src/core/corpus/loader');
const { readingSentences } = require('./src/core/markers/speechUnits');
const { layoutFullItem } = require('./src/core/markers/fullItem');
const { readableAnnotations } = require('./src/core/markers/readableSpans');
loadCorpus(process.argv[1]).then((c) => process.stdout.write(JSON.stringify({
  sentences: readingSentences(c.items[0].transcript).map((s) => s.text),
  annotation: readableAnnotations(layoutFullItem(c.items[0]))[0],
})));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code, CAPTION_FIXTURES], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`the caption fixture could not be read: ${(r.stderr || r.error?.message || '').split('\n')[0]}`);
  const out = JSON.parse(r.stdout);
  return { sentences: out.sentences.map((t) => t.replace(/\s+/g, ' ').trim()), annotation: out.annotation };
}

// ------------------------------------------------------------------ main
/** A corpus of `n` small items (every fifth in Chinese, every third with comments, dates spread over two years) for the sidebar at scale. */
function generateCorpus(dir, n) {
  const topics = ['battery range in winter', 'coffee prices and freight', 'remote work and office rents', 'bike lanes and traffic', 'solar panels on roofs', 'street food markets'];
  const zh = ['电动车冬季续航', '咖啡价格与运费', '远程办公与租金', '城市自行车道', '屋顶太阳能', '街头小吃'];
  for (let i = 0; i < n; i++) {
    const d = path.join(dir, `item-${String(i + 1).padStart(4, '0')}`);
    fs.mkdirSync(d, { recursive: true });
    const k = i % topics.length;
    const chinese = i % 5 === 4;
    const lines = chinese
      ? [`主持人：今天我们聊${zh[k]}，第${i + 1}期。`, `嘉宾：去年相关数据增长了百分之${10 + (i % 30)}，有${3 + (i % 7)}个城市出现同样的趋势。`, `主持人：我觉得${zh[k]}比大家想的更重要。`, `嘉宾：调查了${200 + i}户家庭，大多数人改变了习惯。`]
      : [`Host: Welcome to episode ${i + 1}. Today we look at ${topics[k]}.`, `Guest: The numbers on ${topics[k]} rose by ${10 + (i % 30)} percent last year, and ${3 + (i % 7)} cities reported the same trend.`, `Host: I think ${topics[k]} matters more than most people believe.`, `Guest: A survey of ${200 + i} households found that most of them changed their habits.`];
    fs.writeFileSync(path.join(d, 'transcript.txt'), `${lines.join('\n')}\n`);
    const day = new Date(Date.UTC(2023, 0, 1) + i * 6 * 86_400_000).toISOString();
    fs.writeFileSync(path.join(d, 'meta.json'), JSON.stringify({ title: chinese ? `${zh[k]}（第${i + 1}期）` : `Episode ${i + 1}: ${topics[k]}`, source: 'youtube', published_at: day }));
    if (i % 3 === 0) {
      const comments = [
        { comment_id: `c${i}a`, author: 'ana', text: chinese ? '很有用，谢谢分享。' : 'Really useful, thanks for the numbers.', likes: i % 40 },
        { comment_id: `c${i}b`, author: 'ben', text: chinese ? '数据来源是什么？' : 'Where do the numbers come from?', likes: i % 7 },
      ];
      fs.writeFileSync(path.join(d, 'comments.jsonl'), `${comments.map((c) => JSON.stringify(c)).join('\n')}\n`);
    }
  }
}

/** Every generated item's transcript grows to about `words` words (its topic, numbers and speakers, varied): a corpus that takes the engine a while to index. */
function growCorpus(dir, words) {
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name, 'transcript.txt');
    if (!fs.existsSync(file)) continue;
    const base = fs.readFileSync(file, 'utf8').trim().split('\n');
    const out = [...base];
    let n = base.join(' ').split(/\s+/).length;
    for (let k = 0; n < words; k++) {
      const line = base[k % base.length].replace(/\d+/g, (d) => String(Number(d) + k + 1));
      out.push(`${line} Part ${k + 1} adds ${k % 9 + 2} more details from reports ${k % 4 === 0 ? 'in winter' : 'this year'}.`);
      n += line.split(/\s+/).length + 9;
    }
    fs.writeFileSync(file, `${out.join('\n')}\n`);
  }
}

/** `n` Spanish podcast items in the style of unpunctuated auto-captions, full of fillers ("creo", "bien", "hacer", "ahí") around real topics. */
function generateSpanishCorpus(dir, n) {
  const topics = [['ciberseguridad', 'hackers', 'contraseñas'], ['zapatillas', 'coleccionistas', 'reventa'], ['boxeo', 'entrenamiento', 'combate'], ['restaurantes', 'cocina', 'cocineros']];
  for (let i = 0; i < n; i++) {
    const [a, b, c] = topics[i % topics.length];
    const d = path.join(dir, `episodio-${i + 1}`);
    fs.mkdirSync(d, { recursive: true });
    const lines = [
      'pues bueno creo que ahí está bien', `hoy hablamos de ${a} con nuestro invitado`, `la verdad es que el tema de ${a} y de ${b} es muy importante`,
      'y creo que hay que hacer algo bien ahí', `en ${2018 + (i % 5)} empezamos a ver el problema de ${c}`, `el ${20 + i} por ciento de la gente no sabe nada de ${b}`,
      'bueno pues vale eso es así creo yo', `para mí lo mejor de ${a} es la comunidad de ${c}`, 'bien bien vamos a hacer una pausa ahí',
    ];
    fs.writeFileSync(path.join(d, 'transcript.txt'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(d, 'meta.json'), JSON.stringify({ title: `Hablando de ${a} con ${['Pep', 'Ana', 'Luis', 'Marta'][i % 4]}`, source: 'youtube', language: 'es' }));
  }
}

async function main() {
  const tAll = Date.now();
  const extPkgPath = path.join(opts.ext, 'package.json');

  // ---- setup (apt + cached npm tools)
  const tSetup = Date.now();
  let cache;
  try {
    const r = spawnSync('bash', [path.join(HERE, 'setup.sh')], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: SETUP_TIMEOUT_MS, killSignal: 'SIGKILL' });
    if (r.error || r.status !== 0) throw new Error(`setup.sh failed (${r.error ? r.error.message : `exit ${r.status ?? r.signal}`})`);
    cache = r.stdout.trim().split('\n').pop();
    if (!cache || !fs.existsSync(path.join(cache, 'node_modules', '.bin', 'code-server'))) throw new Error(`setup.sh printed no usable cache folder (${cache})`);
  } catch (e) {
    fail('setup', e);
    return;
  }
  console.log(`setup: ${secs(tSetup)} s`);
  startWatchdog();
  reapOrphans();
  const BIN = path.join(cache, 'node_modules', '.bin');
  const tRun = Date.now();

  // ---- fixture expectations
  const expectedPath = path.join(opts.corpus, 'expected.json');
  let expected;
  try {
    if (!opts.generate && !fs.existsSync(opts.corpus)) throw new Error(`corpus folder ${opts.corpus} does not exist`);
    if (opts.browse) throw Object.assign(new Error('browse'), { browse: true });
    expected = JSON.parse(fs.readFileSync(expectedPath, 'utf8'));
    if (!Array.isArray(expected.titles) || !expected.titles.length || !expected.titles.every((t) => typeof t === 'string')) throw new Error('"titles" must be a non-empty array of strings');
    if (!Array.isArray(expected.problemPaths) || !expected.problemPaths.length || !expected.problemPaths.every((t) => typeof t === 'string')) throw new Error('"problemPaths" must be a non-empty array of strings');
  } catch (e) {
    if (!e.browse) {
      fail('fixture', `${expectedPath}: ${firstLine(e)}`);
      return;
    }
  }

  // ---- extension manifest + build
  let extId;
  try {
    const pkg = JSON.parse(fs.readFileSync(extPkgPath, 'utf8'));
    if (!pkg.publisher || !pkg.name) throw new Error(`${extPkgPath} has no publisher/name`);
    extId = `${pkg.publisher}.${pkg.name}`;
    const main = path.resolve(opts.ext, pkg.main || 'dist/extension.js');
    if (!fs.existsSync(main) && fs.existsSync(path.join(opts.ext, 'esbuild.mjs'))) {
      console.log(`${path.relative(REPO, main) || main} missing: building with node esbuild.mjs`);
      run(process.execPath, ['esbuild.mjs'], { cwd: opts.ext, timeoutMs: 180_000, what: 'node esbuild.mjs' });
    }
    if (!fs.existsSync(main)) throw new Error(`extension entry point ${main} does not exist (run npm run build)`);
  } catch (e) {
    fail('build extension', e);
    return;
  }

  // ---- per-run folders
  fs.mkdirSync(WORK_BASE, { recursive: true });
  RUN = fs.mkdtempSync(path.join(path.resolve(WORK_BASE), 'run-'));
  fs.writeFileSync(path.join(RUN, 'harness.pid'), String(process.pid));
  const dirs = { data: path.join(RUN, 'data'), exts: path.join(RUN, 'extensions'), ws: path.join(RUN, 'ws'), xdg: path.join(RUN, 'xdg'), tmp: path.join(RUN, 'tmp') };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(dirs.data, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.data, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    // The evidence checks follow spans into the original files; check 9 switches to the readable view (the default) and back.
    'markerResearch.evidenceView': 'original',
  }, null, 2));
  const folder = path.join(dirs.ws, opts.generate ? `generated-${opts.generate}` : path.basename(opts.corpus));
  const settingsFile = path.join(dirs.data, 'User', 'settings.json');
  // Written to the user settings and to the workspace's .vscode/settings.json (whichever the editor's watcher reports first).
  const wsSettings = path.join(folder, '.vscode', 'settings.json');
  /** Sets markerResearch.evidenceView (readable | original) in the user and the workspace settings. */
  const setEvidenceView = (v) => {
    const cur = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    fs.writeFileSync(settingsFile, JSON.stringify({ ...cur, 'markerResearch.evidenceView': v }, null, 2));
    fs.mkdirSync(path.dirname(wsSettings), { recursive: true });
    fs.writeFileSync(wsSettings, JSON.stringify({ 'markerResearch.evidenceView': v }, null, 2));
  };
  /** Every line the extension wrote to its output channel so far. */
  const outputLines = () => outputChannelLogs(dirs.data).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'));
  if (opts.generate && opts.spanish) generateSpanishCorpus(folder, opts.generate);
  else if (opts.generate) generateCorpus(folder, opts.generate);
  else copyCorpus(opts.corpus, folder);
  // The demo corpus gets the caption item too (its expectations are the demo's plus the CAPTIONS checks).
  const withCaptions = !opts.generate && path.resolve(opts.corpus) === path.join(REPO, 'samples', 'demo-corpus');
  if (withCaptions) copyCorpus(CAPTION_FIXTURES, folder);
  const env = {
    ...process.env,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs.xdg,
    XDG_DATA_HOME: path.join(dirs.xdg, 'data'),
    XDG_CACHE_HOME: path.join(dirs.xdg, 'cache'),
    [RUN_TAG]: RUN, // tag: cleanup finds every process of this run by it
  };
  delete env.VSCODE_IPC_HOOK_CLI; // never talk to a VS Code the harness happens to run inside
  // The extension host samples its event-loop delay into this file (src/extension/eventLoopStats.ts).
  const loopStatsFile = path.join(RUN, 'loop-stats.jsonl');
  if (opts.engineCheck || opts.loopStats) env.MARKER_RESEARCH_LOOP_STATS = loopStatsFile;

  // ---- package + install the extension
  const vsix = path.join(RUN, 'ext.vsix');
  try {
    run(path.join(BIN, 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: opts.ext, env, timeoutMs: 300_000, what: 'vsce package' });
    const cs = [path.join(BIN, 'code-server'), '--user-data-dir', dirs.data, '--extensions-dir', dirs.exts];
    run(cs[0], [...cs.slice(1), '--install-extension', vsix], { env, timeoutMs: 180_000, what: 'code-server --install-extension' });
    if (!fs.readdirSync(dirs.exts).some((d) => d.toLowerCase().startsWith(`${extId.toLowerCase()}-`))) throw new Error(`${extId} not found in ${dirs.exts} after install`);
  } catch (e) {
    fail('package and install extension', e);
    return;
  }

  // ---- code-server on a free loopback port, in its own session / process group
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const csLog = path.join(RUN, 'code-server.log');
  const logFd = fs.openSync(csLog, 'a');
  csProc = spawn(path.join(BIN, 'code-server'), [
    '--user-data-dir', dirs.data, '--extensions-dir', dirs.exts,
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override', folder,
  ], { cwd: RUN, env, detached: true /* setsid(): own session and process group */, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  let csExit = null;
  csProc.on('exit', (code, signal) => { csExit = `code-server exited (${code ?? signal})`; });
  try {
    await waitFor('code-server /healthz', 60_000, async () => {
      if (csExit) throw Object.assign(new Error(csExit), { fatal: true });
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
      return res.ok;
    }, 200);
  } catch (e) {
    fail('code-server starts', csExit ?? e);
    return;
  }

  // ---- browser
  const requireFromCache = createRequire(path.join(cache, 'package.json'));
  const { chromium } = requireFromCache('playwright-core');
  process.env.TMPDIR = dirs.tmp; // playwright puts chromium's temporary profile under os.tmpdir()
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000,
      env: { ...env }, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    });
  } catch (e) {
    fail('chromium starts', e);
    return;
  }
  const context = await newWorkbenchContext(browser);
  const page = await context.newPage();
  const consoleLog = [];
  // Errors and warnings of the workbench; every line of a webview's frames (they say why a view stays blank).
  page.on('console', (m) => {
    const from = m.location()?.url ?? '';
    if (m.type() === 'error' || m.type() === 'warning' || /webview/.test(from)) consoleLog.push(`${new Date().toISOString().slice(11, 23)} [${m.type()}] ${from.replace(/\?.*$/, '').split('/').slice(-2).join('/')}: ${m.text().slice(0, 400)}`);
  });
  page.on('pageerror', (e) => consoleLog.push(`[pageerror] ${e.message}`));
  // Webview content is two iframes deep. The src filter matters (the Welcome page is a webview
  // too); purpose=webviewView leaves out editor webview panels the extension may open.
  const webviewFrame = `iframe.webview.ready[src*="extensionId=${extId}"][src*="purpose=webviewView"]`;
  /**
   * The content frame of the extension's webview view whose document has `selector`: the
   * Marker Research container shows two (Corpus & Markers: #status; Research: #research), the
   * Chat view a third, and a frame locator must name one.
   */
  const webviewWith = (selector, ms) => waitFor(`a webview view with ${selector}`, ms, async () => {
    const frames = page.locator(webviewFrame);
    const n = await frames.count();
    for (let i = 0; i < n; i++) {
      const f = frames.nth(i).contentFrame().locator('#active-frame').contentFrame();
      if (await f.locator(selector).count().catch(() => 0)) return f;
    }
    return null;
  }, 200).catch(async (e) => { throw new Error(`${e.message}; ${await webviewReport(page)}`); });
  // Found when the view opens (check 4): the Corpus & Markers view, and the Research view.
  let webview = page.frameLocator(webviewFrame).first().frameLocator('#active-frame');
  let research = webview;

  /** Runs a command through the command palette: F1, type `>label`, wait for the row, Enter. */
  /**
   * The content frame of a sidebar view (`selector` in it). In this headless code-server a webview view is now and
   * then never rendered (a blank pane — webview host pages of a fresh browser profile registering VS Code's webview
   * service worker at the same time, one left waiting; or VS Code opened it collapsed): after 15 s the view is
   * expanded and the webviews are reloaded ("Developer: Reload Webviews"), as a user would; the log says so, with
   * what the page held (webviewReport.mjs).
   */
  async function viewContent(selector, title) {
    try {
      const frame = await webviewWith(selector, 15_000);
      // The Corpus view's script replaces "Loading…" as soon as it runs and hears from the extension.
      if (selector === '#status') await waitFor('#status past "Loading…"', 15_000, async () => !/^Loading…$/.test((await frame.locator('#status').innerText({ timeout: 1_000 }).catch(() => 'Loading…')).trim()), 300);
      return frame;
    } catch {
      const header = page.locator('.pane-header').filter({ has: page.locator('.title', { hasText: new RegExp(`^\\s*${title.replace(/[&]/g, '\\$&')}\\s*$`, 'i') }) }).first();
      const expanded = await header.getAttribute('aria-expanded').catch(() => null);
      console.log(`     the ${title} view was not rendered (or stayed at "Loading…") within 15 s (aria-expanded=${expanded}; ${await webviewReport(page)}); reloading the webviews`);
      if (expanded !== 'true') await header.click().catch(() => {});
      // "Developer: Reload Webviews" loads every webview's content again (a collapse and expand did not bring it back).
      await runFromPalette('Developer: Reload Webviews').catch((e) => console.log(`     (Reload Webviews: ${firstLine(e)})`));
      return webviewWith(selector, 90_000); // a busy 2-core machine indexing 300 items took longer than 30 s once
    }
  }

  async function runFromPalette(label) {
    const input = page.locator('.quick-input-widget input');
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('F1');
      try { await input.waitFor({ state: 'visible', timeout: 5_000 }); break; } catch (e) {
        if (attempt >= 3) throw new Error(`command palette did not open (${firstLine(e)})`);
        await page.keyboard.press('Escape');
      }
    }
    // Right after a reload the widget can be re-rendered under the cursor: one more try.
    await input.fill(`>${label}`, { timeout: 10_000 }).catch(async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${label}`, { timeout: 10_000 });
    });
    const rows = page.locator('.quick-input-list .monaco-list-row');
    const row = rows.filter({ hasText: label }).first();
    try { await row.waitFor({ state: 'visible', timeout: 15_000 }); } catch {
      const seen = (await rows.allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim()).slice(0, 5);
      await page.keyboard.press('Escape');
      throw new Error(`no palette row "${label}" (rows: ${seen.length ? seen.join(' | ') : 'none'})`);
    }
    const focused = page.locator('.quick-input-list .monaco-list-row.focused');
    const focusedText = await focused.first().innerText({ timeout: 2_000 }).catch(() => '');
    if (focusedText.includes(label)) await page.keyboard.press('Enter');
    else await row.click();
    await input.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
  }

  /** Texts of the visible notification toasts; errorsOnly: error-severity toasts only. */
  const notifications = async (errorsOnly = false) => {
    let toasts = page.locator('.notification-toast');
    if (errorsOnly) toasts = toasts.filter({ has: page.locator('.notification-list-item-icon.codicon-error') });
    return (await toasts.locator('.notification-list-item-message').allInnerTexts().catch(() => []))
      .map((t) => t.replace(/\s+/g, ' ').trim());
  };
  /**
   * Errors the workbench shows: a command run from the palette that throws (or whose
   * extension failed to activate: "command '…' not found") gets a modal dialog
   * "Command '…' resulted in an error"; other errors come as error toasts.
   * A dialog is dismissed (it would block the rest of the run) and its text returned.
   */
  const shownErrors = async () => {
    const errors = [];
    const dialog = page.locator('.monaco-dialog-box');
    if (await dialog.count().catch(() => 0)) {
      const text = (await dialog.first().innerText({ timeout: 2_000 }).catch(() => 'dialog'))
        .split('\n').map((l) => l.trim()).filter((l) => l && l !== 'OK' && l !== 'Cancel').join(' — ');
      errors.push(`dialog: ${text}`);
      await page.keyboard.press('Escape');
      await dialog.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => {});
    }
    for (const t of await notifications(true)) errors.push(`error notification: ${t}`);
    return errors;
  };

  let activated = false;
  try {
    // 1. workbench
    const loaded = await check('workbench loads', async () => {
      await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`, { timeout: 60_000, waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
      await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    });
    if (!loaded) return;

    // 2. activation: the extension's own LogOutputChannel file says so
    activated = await check('extension activates (Marker Research log)', async () => {
      // "[error] Activating extension <id> failed due to an error:" + the error on the next line
      const activationError = () => {
        const lines = extHostLogs(dirs.data).map((f) => fs.readFileSync(f, 'utf8')).join('\n').split('\n');
        const i = lines.findIndex((l) => l.includes(extId) && /activat/i.test(l) && /error|fail/i.test(l));
        return i < 0 ? '' : `extension host log: ${lines[i].replace(/^.*?\[error\]\s*/, '').trim()} ${(lines[i + 1] ?? '').trim()}`;
      };
      const found = await waitFor(`"${ACTIVATION_LINE}" in logs/*/exthost*/**/*${OUTPUT_CHANNEL}.log under ${dirs.data}`, 60_000, () => {
        for (const f of outputChannelLogs(dirs.data)) {
          if (fs.readFileSync(f, 'utf8').includes(ACTIVATION_LINE)) return f;
        }
        const err = activationError();
        if (err) throw Object.assign(new Error(`activation failed — ${err}`), { fatal: true });
        return null;
      }, 300).catch((e) => {
        if (e.fatal) throw e;
        const err = activationError();
        throw new Error(`${firstLine(e)}${err ? ` — ${err}` : ''}`);
      });
      console.log(`     log: ${path.relative(dirs.data, found)}`);
    });
    // informational: the extension host's own record of the activation
    const hostLine = extHostLogs(dirs.data).map((f) => fs.readFileSync(f, 'utf8')).join('\n').split('\n')
      .find((l) => l.includes(`ExtensionService#_doActivateExtension ${extId}`));
    if (hostLine) console.log(`     extension host log: ${hostLine.replace(/^.*ExtensionService#/, 'ExtensionService#').trim()}`);

    // 3. Index Corpus from the command palette
    const indexed = await check('command palette: Marker Research: Index Corpus', async () => {
      await runFromPalette('Marker Research: Index Corpus');
      // its effect is checked below (#status); here: no error dialog/notification within 3 s
      const errors = await waitFor('', 3_000, async () => { const e = await shownErrors(); return e.length ? e : null; }, 300).catch(() => []);
      if (errors.length) throw new Error(errors.join(' | '));
    });

    // 4. the view: status + titles. After a failure further up, later waits are short:
    //    the run still reports every check, but does not sit through every timeout.
    let shownTitles = [];
    let itemCount = 0;
    let settleMs = activated && indexed ? 30_000 : 5_000;
    const viewOpen = await check('Marker Research view opens (webview ready)', async () => {
      try {
        await runFromPalette('View: Show Marker Research');
      } catch (e) {
        // fallback: the activity bar entry (only when not already the open container: a click would toggle it shut)
        const item = page.locator('.part.activitybar .action-item').filter({ has: page.locator(`a[aria-label^="${OUTPUT_CHANNEL}"]`) }).first();
        if (!(await item.count())) throw new Error(`no "View: Show Marker Research" command and no activity bar item (${firstLine(e)})`);
        if (!/\bchecked\b/.test((await item.getAttribute('class')) ?? '')) await item.click();
      }
      await page.locator(webviewFrame).first().waitFor({ state: 'attached', timeout: settleMs })
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`no ready webview for ${extId} (${firstLine(e)})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      webview = await viewContent('#status', 'Corpus & Markers')
        .catch((e) => { throw new Error(`no Corpus & Markers view (#status in a webview's content frame) (${firstLine(e)})`); });
      research = await viewContent('#research', 'Research')
        .catch((e) => { throw new Error(`no Research view (#research in a webview's content frame) (${firstLine(e)})`); });
    });

    await check('view status says "Indexed N items"', async () => {
      if (!viewOpen) throw new Error('view did not open');
      const status = webview.locator('#status');
      await status.waitFor({ state: 'attached', timeout: settleMs }).catch(() => { settleMs = 5_000; throw new Error('no #status element in the webview'); });
      let text = '';
      await waitFor('#status to contain "Indexed N items"', 2 * settleMs, async () => {
        text = (await status.innerText({ timeout: 2_000 })).replace(/\s+/g, ' ').trim();
        return /Indexed \d+ items?/.test(text);
      }, 300).catch(async (e) => {
        settleMs = 5_000;
        const errs = await shownErrors();
        throw new Error(`${firstLine(e)}; #status is "${text}"${errs.length ? `; ${errs.join(' | ')}` : ''}`);
      });
      settleMs = Math.min(settleMs, 10_000); // indexed: the rows follow at once, or not at all
      const n = Number(/Indexed (\d+) items?/.exec(text)[1]);
      itemCount = await webview.locator('li.item[data-item-id]').count();
      const total = Number(await webview.locator('ul#items').getAttribute('data-total'));
      console.log(`     #status: "${text}" (${itemCount} li.item of ${total})`);
      // the list renders 50 items at a time ("Show more")
      if (n !== total || itemCount !== Math.min(n, 50)) throw new Error(`#status says ${n} items but the view lists ${itemCount} li.item[data-item-id] of ul#items[data-total="${total}"]`);
    });

    if (opts.browse && opts.loopStats) {
      // The extension host while the engine indexes a large corpus, generates its markers and runs a research pass.
      await check('extension host: the longest event-loop stall while the engine indexes, generates markers and runs research', async () => {
        const t0 = Date.now();
        await waitFor('"markers (extractive): N items" in the log', 1_800_000, () => outputLines().find((l) => /markers \(extractive\): \d+ items — /.test(l)) ?? null, 2_000);
        const markersMs = Date.now() - t0;
        const seen = outputLines().filter((l) => /research: run .* done/.test(l)).length;
        await runFromPalette('Marker Research: Run Research');
        // the goal picker: its first entry is the automatic goal
        await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 30_000 });
        await page.keyboard.press('Enter');
        await waitFor('a finished research run in the log', 600_000, () => outputLines().filter((l) => /research: run .* done/.test(l)).length > seen || null, 1_000);
        await sleep(1_500);
        const samples = fs.readFileSync(loopStatsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((x) => typeof x.maxMs === 'number'); // event lines carry no timing
        const worst = samples.reduce((a, x) => (x.maxMs > a.maxMs ? x : a), samples[0]);
        const over = samples.filter((x) => x.maxMs > 100).length;
        console.log(`     ${samples.length} s sampled (markers after ${(markersMs / 1000).toFixed(0)} s); longest stall ${worst.maxMs.toFixed(0)} ms at ${new Date(worst.t).toISOString()}; ${over} second(s) with a stall over 100 ms`);
        if (worst.maxMs > 100) throw new Error(`longest stall ${worst.maxMs.toFixed(0)} ms (target ≤ 100 ms)`);
      });
    }
    if (opts.browse) {
      // Look only: the first item with markers opened, every group expanded, a screenshot.
      await check(`browse: screenshot ${opts.browse}`, async () => {
        await waitFor('li.marker rows', 60_000, async () => (await webview.locator('li.marker').count()) || null, 300);
        const item = webview.locator('li.item[data-item-id]:has(li.marker)').first();
        await item.locator('details').evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
        await item.scrollIntoViewIfNeeded();
        await sleep(500);
        fs.mkdirSync(path.dirname(opts.browse), { recursive: true });
        await page.screenshot({ path: opts.browse, timeout: 30_000 });
        console.log(`     ${await webview.locator('li.marker').count()} markers; ${await item.getAttribute('data-item-id')} opened`);
      });
      if (opts.engineCheck) {
        // Issue 13: the engine (language server) does the heavy work; the extension host only handles messages.
        await check('engine: while every item is indexed again and its markers regenerated, a marker of an indexed item opens at once and the extension host never stalls', async () => {
          growCorpus(folder, 6_000);
          const started = Date.now();
          const tab = page.locator('.editor-group-container.active .tab.active');
          const before = await tab.innerText({ timeout: 1_000 }).catch(() => '');
          await runFromPalette('Marker Research: Index Corpus');
          const working = page.locator('.notification-toast').filter({ hasText: /indexing corpus|generating markers/ });
          await working.first().waitFor({ state: 'visible', timeout: 120_000 }).catch(() => { throw new Error('no "indexing corpus" / "generating markers" progress notification within 120 s'); });
          // A marker of an item indexed before: open its item and group, click it.
          const marker = webview.locator('li.item[data-item-id]:has(li.marker) li.marker').first();
          const item = webview.locator('li.item[data-item-id]:has(li.marker)').first();
          if (!(await item.locator(':scope > details').evaluate((d) => d.open))) await item.locator(':scope > details > summary .item-title').click();
          const group = marker.locator('xpath=ancestor::details[1]');
          if (!(await group.evaluate((d) => d.open))) await group.locator(':scope > summary').click();
          const t0 = Date.now();
          await marker.click();
          let label = '';
          await waitFor('an editor on the marker\'s item', 120_000, async () => {
            label = await tab.innerText({ timeout: 1_000 }).catch(() => '');
            return label && label !== before && /transcript|full item|comments/.test(label);
          }, 100).catch(() => { throw new Error(`no editor opened within 120 s of the click (active tab "${label}")`); });
          const openedAt = Date.now();
          const openedMs = openedAt - t0;
          // The work ends with the markers of every grown item regenerated (the client logs the engine's summary).
          const doneLine = await waitFor('"markers (extractive): N items — N generated" in the log', 600_000, () => outputLines().find((l) => /markers \(extractive\): \d+ items — [1-9]\d* generated/.test(l) && Date.parse(l.slice(0, 23).replace(' ', 'T')) >= started - 1_000) ?? null, 500);
          const doneAt = Date.parse(doneLine.slice(0, 23).replace(' ', 'T'));
          if (doneAt <= openedAt) throw new Error(`the engine finished (${new Date(doneAt).toISOString()}) before the marker opened (${openedMs} ms after the click): the check proves nothing; grow the items`);
          await working.first().waitFor({ state: 'hidden', timeout: 60_000 }).catch(() => undefined);
          const workMs = Date.now() - started;
          await sleep(1_500); // the last second's sample
          const samples = fs.existsSync(loopStatsFile) ? fs.readFileSync(loopStatsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((x) => x.t >= started && typeof x.maxMs === 'number') : []; // event lines carry no timing
          if (samples.length < 2) throw new Error(`no event-loop samples in ${loopStatsFile}`);
          const maxMs = Math.max(...samples.map((x) => x.maxMs));
          const p99 = Math.max(...samples.map((x) => x.p99Ms));
          const slow = samples.filter((x) => x.maxMs > 60).map((x) => `+${((x.t - started) / 1000).toFixed(0)} s: ${x.maxMs.toFixed(0)} ms`);
          if (slow.length) console.log(`     seconds with a stall over 60 ms: ${slow.join(', ')}`);
          console.log(`     the marker opened "${label.trim()}" in ${openedMs} ms while the engine worked (${(workMs / 1000).toFixed(1)} s in all); extension host event loop over ${samples.length} s: longest stall ${maxMs.toFixed(0)} ms, worst per-second p99 ${p99.toFixed(0)} ms`);
          // What is asserted is the order (the marker opened while the engine still worked, above), not
          // milliseconds: on a busy machine the figures above vary; the stall target (≤ 100 ms) is
          // measured with --loop-stats, outside `npm test`.
        });
      }
      if (opts.spanish) {
        // Offline goals on a Spanish corpus: in Spanish, about its topics, never about fillers.
        await check('browse: offline goals are Spanish questions about topics, not fillers', async () => {
          await research.locator('#discover-goals').click();
          const titles = research.locator('li.goal .goal-title');
          await waitFor('goals', 30_000, async () => (await titles.count()) || null, 300);
          const goals = (await titles.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
          const stop = ['creo', 'bien', 'ahí', 'hacer', 'pues', 'bueno', 'vale', 'gente', 'verdad', 'cosa'];
          for (const g of goals) {
            if (!/^¿.+\?$/.test(g)) throw new Error(`not a Spanish question: "${g}"`);
            if (/What do the items say|commenters|comentaristas/.test(g)) throw new Error(`template or comment question without comments: "${g}"`);
            const words = g.toLowerCase().split(/[^\p{L}]+/u);
            const bad = stop.filter((w) => words.includes(w));
            if (bad.length) throw new Error(`a filler as a topic (${bad.join(', ')}): "${g}"`);
          }
          console.log(`     ${goals.join(' | ')}`);
        });
      }
      return;
    }
    await check(`view lists the ${expected.titles.length} expected item titles`, async () => {
      if (!viewOpen) throw new Error('view did not open');
      const items = webview.locator('li.item[data-item-id]');
      await waitFor('li.item rows with the expected titles', settleMs, async () => {
        shownTitles = (await items.locator('.item-title').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        return expected.titles.every((t) => shownTitles.includes(t));
      }, 300).catch(() => {
        settleMs = 5_000;
        const missing = expected.titles.filter((t) => !shownTitles.includes(t));
        throw new Error(`missing ${JSON.stringify(missing)}; shown ${JSON.stringify(shownTitles)}`);
      });
      const n = await items.count();
      for (let i = 0; i < n; i++) {
        const li = items.nth(i);
        for (const part of ['.item-title', '.item-id', '.item-counts']) {
          if (!(await li.locator(part).count())) throw new Error(`li.item #${i + 1} (${await li.getAttribute('data-item-id')}) has no ${part}`);
        }
      }
    });

    // 4b. small corpora stay instant: Index Corpus → the engine answers and the markers are back in the view within 2 s
    await check('Index Corpus on the demo corpus: markers visible again within 2 s (the engine reads its persisted state)', async () => {
      if (!viewOpen) throw new Error('view did not open');
      const seen = outputLines().filter((l) => l.includes('engine indexed')).length;
      const t0 = Date.now();
      await runFromPalette('Marker Research: Index Corpus');
      await waitFor('a new "engine indexed" log line and li.marker rows', 10_000, async () => outputLines().filter((l) => l.includes('engine indexed')).length > seen && (await webview.locator('li.marker').count()) > 0, 50);
      const ms = Date.now() - t0;
      console.log(`     Index Corpus → markers visible in ${ms} ms (palette included)`);
      if (ms > 2_000) throw new Error(`took ${ms} ms`);
    });

    // 4c. the engine (language server) crashes: the client restarts it, the corpus is loaded again from the persisted
    //     state, and one message says so
    await check('engine crash: the client restarts the engine, one message says so, and the Corpus view shows the markers again', async () => {
      const enginePids = () => spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout.split('\n')
        .filter((l) => l.includes(dirs.exts) && /dist[\\/]server\.js/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]));
      const killed = enginePids();
      if (!killed.length) throw new Error(`no engine process (dist/server.js under ${dirs.exts})`);
      const logText = () => outputChannelLogs(dirs.data).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
      const indexedLines = () => (logText().match(/engine indexed \d+ items/g) ?? []).length;
      const before = indexedLines();
      for (const pid of killed) process.kill(pid, 'SIGKILL');
      const restartMessage = /engine stopped unexpectedly and was restarted/;
      // The message: a toast, or (VS Code shows none after a window reload here) an entry of the notification center.
      const centerTexts = async () => {
        await runFromPalette('Notifications: Show Notifications');
        const texts = (await page.locator('.notifications-center .notification-list-item-message').allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
        await page.keyboard.press('Escape');
        return texts;
      };
      const messages = async () => [...new Set([...(await notifications()), ...(await centerTexts())])].filter((t) => restartMessage.test(t));
      await waitFor('the message "the engine stopped unexpectedly and was restarted"', 30_000, async () => ((await notifications()).some((t) => restartMessage.test(t)) || (await centerTexts()).some((t) => restartMessage.test(t))) || null, 1_000)
        .catch(async (e) => {
          const log = logText().split('\n').filter((l) => /restart|engine/i.test(l)).slice(-6);
          throw new Error(`${firstLine(e)}; toasts ${JSON.stringify(await notifications())}; log ${JSON.stringify(log)}`);
        });
      await waitFor('a new "engine indexed" log line (the corpus loaded again)', 60_000, () => indexedLines() > before || null, 300);
      webview = await webviewWith('#status', 30_000);
      await waitFor('li.marker rows in the Corpus view', 30_000, async () => (await webview.locator('li.marker').count()) || null, 300);
      const again = enginePids();
      if (!again.length || again.some((p) => killed.includes(p))) throw new Error(`engine processes before ${JSON.stringify(killed)}, after ${JSON.stringify(again)}`);
      const shown = await messages();
      const errors = (await notifications(true)).filter((t) => !restartMessage.test(t));
      console.log(`     engine ${killed.join(',')} killed; ${again.join(',')} serves ${await webview.locator('li.marker').count()} markers; messages: ${JSON.stringify(shown)}${errors.length ? `; errors: ${JSON.stringify(errors)}` : ''}`);
      if (shown.length !== 1) throw new Error(`${shown.length} restart messages`);
      if (errors.length) throw new Error(`error notifications besides the one message: ${JSON.stringify(errors)}`);
    });

    // 5. the broken file is reported, the rest still loads
    await check('broken fixture file reported as a problem, other items still load', async () => {
      if (!viewOpen) throw new Error('view did not open');
      const norm = (p) => p.replace(/\\/g, '/').replace(/^\.\//, '').trim();
      let shown = [];
      await waitFor('li.problem entries for the broken files', settleMs, async () => {
        shown = (await webview.locator('li.problem .problem-path').allInnerTexts()).map(norm);
        return expected.problemPaths.every((p) => shown.some((s) => s === norm(p) || s.startsWith(`${norm(p)}:`)));
      }, 300).catch(() => {
        throw new Error(`expected problems for ${JSON.stringify(expected.problemPaths)}; li.problem .problem-path shows ${JSON.stringify(shown)}`);
      });
      if (!expected.titles.every((t) => shownTitles.includes(t))) throw new Error(`items did not all load next to the problem: shown titles ${JSON.stringify(shownTitles)}`);
    });
    // 5b. the same problems reach VS Code's Problems panel through the language server, at the offending line
    await check('Problems panel shows the broken files at their lines (language server diagnostics)', async () => {
      const want = expected.problemLocations ?? [];
      if (!want.length) throw new Error('expected.json has no problemLocations');
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => {});
      await runFromPalette('View: Focus Problems');
      const rows = page.locator('.markers-panel .monaco-list-row');
      let texts = [];
      await waitFor('Problems panel rows', settleMs, async () => {
        texts = (await rows.allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
        return want.every((w) => texts.some((t) => t.includes(`[Ln ${w.line}, Col ${w.column}]`)))
          && want.every((w) => texts.some((t) => t.includes(path.basename(w.path)) && t.includes(path.dirname(w.path))));
      }, 300).catch(() => {
        throw new Error(`Problems panel rows: ${JSON.stringify(texts.slice(0, 12))}; wanted ${JSON.stringify(want)}`);
      });
    });

    // 7. markers: generated on index (markersOnIndex + extractive), else from the palette
    const mx = expected.markers ?? null;
    const markerRows = webview.locator('li.marker[data-marker-id][data-kind]');
    /** li.marker rows not hidden by the filter (neither they nor an ancestor carry [hidden]). */
    const shownMarkerCount = () => webview.locator('body').evaluate(() =>
      [...document.querySelectorAll('li.marker[data-marker-id]')].filter((e) => !e.closest('[hidden]')).length);
    const markersShown = await check('markers appear in the tree for every item with a transcript, all grounded (extractive)', async () => {
      if (!viewOpen) throw new Error('view did not open');
      if (!mx) throw new Error('expected.json has no "markers"');
      let how = 'markersOnIndex';
      const n0 = await waitFor('li.marker rows after Index Corpus', settleMs, async () => (await markerRows.count()) || null, 300).catch(() => 0);
      if (!n0) {
        how = 'Generate Markers from the palette';
        await runFromPalette('Marker Research: Generate Markers');
        await waitFor('li.marker rows after Generate Markers', 30_000, async () => (await markerRows.count()) || null, 300)
          .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      }
      const perItem = {};
      for (const id of mx.itemsWithTranscript) perItem[id] = await webview.locator(`li.item[data-item-id="${id}"] li.marker`).count();
      const empty = Object.entries(perItem).filter(([, n]) => n < 1).map(([id]) => id);
      if (empty.length) throw new Error(`no li.marker for ${JSON.stringify(empty)} (per item: ${JSON.stringify(perItem)})`);
      const ungrounded = await webview.locator('li.marker .marker-ungrounded').count();
      if (ungrounded) throw new Error(`${ungrounded} .marker-ungrounded with the ${mx.engine} engine`);
      const engines = [...new Set((await webview.locator('li.item .item-engine').allInnerTexts()).map((t) => t.trim()))];
      if (engines.length !== 1 || engines[0] !== mx.engine) throw new Error(`.item-engine labels ${JSON.stringify(engines)}, expected only "${mx.engine}"`);
      for (const sel of ['.marker-kind', '.marker-text']) {
        const missing = await webview.locator(`li.marker:not(:has(${sel}))`).count();
        if (missing) throw new Error(`${missing} li.marker without ${sel}`);
      }
      const total = await markerRows.count();
      console.log(`     ${total} li.marker via ${how}; per item ${JSON.stringify(perItem)}; engine label "${engines[0]}"`);
    });

    // 7b. Generate Markers from the palette on an unchanged corpus: every item comes from the cache
    await check('command palette: Marker Research: Generate Markers (unchanged corpus: all cached)', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const runLines = () => outputChannelLogs(dirs.data).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n')).filter((l) => /markers \(\w+\): \d+ items — /.test(l));
      const before = runLines().length;
      await runFromPalette('Marker Research: Generate Markers');
      const line = await waitFor('a new "markers (engine): N items — …" log line', 15_000, () => { const l = runLines(); return l.length > before ? l[l.length - 1] : null; }, 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const m = /(\d+) items — (\d+) generated, (\d+) cached, (\d+) failed/.exec(line);
      if (!m || m[2] !== '0' || m[3] !== m[1] || m[4] !== '0') throw new Error(`expected every item cached: ${line.trim()}`);
      console.log(`     ${line.replace(/^.*?markers \(/, 'markers (').trim()}`);
    });

    // 8. the filter box narrows the tree by text (English and Chinese) and by kind; clearing restores it
    await check('filter box narrows the markers by text (EN + ZH) and kind; clearing restores them', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const filter = webview.locator('input#filter');
      const all = await shownMarkerCount();
      const seen = [];
      try {
        for (const word of mx.filterWords) {
          await filter.fill(word);
          const n = await waitFor(`the filter "${word}" to narrow the list`, 5_000, async () => { const c = await shownMarkerCount(); return c > 0 && c < all ? c : null; }, 200)
            .catch(async () => { throw new Error(`"${word}": ${await shownMarkerCount()} of ${all} li.marker shown (want 0 < n < ${all})`); });
          const texts = await webview.locator('body').evaluate(() =>
            [...document.querySelectorAll('li.marker')].filter((e) => !e.closest('[hidden]')).map((e) => `${e.querySelector('.marker-text')?.textContent ?? ''} ${e.getAttribute('title') ?? ''} ${e.querySelector('.marker-where')?.textContent ?? ''}`));
          const stray = texts.filter((t) => !t.toLowerCase().includes(word.toLowerCase()));
          if (stray.length) throw new Error(`"${word}" shows markers without it: ${JSON.stringify(stray.slice(0, 3))}`);
          seen.push(`"${word}" ${n}`);
        }
      } finally {
        await filter.fill('').catch(() => {}); // later checks need the whole tree
      }
      await waitFor('the full list after clearing the filter', 5_000, async () => (await shownMarkerCount()) === all, 200)
        .catch(async () => { throw new Error(`after clearing: ${await shownMarkerCount()} of ${all}`); });
      // kind toggle: DATA off hides every DATA marker, on again restores
      const dataToggle = webview.locator('button.kind-toggle[data-kind="DATA"]');
      await dataToggle.click();
      const withoutData = await shownMarkerCount();
      const dataShown = await webview.locator('body').evaluate(() =>
        [...document.querySelectorAll('li.marker[data-kind="DATA"]')].filter((e) => !e.closest('[hidden]')).length);
      await dataToggle.click();
      if (dataShown || withoutData >= all) throw new Error(`DATA toggled off: ${withoutData} of ${all} shown, ${dataShown} DATA still shown`);
      if ((await shownMarkerCount()) !== all) throw new Error('DATA toggled back on did not restore the list');
      console.log(`     ${all} markers; ${seen.join(', ')}; DATA off ${withoutData}`);
    });

    // 9. clicking a marker opens its evidence in the readable view (the default), highlighted and in view;
    //    its "Open original" lens opens the original file at the evidence lines, selected and in view
    await check('clicking a marker opens the readable view at its span; "Open original" opens the file at its evidence lines', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const o = mx.open;
      const item = webview.locator(`li.item[data-item-id="${o.item}"]`);
      const marker = item.locator(`li.marker[data-kind="${o.kind}"]`).first();
      const markerId = await marker.getAttribute('data-marker-id');
      const markerFile = path.join(folder, '.marker-research', 'markers', `${o.item}.json`);
      const record = JSON.parse(fs.readFileSync(markerFile, 'utf8'));
      const all = [record.transcript_summary, record.comments_summary].filter(Boolean).flatMap((x) => Object.values(x).filter(Array.isArray).flat());
      const m = all.find((x) => x && x.id === markerId);
      if (!m) throw new Error(`marker ${markerId} not in ${markerFile}`);
      const ev = m.evidence[0].source;
      if (ev.file !== o.file) throw new Error(`the first ${o.kind} marker's evidence is in ${ev.file}, expected ${o.file}`);
      // open the item, then its group, as a user would
      if (!(await item.locator(':scope > details').evaluate((d) => d.open))) await item.locator(':scope > details > summary .item-title').click();
      const group = marker.locator('xpath=ancestor::details[1]');
      if (!(await group.evaluate((d) => d.open))) await group.locator(':scope > summary').click();
      const tab = page.locator('.editor-group-container.active .tab.active');
      const selection = page.locator('[id="status.editor.selection"]');
      setEvidenceView('readable');
      try {
        // The settings file is watched: until the change arrives a click still opens the original; click again.
        let opened = null;
        const seen = outputLines().length; // the log file is written lazily: look at everything since the first click
        for (let attempt = 1; !opened && attempt <= 8; attempt++) {
          await sleep(1000);
          await marker.click();
          opened = await waitFor('a log line "opened marker … in the readable view"', 5_000, () => outputLines().slice(seen).find((l) => l.includes(`opened marker ${markerId}`) && l.includes('in the readable view')) ?? null, 200).catch(() => null);
        }
        if (!opened) {
          const errs = await shownErrors();
          throw new Error(`no "opened marker ${markerId} … in the readable view" log line after 8 clicks${errs.length ? `; ${errs.join(' | ')}` : ''}`);
        }
        await waitFor(`the active tab "${o.item} (full item)"`, 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes('full item'), 200)
          .catch(async () => { throw new Error(`tab ${JSON.stringify(await tab.innerText().catch(() => ''))}`); });
        const at = / at (\d+):(\d+)-(\d+):(\d+)/.exec(opened);
        if (!at) throw new Error(`no range in "${opened}"`);
        let text = '';
        await waitFor(`status bar "Ln ${at[1]}, Col ${at[2]}"`, 10_000, async () => {
          text = (await selection.innerText({ timeout: 1_000 })).replace(/\s+/g, ' ').trim();
          return text.startsWith(`Ln ${at[1]}, Col ${at[2]}`) && /selected/.test(text);
        }, 200).catch(() => { throw new Error(`status bar says "${text}", the span starts at ${at[1]}:${at[2]}`); });
        const shown = (await page.locator('.editor-group-container.active .view-lines').innerText()).replace(/\s+/g, ' ');
        const head = m.evidence[0].quote.replace(/\s+/g, ' ').slice(0, 30);
        if (!shown.includes(head)) throw new Error(`the span's start "${head}" is not on screen in the readable view`);
        fs.mkdirSync(path.dirname(EVIDENCE_SCREENSHOT), { recursive: true });
        await page.screenshot({ path: EVIDENCE_SCREENSHOT, timeout: 30_000 });
        console.log(`     readable view: ${opened.replace(/^.*?opened/, 'opened')}; status "${text}"`);
        // "Open original" is one click away: the lens above the span
        const lens = page.locator('.editor-group-container.active .codelens-decoration a').filter({ hasText: `Open original: ${path.basename(o.file)}` }).first();
        await lens.click({ timeout: 10_000 });
      } finally {
        setEvidenceView('original');
      }
      const want = path.basename(o.file);
      await waitFor(`the active editor tab "${want}"`, 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes(want), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').innerText().catch(() => '')).replace(/\s+/g, ' ');
      if (!crumbs.includes(path.dirname(o.file))) throw new Error(`breadcrumbs "${crumbs}" do not name ${path.dirname(o.file)}`);
      let text = '';
      await waitFor(`status bar "Ln ${ev.startLine + 1}, Col …"`, 10_000, async () => {
        text = (await selection.innerText({ timeout: 1_000 })).replace(/\s+/g, ' ').trim();
        const ln = /Ln (\d+), Col (\d+)/.exec(text);
        return ln && Number(ln[1]) === ev.startLine + 1;
      }, 200).catch(() => { throw new Error(`status bar says "${text}", evidence starts at line ${ev.startLine + 1} (${markerFile})`); });
      const col = Number(/Col (\d+)/.exec(text)[1]);
      if (col !== ev.startColumn + 1) throw new Error(`status bar "${text}": column ${col}, evidence starts at column ${ev.startColumn + 1}`);
      const selected = /\((\d+) selected\)/.exec(text);
      if (ev.startLine === ev.endLine && (!selected || Number(selected[1]) !== ev.endColumn - ev.startColumn)) throw new Error(`status bar "${text}": expected ${ev.endColumn - ev.startColumn} selected`);
      const lineNumbers = await page.locator('.editor-group-container.active .monaco-editor .margin-view-overlays .line-numbers').allInnerTexts();
      if (!lineNumbers.map((t) => t.trim()).includes(String(ev.startLine + 1))) throw new Error(`line ${ev.startLine + 1} is not in view (visible line numbers ${lineNumbers.join(',')})`);
      console.log(`     ${markerId} → ${want} "${text}" (evidence ${ev.file}:${ev.startLine + 1}:${ev.startColumn + 1}); breadcrumbs "${crumbs}"`);
    });
    await check('screenshot test-results/e2e/markers.png (tree expanded, evidence editor open)', async () => {
      fs.mkdirSync(path.dirname(MARKERS_SCREENSHOT), { recursive: true });
      // every group of the opened item expanded, for the picture
      await webview.locator(`li.item[data-item-id="${mx?.open?.item}"] details`).evaluateAll((ds) => ds.forEach((d) => { d.open = true; })).catch(() => {});
      await sleep(300);
      await page.screenshot({ path: MARKERS_SCREENSHOT, timeout: 30_000 });
    });

    // 10. Retrieve Full Item: a read-only marker-research: document with everything, down to the last comment
    await check('"Retrieve Full Item" opens a marker-research: document ending with the last comment', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const f = mx.fullItem;
      await webview.locator(`li.item[data-item-id="${f.item}"] button.item-full`).click();
      const tab = page.locator('.editor-group-container.active .tab.active');
      await waitFor(`a tab "${f.item} (full item)"`, 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes(`${f.item} (full item)`), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const logLine = await waitFor('the "opened the full item" log line', 5_000, () => {
        for (const file of outputChannelLogs(dirs.data)) {
          const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.includes(`opened the full item ${f.item} `));
          if (line) return line;
        }
        return null;
      }, 200);
      if (!/ as marker-research:\//.test(logLine)) throw new Error(`not a marker-research: document: ${logLine.trim()}`);
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      await editor.locator('.view-lines').click();
      await page.keyboard.press('Control+End');
      let shown = '';
      await waitFor('the end of the document in view', 5_000, async () => {
        shown = (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
        return shown.includes(`@${f.lastCommentAuthor} · `) && / · line \d+\s*$/m.test(shown);
      }, 200).catch(() => { throw new Error(`the end of the document does not show the last comment, by ${f.lastCommentAuthor}: ${JSON.stringify(shown.slice(-300))}`); });
      if (!shown.includes(f.lastNonEmptyComment)) throw new Error(`the end of the document does not show "${f.lastNonEmptyComment}"`);
      // comment ids are left to the tooltip of `line N`; dates read as a reader writes them
      if (shown.includes(` · ${f.lastCommentId} · `)) throw new Error(`the comment id ${f.lastCommentId} is shown as text`);
      if (/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(shown)) throw new Error(`an ISO timestamp is shown as text: ${JSON.stringify(/.{0,40}\d{4}-\d{2}-\d{2}T.{0,20}/.exec(shown)?.[0])}`);
      // read-only: typing changes nothing, and the editor says why
      await page.keyboard.type('x');
      const readOnly = await page.locator('.monaco-editor-overlaymessage').filter({ hasText: 'read-only' }).first()
        .waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false);
      const dirty = await page.locator('.editor-group-container.active .tab.active.dirty').count();
      if (dirty || !readOnly) throw new Error(`the full-item document is not read-only (${dirty ? 'dirty tab' : 'no "read-only" message'})`);
      console.log(`     ${logLine.replace(/^.*?opened/, 'opened').trim()}`);
    });

    // 11. the same from the item's context menu (webview/context with data-vscode-context)
    await check('context menu on an item: "Retrieve Full Item"', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const id = mx.itemsWithTranscript.find((x) => x !== mx.fullItem.item);
      const tab = page.locator('.editor-group-container.active .tab.active');
      // The webview's context menu opens asynchronously and a click can land while it is still
      // being laid out: one more try (right-click again) before failing.
      for (let attempt = 1; ; attempt++) {
        await webview.locator(`li.item[data-item-id="${id}"] .item-title`).scrollIntoViewIfNeeded().catch(() => {});
        await webview.locator(`li.item[data-item-id="${id}"] .item-title`).click({ button: 'right' });
        const entry = page.locator('.context-view .monaco-menu .action-item').filter({ hasText: 'Retrieve Full Item' }).first();
        try {
          await entry.waitFor({ state: 'visible', timeout: 5_000 })
            .catch(async (e) => { throw new Error(`no "Retrieve Full Item" in the context menu (${firstLine(e)}; menu: ${JSON.stringify(await page.locator('.context-view').allInnerTexts().catch(() => []))})`); });
          // Let the menu settle where it will stay, then point at the entry: the first try clicks it, the second runs it from the keyboard.
          await sleep(200);
          await entry.hover();
          if (attempt === 1) await entry.click();
          else await page.keyboard.press('Enter');
          await waitFor(`a tab "${id} (full item)"`, 8_000, async () => (await tab.innerText({ timeout: 1_000 })).includes(`${id} (full item)`), 200)
            .catch(async (e) => { throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})`); });
          break;
        } catch (e) {
          if (attempt >= 3) throw e;
          console.log(`     context menu: try ${attempt} did not open the item (${firstLine(e)}); trying again`);
          await page.keyboard.press('Escape');
        }
      }
    });

    // 11b. a caption transcript (issue 21): paragraphs of whole sentences, one header each (line range: no timestamps),
    //      far fewer lines than captions; its annotation dimmed, hidden and shown again by the eye in the title bar
    await check('a caption transcript reads as paragraphs with one header each; its annotations are dimmed, hidden, shown (the eye)', async () => {
      if (!withCaptions) throw new Error('the caption item is only added to the demo corpus');
      const id = CAPTIONS.item;
      const captionLines = fs.readFileSync(path.join(CAPTION_FIXTURES, id, 'transcript.txt'), 'utf8').split('\n').filter((l) => l.trim());
      const row = webview.locator(`li.item[data-item-id="${id}"]`);
      await row.scrollIntoViewIfNeeded().catch(() => {});
      await row.locator('button.item-full').first().click({ timeout: 10_000 });
      const tab = page.locator('.editor-group-container.active .tab.active');
      await waitFor(`a tab "${id} (full item)"`, 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes(`${id} (full item)`), 200)
        .catch(async (e) => { throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})`); });
      const logLine = await waitFor('the "opened the full item" log line', 5_000, () => outputChannelLogs(dirs.data).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n')).find((l) => l.includes(`opened the full item ${id} (`)) ?? null, 200);
      const lineCount = Number(/\((\d+) lines\)/.exec(logLine)?.[1]);
      // A turn layout takes four lines per caption; paragraphs take a header, a blank and a line per sentence.
      if (!(lineCount < captionLines.length)) throw new Error(`the readable view has ${lineCount} lines for ${captionLines.length} caption lines: not paragraphs`);
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      /** The lines on screen, top to bottom (non-breaking spaces as spaces). */
      const screenLines = async () => (await editor.locator('.view-line').evaluateAll((ls) => ls.map((l) => ({ top: parseFloat(l.style.top) || 0, text: l.textContent ?? '' }))))
        .sort((a, b) => a.top - b.top).map((l) => l.text.replace(/\u00a0/g, ' '));
      let lines = [];
      await waitFor('the transcript heading and two paragraph headers on screen', 10_000, async () => {
        lines = await screenLines();
        return lines.some((l) => /^## Transcript \(\d+ caption lines in \d+ paragraphs\)$/.test(l)) && lines.filter((l) => /^¶ \d+ · /.test(l)).length >= 2;
      }, 250).catch(() => { throw new Error(`no "## Transcript (N caption lines in M paragraphs)" and paragraph headers on screen: ${JSON.stringify(lines.slice(0, 30))}`); });
      const heading = lines.find((l) => /^## Transcript/.test(l));
      const paragraphs = Number(/in (\d+) paragraphs/.exec(heading)[1]);
      if (!(paragraphs * 5 <= captionLines.length)) throw new Error(`"${heading}": not paragraphs of several caption lines`);
      // One header per paragraph: each header (a line range: this transcript has no times) is followed by a blank line, then its text, indented.
      const first = lines.findIndex((l) => /^¶ 1 · /.test(l));
      for (let i = first; i < lines.length; i++) {
        if (!/^¶ /.test(lines[i])) continue;
        if (!/^¶ \d+ · lines \d+–\d+$/.test(lines[i])) throw new Error(`paragraph header "${lines[i]}" is not "¶ N · lines A–B"`);
        if (i + 2 < lines.length && (lines[i + 1].trim() !== '' || !/^ {4}\S/.test(lines[i + 2]))) throw new Error(`header "${lines[i]}" is not followed by a blank line and its indented text: ${JSON.stringify(lines.slice(i, i + 3))}`);
        const next = lines.findIndex((l, k) => k > i && /^¶ /.test(l));
        if (next > 0 && !lines.slice(i + 2, next).some((l) => /^ {4}\S/.test(l))) throw new Error(`two headers with no paragraph between: ${JSON.stringify(lines.slice(i, next + 1))}`);
      }
      // Sentences, not caption lines: a paragraph line holds more than one caption line.
      const texts = lines.filter((l) => /^ {4}\S/.test(l)).map((l) => l.trim());
      if (!texts.some((t) => captionLines.some((c, k) => k + 1 < captionLines.length && t.includes(`${c.trim()} ${captionLines[k + 1].trim()}`)))) throw new Error(`no paragraph line joins two caption lines: ${JSON.stringify(texts.slice(0, 3))}`);
      if (lines.some((l) => /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|PT\d+H/.test(l))) throw new Error(`ISO timestamps shown as text: ${JSON.stringify(lines.filter((l) => /T\d{2}:|PT\d/.test(l)))}`);
      await sleep(300);
      fs.mkdirSync(path.dirname(CAPTIONS_SCREENSHOT), { recursive: true });
      await page.screenshot({ path: CAPTIONS_SCREENSHOT, timeout: 30_000 });
      // The annotation: its line brought into view (Go to Line), then its decoration by the mode.
      const { annotation } = captionFixture();
      if (!annotation) throw new Error('the fixture has no annotation');
      await page.keyboard.press('F1');
      const quick = page.locator('.quick-input-widget input');
      await quick.waitFor({ state: 'visible', timeout: 5_000 });
      await quick.fill(`:${annotation.line + 1}:${annotation.start + 1}`);
      await page.keyboard.press('Enter');
      await quick.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
      await waitFor(`"${CAPTIONS.annotation}" on screen`, 10_000, async () => (await screenLines()).some((l) => l.includes(CAPTIONS.annotation)), 250)
        .catch(() => { throw new Error(`"${CAPTIONS.annotation}" not on screen after going to line ${annotation.line + 1}`); });
      /**
       * How the annotation shows: the computed style of the span that holds it alone (a decoration's), or, without one
       * (shown as it is: no decoration), of the span holding it with its neighbours; null when no line on screen has it.
       */
      const annotationStyle = () => editor.locator('.view-line span span').evaluateAll((spans, want) => {
        const text = (x) => (x.textContent ?? '').replace(/\u00a0/g, ' ');
        const el = spans.find((x) => text(x) === want) ?? spans.find((x) => text(x).includes(want));
        if (!el) return null;
        const cs = getComputedStyle(el);
        return { alone: text(el) === want, opacity: Number(cs.opacity), display: cs.display, shown: el.getBoundingClientRect().width > 0 };
      }, CAPTIONS.annotation);
      const eye = page.locator('.editor-group-container.active .editor-actions .action-label[aria-label^="Dim, Hide or Show Annotations"]').first();
      let st = null;
      await waitFor(`"${CAPTIONS.annotation}" dimmed`, 10_000, async () => (st = await annotationStyle()) && st.alone && st.opacity < 0.75, 250)
        .catch(() => { throw new Error(`"${CAPTIONS.annotation}" is not dimmed (style ${JSON.stringify(st)})`); });
      const dimmed = st;
      await sleep(300);
      await page.screenshot({ path: CAPTIONS_DIMMED_SCREENSHOT, timeout: 30_000 });
      await eye.click({ timeout: 5_000 });
      await waitFor(`"${CAPTIONS.annotation}" hidden`, 10_000, async () => (st = await annotationStyle()) && st.alone && (st.display === 'none' || !st.shown), 250)
        .catch(() => { throw new Error(`the eye did not hide "${CAPTIONS.annotation}" (style ${JSON.stringify(st)})`); });
      await sleep(300);
      await page.screenshot({ path: CAPTIONS_HIDDEN_SCREENSHOT, timeout: 30_000 });
      await eye.click({ timeout: 5_000 });
      await waitFor(`"${CAPTIONS.annotation}" shown as it is`, 10_000, async () => (st = await annotationStyle()) && st.opacity === 1 && st.display !== 'none' && st.shown, 250)
        .catch(() => { throw new Error(`the eye did not show "${CAPTIONS.annotation}" again (style ${JSON.stringify(st)})`); });
      await eye.click({ timeout: 5_000 }); // back to the default: dimmed
      await waitFor(`"${CAPTIONS.annotation}" dimmed again`, 10_000, async () => (st = await annotationStyle()) && st.alone && st.opacity < 0.75, 250);
      console.log(`     ${logLine.replace(/^.*?opened/, 'opened').trim()}: "${heading}"; ${lines.filter((l) => /^¶ /.test(l)).length} headers on screen; "${CAPTIONS.annotation}" opacity ${dimmed.opacity} → hidden → shown → dimmed`);
    });

    // 12. a marker without evidence: flagged in the tree; clicking it falls back to a search of its text
    await check('an ungrounded marker is flagged, and opening it falls back to a search of its text', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const u = mx.ungrounded;
      if (!u) throw new Error('expected.json has no markers.ungrounded');
      const markerFile = path.join(folder, '.marker-research', 'markers', `${u.item}.json`);
      const record = JSON.parse(fs.readFileSync(markerFile, 'utf8'));
      const id = await webview.locator(`li.item[data-item-id="${u.item}"] li.marker[data-kind="${u.kind}"]`).first().getAttribute('data-marker-id');
      const lists = [record.transcript_summary, record.comments_summary].filter(Boolean).flatMap((x) => Object.values(x).filter(Array.isArray));
      let edited = 0;
      let wasLine = -1; // where its evidence was: the search should land there too
      for (const list of lists) for (const m of list) if (m && m.id === id) { wasLine = m.evidence[0]?.source.startLine ?? -1; m.evidence = []; m.grounded = false; edited++; }
      if (!edited) throw new Error(`marker ${id} not in ${markerFile}`);
      fs.writeFileSync(markerFile, JSON.stringify(record, null, 1));
      // Index Corpus again: the edited file has a valid cache key, so it is read as it is, not regenerated
      await runFromPalette('Marker Research: Index Corpus');
      const marker = webview.locator(`li.marker[data-marker-id="${id}"]`);
      await waitFor(`.marker-ungrounded on ${id}`, 15_000, async () => (await marker.locator('.marker-ungrounded').count()) > 0, 300);
      const flagged = await webview.locator('li.marker .marker-ungrounded').count();
      if (flagged !== 1) throw new Error(`${flagged} .marker-ungrounded, expected exactly 1`);
      const item = webview.locator(`li.item[data-item-id="${u.item}"]`);
      if (!(await item.locator(':scope > details').evaluate((d) => d.open))) await item.locator(':scope > details > summary .item-title').click();
      const group = marker.locator('xpath=ancestor::details[1]');
      if (!(await group.evaluate((d) => d.open))) await group.locator(':scope > summary').click();
      await marker.click();
      const tab = page.locator('.editor-group-container.active .tab.active');
      const want = path.basename(u.file);
      await waitFor(`the active editor tab "${want}"`, 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes(want), 200)
        .catch(async (e) => { throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})`); });
      // A toast, or (when VS Code already moved it there, e.g. under load) the notification center.
      const note = await waitFor('a notification about the missing evidence', 5_000, async () => (await notifications()).find((t) => /no evidence span/.test(t)), 200)
        .catch(async (e) => {
          await runFromPalette('Notifications: Show Notifications');
          const center = (await page.locator('.notifications-center .notification-list-item-message').allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
          await page.keyboard.press('Escape');
          const found = center.find((t) => /no evidence span/.test(t));
          if (!found) throw new Error(`${firstLine(e)}; the notification center holds ${JSON.stringify(center)}`);
          return found;
        });
      const ln = (await page.locator('[id="status.editor.selection"]').innerText()).replace(/\s+/g, ' ').trim();
      if (Number(/Ln (\d+)/.exec(ln)?.[1]) !== wasLine + 1) throw new Error(`status bar "${ln}": the search match is not the line the evidence was on (${wasLine + 1})`);
      console.log(`     ${id} → ${want} "${ln}"; "${note}"`);
    });

    // 13. Set API Key / Clear API Key: SecretStorage only; the key never reaches a log or the settings
    await check('Set API Key stores the key in secret storage (not in logs or settings); Clear API Key removes it', async () => {
      if (!activated) throw new Error('extension not activated');
      const key = `sk-e2e-${Date.now().toString(36)}-do-not-log`;
      const input = page.locator('.quick-input-widget input');
      const logText = () => outputChannelLogs(dirs.data).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
      const paletteRun = async (label) => {
        await page.keyboard.press('F1');
        await input.first().waitFor({ state: 'visible', timeout: 5_000 });
        await input.first().fill(`>${label}`);
        await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: label }).first().waitFor({ state: 'visible', timeout: 10_000 });
        await page.keyboard.press('Enter');
      };
      await paletteRun('Marker Research: Set API Key');
      const pw = page.locator('.quick-input-widget input[type="password"]');
      await pw.waitFor({ state: 'visible', timeout: 5_000 }).catch((e) => { throw new Error(`no password input box (${firstLine(e)})`); });
      await pw.fill(key);
      await page.keyboard.press('Enter');
      await waitFor('"API key stored in secret storage" in the log', 10_000, () => logText().includes('API key stored in secret storage'), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const leaks = [...listFiles(path.join(dirs.data, 'logs')), path.join(dirs.data, 'User', 'settings.json'), path.join(folder, '.vscode', 'settings.json')]
        .filter((f) => { try { return fs.readFileSync(f, 'utf8').includes(key); } catch { return false; } });
      if (leaks.length) throw new Error(`the API key is written in ${leaks.map((f) => path.relative(RUN, f)).join(', ')}`);
      await paletteRun('Marker Research: Clear API Key');
      const remove = page.locator('.monaco-dialog-box .monaco-button').filter({ hasText: 'Remove' }).first();
      await remove.waitFor({ state: 'visible', timeout: 5_000 }).catch((e) => { throw new Error(`no "Remove" confirmation (${firstLine(e)})`); });
      await remove.click();
      await waitFor('"API key removed from secret storage" in the log', 10_000, () => logText().includes('API key removed from secret storage'), 200);
    });

    // 14. research: "Run Research" from the palette (extractive, default settings: offline), every plan step goes to done in the sidebar
    const rx = expected.research ?? null;
    let runInfo = null; // { runId, runDir, steps }
    const researchDone = await check('command palette: Marker Research: Run Research — every li.step reaches data-status="done"', async () => {
      if (!viewOpen) throw new Error('view did not open');
      if (!rx) throw new Error('expected.json has no "research"');
      const t0 = Date.now();
      const input = page.locator('.quick-input-widget input');
      await page.keyboard.press('F1');
      await input.first().waitFor({ state: 'visible', timeout: 5_000 });
      await input.first().fill('>Marker Research: Run Research');
      await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Marker Research: Run Research' }).first().waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Enter');
      // the goal picker: its first entry is the automatic goal (nothing planned yet)
      const auto = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: rx.goalPick });
      await auto.first().waitFor({ state: 'visible', timeout: 10_000 })
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`no "${rx.goalPick}" in the goal picker (${firstLine(e)})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      await page.keyboard.press('Enter');
      await input.first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
      // live statuses seen on the way (the e2e polls the DOM; fast steps may jump straight to done)
      const seen = new Set();
      const steps = research.locator('li.step[data-step-id][data-status]');
      let statuses = [];
      await waitFor('every li.step with data-status="done"', rx.timeoutSeconds * 1000, async () => {
        statuses = await steps.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')));
        for (const st of statuses) seen.add(st);
        if (statuses.includes('failed')) throw Object.assign(new Error(`a step failed: ${JSON.stringify(statuses)}`), { fatal: true });
        const busy = await research.locator('#research').getAttribute('data-busy').catch(() => 'x');
        return statuses.length >= rx.minSteps && statuses.every((st) => st === 'done') && !busy;
      }, 150).catch(async (e) => {
        const errs = await shownErrors();
        const msg = await research.locator('#research-status').innerText().catch(() => '');
        throw new Error(`${firstLine(e)}; statuses ${JSON.stringify(statuses)}; #research-status "${msg}"${errs.length ? `; ${errs.join(' | ')}` : ''}`);
      });
      const runId = await research.locator('.run[data-run-id]').getAttribute('data-run-id');
      const runDir = path.join(folder, '.marker-research', 'runs', runId);
      const manifest = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8'));
      if (manifest.engine !== rx.engine) throw new Error(`run.json engine "${manifest.engine}", expected "${rx.engine}"`);
      const ids = await steps.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-step-id')));
      const planned = JSON.parse(fs.readFileSync(path.join(runDir, 'plan.json'), 'utf8')).steps.map((st) => st.step_id);
      if (JSON.stringify(ids) !== JSON.stringify(planned)) throw new Error(`li.step ids ${JSON.stringify(ids)} are not plan.json's ${JSON.stringify(planned)}`);
      const requests = (await research.locator('li.step .step-requests').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      // The plan's coverage is said above its steps: every item of the goal's scope, or how many are not covered and why.
      const planJson = JSON.parse(fs.readFileSync(path.join(runDir, 'plan.json'), 'utf8'));
      const scope = planJson.scope_item_ids?.length ?? 0;
      const left = (planJson.not_covered ?? []).length;
      const coverage = (await research.locator('.run .run-coverage').first().innerText({ timeout: 5_000 }).catch(() => '')).trim();
      const want = left ? `Covers ${scope - left} of ${scope} item` : `Covers all ${scope} item`;
      if (!scope || !coverage.startsWith(want)) throw new Error(`the run's coverage line is "${coverage}", expected it to start with "${want}" (plan.json scope ${scope}, not covered ${left})`);
      runInfo = { runId, runDir, steps: ids.length };
      console.log(`     run ${runId}: ${ids.length} steps done in ${secs(t0)} s (statuses seen ${JSON.stringify([...seen])}); ${manifest.status}; "${coverage}"; requests: ${JSON.stringify(requests.slice(0, 3))}`);
    });

    // 15. Open Report: report.md of that run, with numbered citations
    let report = null; // { text, citeLine, citeCol }
    const reportOpen = await check('command palette: Marker Research: Open Report shows report.md with [1]', async () => {
      if (!researchDone) throw new Error('research did not finish');
      await runFromPalette('Marker Research: Open Report');
      // With several runs it asks which report: the one the chat is about.
      const picker = page.locator('.quick-input-widget');
      if (await picker.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false)) {
        await page.keyboard.insertText(chatRun.runId);
        await sleep(300);
        await page.keyboard.press('Enter');
      }
      const tab = page.locator('.editor-group-container.active .tab.active');
      await waitFor('the active editor tab "report.md"', 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes('report.md'), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const text = fs.readFileSync(path.join(runInfo.runDir, 'report.md'), 'utf8');
      const lines = text.split(/\r?\n/);
      const citeLine = lines.findIndex((l) => /(?<!\\)\[1\](?!\()/.test(l) && !/^\s*\[1\]:/.test(l));
      if (citeLine < 0) throw new Error('report.md has no [1]');
      const citeCol = /(?<!\\)\[1\](?!\()/.exec(lines[citeLine]).index;
      const shown = (await page.locator('.editor-group-container.active .monaco-editor .view-lines').innerText()).replace(/\u00a0/g, ' ');
      if (!shown.includes('[1]')) throw new Error('the editor does not show "[1]"');
      const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').innerText().catch(() => '')).replace(/\s+/g, ' ');
      if (!crumbs.includes(runInfo.runId)) throw new Error(`breadcrumbs "${crumbs}" do not name the run ${runInfo.runId}`);
      report = { text, citeLine, citeCol };
      console.log(`     report.md of ${runInfo.runId}: ${lines.length} lines; first [1] at ${citeLine + 1}:${citeCol + 1}`);
    });

    // 16. the citation is a document link (language server) with a hover; following it opens the cited span
    await check('citation [1] is a link with a hover; following it opens the cited file at the cited line', async () => {
      if (!reportOpen) throw new Error('no report open');
      const sources = JSON.parse(fs.readFileSync(path.join(runInfo.runDir, 'report.sources.json'), 'utf8'));
      const span = sources.citations.find((c) => c.number === 1)?.span;
      if (!span) throw new Error('report.sources.json has no citation 1');
      const src = span.source;
      const editor = page.locator('.editor-group-container.active .monaco-editor').first();
      await waitFor('document links (.detected-link) in report.md', 15_000, async () => (await editor.locator('.detected-link').count()) > 0, 250)
        .catch(() => { throw new Error('no .detected-link in the report editor: the language server served no document links'); });
      // cursor onto [1]: Go to Line/Column "line:col" (inside the brackets)
      await editor.locator('.view-lines').click();
      await page.keyboard.press('Control+g');
      const input = page.locator('.quick-input-widget input');
      await input.first().waitFor({ state: 'visible', timeout: 5_000 });
      await input.first().fill(`:${report.citeLine + 1}:${report.citeCol + 2}`);
      await page.keyboard.press('Enter');
      await input.first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
      // hover: item title / file:lines / quote
      await page.keyboard.press('Control+k');
      await page.keyboard.press('Control+i');
      // the language server's hover: file and lines, and the quoted span (its first words, as in the original file)
      const original = fs.readFileSync(path.join(folder, src.file), 'utf8').split(/\r?\n/);
      // (the span's own text: a one-line span ends at its end column, not at the end of the file's line)
      const quoteStart = original[src.startLine].slice(src.startColumn, src.endLine === src.startLine ? src.endColumn : undefined).replace(/\s+/g, ' ').trim().slice(0, 24);
      let hoverText = '';
      await waitFor('a hover on [1] naming the cited file and quoting the span', 10_000, async () => {
        hoverText = (await page.locator('.monaco-hover:not(.hidden)').first().innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
        return hoverText.includes(`${src.file}:${src.startLine + 1}`) && hoverText.includes(quoteStart);
      }, 250).catch(() => { throw new Error(`hover text "${hoverText.slice(0, 300)}" does not name ${src.file}:${src.startLine + 1} and quote "${quoteStart}"`); });
      await page.keyboard.press('Escape');
      // follow the link: "Open Link" (editor.action.openLink) with the cursor on it, as Ctrl+click does
      await runFromPalette('Open Link');
      const tab = page.locator('.editor-group-container.active .tab.active');
      const want = path.basename(src.file);
      await waitFor(`the active editor tab "${want}"`, 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes(want), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)} (tab: ${JSON.stringify(await tab.innerText().catch(() => ''))})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').innerText().catch(() => '')).replace(/\s+/g, ' ');
      const dir = path.dirname(src.file);
      if (dir !== '.' && !crumbs.includes(dir)) throw new Error(`breadcrumbs "${crumbs}" do not name ${dir}`);
      const selection = page.locator('[id="status.editor.selection"]');
      let text = '';
      const lines = new Set([src.startLine + 1, src.endLine + 1]);
      await waitFor(`status bar "Ln ${src.startLine + 1}…"`, 10_000, async () => {
        text = (await selection.innerText({ timeout: 1_000 })).replace(/\s+/g, ' ').trim();
        const ln = /Ln (\d+), Col (\d+)/.exec(text);
        return ln && lines.has(Number(ln[1]));
      }, 200).catch(() => { throw new Error(`status bar says "${text}", the citation spans lines ${src.startLine + 1}-${src.endLine + 1} of ${src.file}`); });
      const nonEmpty = src.startLine !== src.endLine || src.startColumn !== src.endColumn;
      if (nonEmpty && !/selected/.test(text)) throw new Error(`status bar "${text}": the cited span is not selected`);
      const lineNumbers = await page.locator('.editor-group-container.active .monaco-editor .margin-view-overlays .line-numbers').allInnerTexts();
      if (!lineNumbers.map((t) => t.trim()).includes(String(src.startLine + 1))) throw new Error(`line ${src.startLine + 1} is not in view`);
      console.log(`     [1] → ${src.file}:${src.startLine + 1}:${src.startColumn + 1}-${src.endLine + 1}:${src.endColumn + 1}: "${text}"; hover "${hoverText.slice(0, 160)}…"`);
    });
    await check('screenshot test-results/e2e/research.png (research section, cited span open)', async () => {
      fs.mkdirSync(path.dirname(RESEARCH_SCREENSHOT), { recursive: true });
      await research.locator('#research').evaluate((e) => e.scrollIntoView({ block: 'start' })).catch(() => {});
      await sleep(300);
      await page.screenshot({ path: RESEARCH_SCREENSHOT, timeout: 30_000 });
    });

    // 18. the sidebar's own flow: Discover Goals, Plan a goal (the plan shown for review, steps pending), then Run Research runs that plan
    let sidebarRun = null; // { plannedId }: the planned run check 18 ran to done
    await check('sidebar: Discover Goals → Plan a goal (steps pending) → Run Research runs that plan to done', async () => {
      if (!researchDone) throw new Error('research did not finish');
      const status = research.locator('#research-status');
      await research.locator('#discover-goals').click();
      await waitFor('"goals proposed" in #research-status', 15_000, async () => /goals? proposed/.test(await status.innerText()), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)} (#research-status "${await status.innerText().catch(() => '')}")${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const goals = await research.locator('li.goal[data-goal-id]').count();
      if (!goals) throw new Error('no li.goal after Discover Goals');
      const goalTitle = (await research.locator('li.goal .goal-title').first().innerText()).trim();
      await research.locator('li.goal button.goal-plan').first().click();
      const run = research.locator('.run[data-run-id]');
      await waitFor('a planned run shown', 15_000, async () => (await run.getAttribute('data-run-status')) === 'planned' && (await run.getAttribute('data-run-id')) !== runInfo.runId, 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const plannedId = await run.getAttribute('data-run-id');
      const pending = await research.locator('li.step').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')));
      if (!pending.length || pending.some((st) => st !== 'pending')) throw new Error(`planned steps ${JSON.stringify(pending)}, expected all pending`);
      const shownGoal = (await run.locator('.run-goal').innerText()).trim();
      if (shownGoal !== goalTitle) throw new Error(`planned run goal "${shownGoal}", picked "${goalTitle}"`);
      await research.locator('#run-research').click();
      await waitFor(`run ${plannedId} done`, 60_000, async () => {
        const sts = await research.locator('li.step').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')));
        return (await run.getAttribute('data-run-id')) === plannedId && (await run.getAttribute('data-run-status')) === 'done' && sts.every((st) => st === 'done');
      }, 200).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const report = path.join(folder, '.marker-research', 'runs', plannedId, 'report.md');
      if (!fs.existsSync(report)) throw new Error(`${report} missing`);
      const earlier = await research.locator('li.run-entry[data-run-id]').count();
      console.log(`     ${goals} goals; planned ${plannedId} (${pending.length} steps pending) for "${goalTitle}", then ran it to done; ${earlier} earlier run(s) listed`);
      sidebarRun = { plannedId };
    });

    // 18a. notifications that end (issue 12, item 8): once work is over, its progress notification is gone, and no
    //      notification still offers "Run Research" for a run that is no longer waiting to run
    const runsDir = path.join(folder, '.marker-research', 'runs');
    /** The status in run.json of `runId` (undefined: no such run). */
    const runStatusOnDisk = (runId) => { try { return JSON.parse(fs.readFileSync(path.join(runsDir, runId, 'run.json'), 'utf8')).status; } catch { return undefined; } };
    /** The notification toasts on screen: message, buttons, and whether a progress bar is running in it. */
    const visibleToasts = () => page.locator('.notifications-toasts .notification-toast').evaluateAll((ts) => ts
      .filter((t) => t.checkVisibility())
      .map((t) => {
        const bar = t.querySelector('.monaco-progress-container');
        return {
          message: (t.querySelector('.notification-list-item-message')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
          buttons: [...t.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => (b.textContent ?? '').trim()),
          progress: !!bar && bar.checkVisibility() && !bar.classList.contains('done'),
        };
      })).catch(() => []);
    /** What is wrong with the toasts now: progress bars still running, "Run Research" offered for runs that are not planned. */
    const staleToasts = async (progressToo = true) => {
      const toasts = await visibleToasts();
      const stale = [];
      for (const t of toasts) {
        if (progressToo && t.progress) stale.push(`progress still shown: "${t.message}"`);
        if (t.buttons.includes('Run Research')) {
          const runId = /\(run ([^)\s]+)\)/.exec(t.message)?.[1];
          const status = runId ? runStatusOnDisk(runId) : undefined;
          if (status !== 'planned') stale.push(`"${t.message}" [${t.buttons.join('] [')}] — run ${runId ?? '?'} is ${status ?? 'not found'}`);
        }
      }
      return { toasts, stale };
    };
    /** Waits (bounded) until no toast is stale; throws with what is shown when one stays. */
    const expectToastsEnded = async (after, progressToo = true) => {
      let seen = { toasts: [], stale: [] };
      await waitFor(`the notifications of ${after} to end`, PROGRESS_CLOSE_MS, async () => { seen = await staleToasts(progressToo); return !seen.stale.length; }, 200)
        .catch(() => { throw new Error(`${PROGRESS_CLOSE_MS / 1000} s after ${after}: ${seen.stale.join('; ')}`); });
      return seen.toasts;
    };
    const logLines = (re) => outputLines().filter((l) => re.test(l)).length;
    await check('notifications end with their work: after Plan → Run no progress toast stays and no toast offers "Run Research" for the finished run; the same after Generate Markers and Index Corpus', async () => {
      if (!sidebarRun) throw new Error('the sidebar did not plan and run a goal');
      const problems = []; // every phase runs; what stayed is reported together
      const show = (ts) => (ts.length ? ts.map((t) => `"${t.message.slice(0, 70)}"${t.buttons.length ? ` [${t.buttons.join('] [')}]` : ''}`).join(', ') : 'none');
      const phase = async (after, start) => {
        if (start) await start();
        return expectToastsEnded(after).then(show, (e) => { problems.push(firstLine(e)); return 'stale'; });
      };
      // the run of check 18 (planned, then run from the sidebar) has just finished
      const afterRun = await phase(`run ${sidebarRun.plannedId} finished`);
      fs.mkdirSync(path.dirname(NOTIFICATIONS_SCREENSHOT), { recursive: true });
      await page.screenshot({ path: NOTIFICATIONS_SCREENSHOT, timeout: 30_000 });
      // Generate Markers (extractive, nothing changed): its progress toast is gone once it has logged its summary
      const markersLine = /markers \([^)]*\): \d+ items — /;
      const afterGenerate = await phase('Generate Markers finished', async () => {
        const before = logLines(markersLine);
        await runFromPalette('Marker Research: Generate Markers');
        await waitFor('the "markers (…): N items — …" log line of Generate Markers', 60_000, () => logLines(markersLine) > before, 200)
          .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      });
      // Index Corpus: its progress toast is gone once the corpus is indexed
      const afterIndex = await phase('Index Corpus finished', async () => {
        const before = logLines(/indexed \d+ items/);
        await runFromPalette('Marker Research: Index Corpus');
        await waitFor('the "indexed N items" log line of Index Corpus', 60_000, () => logLines(/indexed \d+ items/) > before, 200)
          .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      });
      console.log(`     toasts after run ${sidebarRun.plannedId}: ${afterRun}`);
      console.log(`     after Generate Markers: ${afterGenerate}; after Index Corpus: ${afterIndex}`);
      if (problems.length) throw new Error(problems.join(' | '));
    });

    // 18c. Plan → Run with a different goal (issue 12): Run Research asks first (a modal): Cancel starts nothing;
    //      "Start a New Run" runs the new goal as a new run, and the reviewed plan stays planned
    await check('sidebar: a goal planned, then Run Research with a different goal typed asks first (modal: Run the Planned Run / Start a New Run / Cancel); Cancel starts nothing; Start a New Run makes a new run and the plan stays planned', async () => {
      if (!sidebarRun) throw new Error('the sidebar did not plan and run a goal');
      const t0 = Date.now();
      const runEl = research.locator('.run[data-run-id]');
      const runIds = () => new Set(fs.readdirSync(runsDir).filter((d) => fs.existsSync(path.join(runsDir, d, 'run.json'))));
      // plan a proposed goal (the second one: check 18 ran the first)
      await research.locator('#research').evaluate((e) => e.scrollIntoView({ block: 'start' })).catch(() => {});
      const goalsShown = await research.locator('li.goal[data-goal-id]').count();
      if (!goalsShown) throw new Error('no li.goal to plan (Discover Goals ran in check 18)');
      const goal = research.locator('li.goal[data-goal-id]').nth(Math.min(1, goalsShown - 1));
      const plannedGoal = (await goal.locator('.goal-title').innerText()).trim();
      const before = runIds();
      await goal.locator('button.goal-plan').click();
      await waitFor('a new planned run shown', 30_000, async () => {
        const id = await runEl.getAttribute('data-run-id', { timeout: 1_000 });
        return !before.has(id) && (await runEl.getAttribute('data-run-status', { timeout: 1_000 })) === 'planned' && !(await research.locator('#research').getAttribute('data-busy'));
      }, 200).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const plannedId = await runEl.getAttribute('data-run-id');
      // a different goal in the goal box, then Run Research
      let newGoal = 'How do freight costs change coffee prices?';
      if (newGoal.toLowerCase() === plannedGoal.toLowerCase()) newGoal = 'What do viewers say about bike lanes?';
      const input = research.locator('#goal-input');
      await input.fill(newGoal);
      const runBtn = research.locator('#run-research');
      const runTitle = (await runBtn.getAttribute('title')) ?? '';
      const dialog = page.locator('.monaco-dialog-box');
      const button = (label) => dialog.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) }).first();
      const openModal = async () => {
        await runBtn.click();
        await dialog.first().waitFor({ state: 'visible', timeout: 15_000 })
          .catch(async (e) => { throw new Error(`no modal dialog after Run Research with a different goal (${firstLine(e)}; toasts ${JSON.stringify((await visibleToasts()).map((t) => t.message))})`); });
        const text = (await dialog.first().innerText()).replace(/\s+/g, ' ').trim();
        const labels = (await dialog.locator('.monaco-button').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
        for (const want of ['Run the Planned Run', 'Start a New Run', 'Cancel']) {
          if (!labels.includes(want)) throw new Error(`the modal has no "${want}" button (buttons ${JSON.stringify(labels)}; "${text.slice(0, 200)}")`);
        }
        if (!text.includes(plannedId) || !text.includes(newGoal)) throw new Error(`the modal does not name the planned run ${plannedId} and the new goal: "${text.slice(0, 300)}"`);
        return { text, labels };
      };
      const first = await openModal();
      fs.mkdirSync(path.dirname(PLAN_RUN_MODAL_SCREENSHOT), { recursive: true });
      await page.screenshot({ path: PLAN_RUN_MODAL_SCREENSHOT, timeout: 30_000 });
      // Cancel: nothing starts — no new run, the plan stays planned and shown, the typed goal stays in the box
      await button('Cancel').click();
      await dialog.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => { throw new Error('the modal stays after Cancel'); });
      const afterPlan = runIds();
      const watchEnd = Date.now() + 2_000; // nothing is to happen: watch for a while that nothing does
      while (Date.now() < watchEnd) {
        const extra = [...runIds()].filter((id) => !afterPlan.has(id));
        if (extra.length) throw new Error(`Cancel started a run: ${extra.join(', ')}`);
        const busy = await research.locator('#research').getAttribute('data-busy');
        if (busy) throw new Error(`Cancel started something: the Research view is busy (${busy})`);
        if ((await runEl.getAttribute('data-run-id')) !== plannedId || (await runEl.getAttribute('data-run-status')) !== 'planned') throw new Error(`after Cancel the view shows ${await runEl.getAttribute('data-run-id')} (${await runEl.getAttribute('data-run-status')}), not the planned ${plannedId}`);
        await sleep(200);
      }
      if (runStatusOnDisk(plannedId) !== 'planned') throw new Error(`after Cancel run.json of ${plannedId} says ${runStatusOnDisk(plannedId)}`);
      if ((await input.inputValue()).trim() !== newGoal) throw new Error(`after Cancel the goal box holds "${await input.inputValue()}", not the typed goal`);
      // Start a New Run: a new run for the new goal runs to done; the reviewed plan stays planned
      await openModal();
      await button('Start a New Run').click();
      await dialog.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => { throw new Error('the modal stays after Start a New Run'); });
      let newId = null;
      let statuses = [];
      let shown = '';
      await waitFor('a new run for the new goal, done in the Research view', (rx?.timeoutSeconds ?? 60) * 1000, async () => {
        newId ??= [...runIds()].find((id) => !afterPlan.has(id)) ?? null;
        if (!newId) return false;
        const shownId = await runEl.getAttribute('data-run-id');
        if (shownId !== newId) { shown = `the view shows ${shownId}`; return false; }
        statuses = await research.locator('li.step[data-step-id][data-status]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')));
        if (statuses.includes('failed')) throw Object.assign(new Error(`a step of ${newId} failed: ${JSON.stringify(statuses)}`), { fatal: true });
        const busy = await research.locator('#research').getAttribute('data-busy');
        const runStatus = await runEl.getAttribute('data-run-status');
        shown = `run status ${runStatus} in the view, ${runStatusOnDisk(newId)} on disk; busy ${busy ?? 'no'}`;
        return runStatus === 'done' && statuses.length > 0 && statuses.every((st) => st === 'done') && !busy;
      }, 200).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}; new run ${newId ?? 'none'}, statuses ${JSON.stringify(statuses)}; ${shown}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const created = [...runIds()].filter((id) => !afterPlan.has(id));
      if (created.length !== 1) throw new Error(`Start a New Run made ${created.length} runs: ${created.join(', ')}`);
      const manifest = JSON.parse(fs.readFileSync(path.join(runsDir, newId, 'run.json'), 'utf8'));
      if (manifest.goal !== newGoal) throw new Error(`the new run ${newId} has the goal "${manifest.goal}", expected "${newGoal}"`);
      const shownGoal = (await runEl.locator('.run-goal').innerText()).trim();
      if (shownGoal !== newGoal) throw new Error(`the Research view shows the goal "${shownGoal}" for ${newId}`);
      if (runStatusOnDisk(plannedId) !== 'planned') throw new Error(`the planned run ${plannedId} is ${runStatusOnDisk(plannedId)} now, expected still planned`);
      const listed = research.locator(`li.run-entry[data-run-id="${plannedId}"]`);
      if (!(await listed.count())) throw new Error(`the planned run ${plannedId} is not in the list of earlier runs`);
      // (the list of earlier runs may be folded: its text content, not innerText)
      const listedText = ((await listed.first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
      if (!(await listed.first().locator('.run-status.run-planned').count())) throw new Error(`the runs list shows ${plannedId} as "${listedText}", not planned`);
      if (!(await research.locator(`[data-run-id="${newId}"]`).count())) throw new Error(`the new run ${newId} is not in the Research view`);
      // the progress notifications of the planning and of the new run ended with their work
      let running = [];
      await waitFor('no progress notification left', PROGRESS_CLOSE_MS, async () => !(running = (await visibleToasts()).filter((t) => t.progress)).length, 200)
        .catch(() => { throw new Error(`${PROGRESS_CLOSE_MS / 1000} s after ${newId} finished, progress still shown: ${running.map((t) => `"${t.message}"`).join(', ')}`); });
      console.log(`     planned ${plannedId} "${plannedGoal}"; Run Research with "${newGoal}" (button title "${runTitle}") asked: ${JSON.stringify(first.labels)}`);
      console.log(`     Cancel: no run; Start a New Run: ${newId} done (${statuses.length} steps) in ${secs(t0)} s; ${plannedId} still planned, listed as "${listedText}"`);
      // The plan's notification may still offer Run Research for the plan (it is still planned): that is right. Clear the toasts for the checks after.
      await runFromPalette('Notifications: Clear All Notifications').catch(() => {});
    });

    // 18b. Resume (SPEC §6): a cancelled run (a copy of the finished one, one step and the report gone) resumes from the sidebar to done
    await check('sidebar: Resume on a cancelled run runs its missing step — every li.step reaches data-status="done" and a report is written', async () => {
      if (!researchDone) throw new Error('research did not finish');
      const t0 = Date.now();
      const runsDir = path.join(folder, '.marker-research', 'runs');
      const resumeId = `${runInfo.runId}-resume`;
      const dir = path.join(runsDir, resumeId);
      fs.cpSync(runInfo.runDir, dir, { recursive: true, filter: (src) => path.basename(src) !== '.lock' });
      const manifestFile = path.join(dir, 'run.json');
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      const stepFiles = fs.readdirSync(path.join(dir, 'steps')).filter((f) => f.endsWith('.json')).sort();
      if (stepFiles.length < 1) throw new Error(`${runInfo.runDir}/steps has no step files`);
      const dropped = stepFiles[stepFiles.length - 1];
      fs.rmSync(path.join(dir, 'steps', dropped));
      fs.rmSync(path.join(dir, 'report.md'), { force: true });
      const droppedId = dropped.replace(/\.json$/, '');
      manifest.run_id = resumeId;
      manifest.status = 'cancelled';
      manifest.report = null;
      if (manifest.steps && droppedId in manifest.steps) manifest.steps[droppedId] = 'pending';
      fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
      // Index Corpus re-reads the runs (ResearchService.reload on every corpus load)
      await runFromPalette('Marker Research: Index Corpus');
      const entry = research.locator(`[data-run-id="${resumeId}"]`).first();
      await waitFor(`run ${resumeId} listed in the sidebar`, 20_000, async () => (await entry.count()) > 0, 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const earlier = research.locator('details.runs');
      if ((await earlier.count()) && !(await earlier.evaluate((d) => d.open))) await earlier.locator('summary').click();
      const resume = research.locator(`button.run-resume[data-run-id="${resumeId}"]`).first();
      await resume.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => { throw new Error(`no Resume button on the cancelled run ${resumeId}`); });
      const others = await research.locator('button.run-resume').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-run-id')));
      if (others.includes(runInfo.runId)) throw new Error(`the done run ${runInfo.runId} has a Resume button`);
      await resume.scrollIntoViewIfNeeded();
      await resume.click();
      const run = research.locator('.run[data-run-id]');
      const seen = new Set();
      let statuses = [];
      await waitFor(`run ${resumeId} resumed to done`, (rx?.timeoutSeconds ?? 60) * 1000, async () => {
        if ((await run.getAttribute('data-run-id')) !== resumeId) return false;
        statuses = await research.locator('li.step[data-step-id][data-status]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')));
        for (const st of statuses) seen.add(st);
        if (statuses.includes('failed')) throw Object.assign(new Error(`a step failed: ${JSON.stringify(statuses)}`), { fatal: true });
        const busy = await research.locator('#research').getAttribute('data-busy').catch(() => 'x');
        return (await run.getAttribute('data-run-status')) === 'done' && statuses.length === runInfo.steps && statuses.every((st) => st === 'done') && !busy;
      }, 150).catch(async (e) => {
        const errs = await shownErrors();
        const msg = await research.locator('#research-status').innerText().catch(() => '');
        throw new Error(`${firstLine(e)}; statuses ${JSON.stringify(statuses)}; #research-status "${msg}"${errs.length ? `; ${errs.join(' | ')}` : ''}`);
      });
      const after = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      if (after.status !== 'done') throw new Error(`run.json status "${after.status}" after Resume`);
      if (!fs.existsSync(path.join(dir, 'steps', dropped))) throw new Error(`steps/${dropped} was not written again`);
      const reportFile = path.join(dir, 'report.md');
      if (!fs.existsSync(reportFile) || !fs.readFileSync(reportFile, 'utf8').trim()) throw new Error(`${reportFile} missing or empty`);
      if (await research.locator(`button.run-resume[data-run-id="${resumeId}"]`).count()) throw new Error('the done run still has a Resume button');
      const msg = (await research.locator('#research-status').innerText().catch(() => '')).trim();
      console.log(`     ${resumeId} (cancelled, steps/${dropped} and report.md removed) resumed from the sidebar: ${statuses.length} steps done in ${secs(t0)} s (statuses seen ${JSON.stringify([...seen])}); report.md ${fs.statSync(reportFile).size} bytes; "${msg}"`);
    });

    // 19. markers as workspace symbols (language server): "#<word>" in Quick Open lists markers by id and text
    await check('workspace symbols: markers by id and text (Quick Open "#percent")', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const word = mx.filterWords[0];
      const input = page.locator('.quick-input-widget input');
      await page.keyboard.press('Control+p');
      await input.first().waitFor({ state: 'visible', timeout: 5_000 });
      await input.first().fill(`#${word}`);
      const rows = page.locator('.quick-input-list .monaco-list-row');
      let texts = [];
      try {
        await waitFor(`a marker symbol row for "${word}"`, 10_000, async () => {
          texts = (await rows.allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
          return texts.some((t) => /[\w-]+:[A-Z]:[0-9a-f]+: /.test(t) && t.toLowerCase().includes(word));
        }, 250);
      } catch {
        throw new Error(`no marker symbol for "${word}"; rows ${JSON.stringify(texts.slice(0, 5))}`);
      } finally {
        await page.keyboard.press('Escape');
      }
      console.log(`     "#${word}": ${texts.length} rows, e.g. ${JSON.stringify(texts.find((t) => /:[A-Z]:[0-9a-f]+: /.test(t)).slice(0, 100))}`);
    });

    // 20. Ask the corpus: the sidebar's Ask box — the understood query in one line, hits with the
    //     strategies that found them, follow-ups resolved from the session, the item in focus as the
    //     scope with a one-click switch to the whole corpus, hits opening their span; the palette command
    const ax = expected.ask ?? DEMO_ASK;
    const askQuery = webview.locator('#ask-query');
    /** Asks `question` in the Ask box (typed, then Enter; 'button': the Ask button; a function: it types and submits) and waits for the answer. */
    const askInBox = async (question, submit = 'enter') => {
      const before = await askQuery.getAttribute('data-ask-id', { timeout: 2_000 }).catch(() => null);
      if (typeof submit === 'function') await submit();
      else {
        await webview.locator('#ask-input').fill(question);
        if (submit === 'button') await webview.locator('#ask-button').click();
        else await webview.locator('#ask-input').press('Enter');
      }
      await waitFor(`the answer to "${question}"`, 30_000, async () => {
        const err = webview.locator('#ask-status.is-error:not([hidden])');
        if (await err.count()) throw Object.assign(new Error(`the Ask box shows an error: ${await err.innerText()}`), { fatal: true });
        const id = await askQuery.getAttribute('data-ask-id', { timeout: 1_000 }).catch(() => null);
        const busy = await webview.locator('#ask').getAttribute('data-busy', { timeout: 1_000 });
        return id !== null && id !== before && busy === null && (await askQuery.getAttribute('data-question')) === question.trim();
      }, 150).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}; #ask-status "${await webview.locator('#ask-status').innerText().catch(() => '')}"${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const line = (await webview.locator('#ask-understood').innerText()).replace(/\s+/g, ' ').trim();
      const summary = (await webview.locator('#ask-summary').innerText()).replace(/\s+/g, ' ').trim();
      const hits = await webview.locator('li.ask-hit').evaluateAll((ls) => ls.map((l) => ({
        item: l.getAttribute('data-item-id'), part: l.getAttribute('data-part'), where: l.getAttribute('data-where'), rank: Number(l.getAttribute('data-rank')),
        title: l.querySelector('.hit-title')?.textContent ?? '', meta: l.querySelector('.hit-meta')?.textContent ?? '', quote: l.querySelector('.hit-quote')?.textContent ?? '',
        badges: [...l.querySelectorAll('.hit-badge')].map((b) => b.textContent), height: l.getBoundingClientRect().height,
      })));
      return { line, summary, hits, intent: await askQuery.getAttribute('data-intent') };
    };
    const STRATEGIES = ['keyword', 'vector', 'entity', 'relation', 'marker', 'summary', 'reception', 'clip', 'citation'];
    /** Checks an answer against `want` ({ intent, entity, item, strategy }); returns the hit from `want.item`. */
    const expectAnswer = (what, r, want) => {
      const brief = () => `line "${r.line}"; hits ${JSON.stringify(r.hits.slice(0, 4).map((h) => `${h.item} ${h.meta} [${h.badges.join(',')}]`))}`;
      if (want.intent && r.intent !== want.intent) throw new Error(`${what}: intent "${r.intent}", expected "${want.intent}" (${brief()})`);
      if (want.intent && !r.line.startsWith(want.intent)) throw new Error(`${what}: the understood line "${r.line}" does not start with the intent`);
      if (want.entity && !r.line.toLowerCase().includes(want.entity.toLowerCase())) throw new Error(`${what}: the understood line "${r.line}" does not name ${want.entity}`);
      if (!r.hits.length) throw new Error(`${what}: no li.ask-hit (${brief()})`);
      const bad = r.hits.filter((h) => !h.badges.length || h.badges.some((b) => !STRATEGIES.includes(b)) || !h.title.trim() || !h.quote.trim());
      if (bad.length) throw new Error(`${what}: hits without a title, a quote or known strategy badges: ${JSON.stringify(bad.slice(0, 2))}`);
      const tall = r.hits.filter((h) => h.height > 48);
      if (tall.length) throw new Error(`${what}: hits taller than two lines (${tall.map((h) => `#${h.rank} ${Math.round(h.height)}px`).join(', ')})`);
      const hit = want.item ? r.hits.find((h) => h.item === want.item && (!want.strategy || h.badges.includes(want.strategy))) : r.hits[0];
      if (!hit) throw new Error(`${what}: no hit from ${want.item}${want.strategy ? ` found by "${want.strategy}"` : ''} (${brief()})`);
      if (want.entity && want.strategy === 'entity' && !hit.meta.includes(want.entity)) throw new Error(`${what}: the ${want.item} hit names "${hit.meta}", not ${want.entity}`);
      return hit;
    };
    /** Clicks the hit of rank `rank` and checks the editor: its file at its line, the span selected, its quote there. */
    const openHitAndCheck = async (hit, target = webview.locator(`li.ask-hit[data-rank="${hit.rank}"]`)) => {
      if (!hit.where) throw new Error(`hit #${hit.rank} has no data-where (unmapped span)`);
      const m = /^(.*):(\d+):(\d+)$/.exec(hit.where);
      if (!m) throw new Error(`hit #${hit.rank}: data-where "${hit.where}" is not file:line:column`);
      const [file, line, col] = [m[1], Number(m[2]), Number(m[3])];
      await target.click();
      // one wait for all three: a tab of the same name may be open already (another item's transcript.json), and large files take a moment
      const tab = page.locator('.editor-group-container.active .tab.active');
      const dir = path.dirname(file);
      let seen = { tab: '', crumbs: '', text: '' };
      await waitFor(`the editor on ${file} at "Ln ${line}, Col ${col}"`, 15_000, async () => {
        seen = {
          tab: await tab.innerText({ timeout: 1_000 }).catch(() => ''),
          crumbs: (await page.locator('.editor-group-container.active .breadcrumbs-control').innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' '),
          text: (await page.locator('[id="status.editor.selection"]').innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ').trim(),
        };
        return seen.tab.includes(path.basename(file)) && (dir === '.' || seen.crumbs.includes(dir)) && seen.text.startsWith(`Ln ${line}, Col ${col} `);
      }, 200).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}: tab ${JSON.stringify(seen.tab)}, breadcrumbs "${seen.crumbs}", status bar "${seen.text}"${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const text = seen.text;
      if (!/selected/.test(text)) throw new Error(`status bar "${text}": the hit's span is not selected`);
      const lineNumbers = await page.locator('.editor-group-container.active .monaco-editor .margin-view-overlays .line-numbers').allInnerTexts();
      if (!lineNumbers.map((t) => t.trim()).includes(String(line))) throw new Error(`line ${line} is not in view`);
      // the quote is the original's text, from the hit's start line on (its first word: a span may join turns that the file keeps apart)
      const head = (/^\S+/.exec(hit.quote.replace(/^…/, '').trim())?.[0] ?? '').slice(0, 12);
      const original = fs.readFileSync(path.join(folder, file), 'utf8').split(/\r?\n/);
      if (!original.slice(line - 1, line + 500).join('\n').includes(head)) throw new Error(`"${head}" (the hit's quote) is not in ${file} from line ${line} on`);
      const highlighted = await page.locator('.editor-group-container.active .monaco-editor .view-overlays .cdr').count();
      return `${hit.where} "${text}"${highlighted ? `, ${highlighted} highlight decorations` : ''}`;
    };

    let askWorks = false;
    let lastAnswer = null;
    await check('Ask box: a speaker question shows the understood line and hits with strategy badges; a follow-up resolves "he" from the session', async () => {
      if (!viewOpen) throw new Error('view did not open');
      await webview.locator('#ask-input').waitFor({ state: 'visible', timeout: 10_000 });
      await webview.locator('#ask').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      if (await webview.locator('#ask-chip').count()) await webview.locator('#ask-chip').click(); // the earlier checks opened items: ask the whole corpus
      await webview.locator('#ask-whole').waitFor({ state: 'visible', timeout: 5_000 });
      const r1 = await askInBox(ax.entity.question);
      const h1 = expectAnswer(`"${ax.entity.question}"`, r1, ax.entity);
      if (!/whole corpus/.test(r1.summary)) throw new Error(`#ask-summary "${r1.summary}" does not say "whole corpus"`);
      const r2 = await askInBox(ax.followUp.question, 'button');
      const h2 = expectAnswer(`follow-up "${ax.followUp.question}"`, r2, ax.followUp);
      const session = (await webview.locator('.ask-session').innerText().catch(() => '')).trim();
      if (!/2 earlier questions/.test(session)) throw new Error(`the scope line says "${session}" after two questions, expected "2 earlier questions"`);
      askWorks = true;
      lastAnswer = { r: r2, hit: h2 };
      console.log(`     "${ax.entity.question}" → ${r1.line}; ${r1.summary}; e.g. #${h1.rank} ${h1.title} · ${h1.meta} [${h1.badges.join(',')}] "${h1.quote.slice(0, 60)}"`);
      console.log(`     "${ax.followUp.question}" → ${r2.line}; ${r2.summary}; #${h2.rank} ${h2.meta} [${h2.badges.join(',')}]; "${session}"`);
    });

    await check('Ask box: clicking a hit opens the original file at its span, selected and in view', async () => {
      if (!askWorks) throw new Error('no answer in the Ask box');
      console.log(`     hit #${lastAnswer.hit.rank} → ${await openHitAndCheck(lastAnswer.hit)}`);
    });

    await check('Ask box: an answer of 2–6 cited sentences above the hits, each naming its item and speaker; a sentence opens its span', async () => {
      if (!askWorks) throw new Error('no answer in the Ask box');
      const question = ax.answer?.question ?? ax.entity.question;
      const r = await askInBox(question);
      const box = webview.locator('#ask-answer');
      await box.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => { throw new Error(`no #ask-answer for "${question}" (${r.line}; ${r.summary})`); });
      const sentences = await webview.locator('li.ask-answer-sentence').evaluateAll((ls) => ls.map((l) => ({
        rank: `answer ${l.getAttribute('data-n')}`, n: l.getAttribute('data-n'), where: l.getAttribute('data-where'),
        quote: l.querySelector('.ask-answer-text')?.textContent ?? '', who: l.querySelector('.ask-answer-who')?.textContent ?? '',
      })));
      if (sentences.length < 2 || sentences.length > 6) throw new Error(`the answer has ${sentences.length} sentences, expected 2–6: ${JSON.stringify(sentences)}`);
      const words = sentences.reduce((n, x) => n + (x.quote.match(/[\p{L}\p{N}]+/gu) ?? []).length, 0);
      if (words > 130) throw new Error(`the answer has ${words} words (budget 120)`);
      const nameless = sentences.filter((x) => !x.who.replace(/[—\s]/g, ''));
      if (nameless.length) throw new Error(`answer sentences that do not say who and where: ${JSON.stringify(nameless)}`);
      const [aBox, hBox] = [await box.boundingBox(), await webview.locator('#ask-hits').boundingBox()];
      if (!aBox || !hBox || aBox.y >= hBox.y) throw new Error(`the answer is not above the hits (answer at ${aBox?.y}, hits at ${hBox?.y})`);
      const head = (await webview.locator('.ask-answer-head').innerText()).replace(/\s+/g, ' ').trim();
      const pick = sentences[sentences.length > 1 ? 1 : 0];
      const opened = await openHitAndCheck(pick, webview.locator(`li.ask-answer-sentence[data-n="${pick.n}"]`));
      await box.evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: ASK_ANSWER_SCREENSHOT, timeout: 30_000 });
      console.log(`     "${question}" → "${head}": ${sentences.map((x) => `[${x.n}] "${x.quote.slice(0, 50)}"${x.who}`).join(' | ')}`);
      console.log(`     sentence ${pick.n} → ${opened}; screenshot ${path.relative(REPO, ASK_ANSWER_SCREENSHOT)}`);
    });

    await check('Ask box: limited to the item in focus ("Item: <title> ✕"); the chip switches to the whole corpus', async () => {
      if (!askWorks) throw new Error('no answer in the Ask box');
      const sc = ax.scoped;
      const item = webview.locator(`li.item[data-item-id="${sc.item}"]`);
      const summary = item.locator(':scope > details > summary .item-title');
      if (await item.locator(':scope > details').evaluate((d) => d.open)) await summary.click(); // closed first: opening it is what puts it in focus
      await summary.click();
      const chip = webview.locator(`#ask-chip[data-item-id="${sc.item}"]`);
      await chip.waitFor({ state: 'visible', timeout: 5_000 }).catch(async () => { throw new Error(`no "Item: …" chip for ${sc.item} after opening it (scope line "${await webview.locator('#ask-scope').innerText().catch(() => '')}")`); });
      const chipText = (await chip.innerText()).replace(/\s+/g, ' ').trim();
      const title = (await item.locator('.item-title').first().innerText()).trim();
      if (!chipText.includes(title) || !chipText.startsWith('Item:')) throw new Error(`chip "${chipText}", expected "Item: ${title} ✕"`);
      await webview.locator('#ask').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      const r = await askInBox(sc.question);
      const others = r.hits.filter((h) => h.item !== sc.item);
      if (!r.hits.length) throw new Error(`no hits in ${sc.item} for "${sc.question}" (line "${r.line}")`);
      if (others.length) throw new Error(`scoped to ${sc.item}, yet hits from ${JSON.stringify([...new Set(others.map((h) => h.item))])}`);
      if (!r.summary.includes(title)) throw new Error(`#ask-summary "${r.summary}" does not name the item`);
      // one click: the whole corpus, the same question again
      const before = await askQuery.getAttribute('data-ask-id');
      await chip.click();
      await waitFor('the whole-corpus answer after the chip', 30_000, async () => (await askQuery.getAttribute('data-ask-id')) !== before && (await webview.locator('#ask').getAttribute('data-busy')) === null, 150);
      if (!(await webview.locator('#ask-whole').isVisible())) throw new Error('no "Whole corpus" after clicking the chip');
      const wide = (await webview.locator('#ask-summary').innerText()).trim();
      if (!/whole corpus/.test(wide)) throw new Error(`#ask-summary "${wide}" after the chip`);
      const items = await webview.locator('li.ask-hit').evaluateAll((ls) => [...new Set(ls.map((l) => l.getAttribute('data-item-id')))]);
      console.log(`     chip "${chipText}": "${sc.question}" → ${r.line}; ${r.summary}; after ✕: ${wide} from ${JSON.stringify(items)}`);
    });

    await check('command palette: Marker Research: Ask the Corpus focuses the Ask box; a question typed there is answered', async () => {
      if (!askWorks) throw new Error('no answer in the Ask box');
      const pq = ax.palette;
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click().catch(() => {}); // focus elsewhere first
      await runFromPalette('Marker Research: Ask the Corpus');
      await waitFor('#ask-input focused', 10_000, async () => webview.locator('body').evaluate(() => document.hasFocus() && document.activeElement?.id === 'ask-input'), 200)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)} (active: ${await webview.locator('body').evaluate(() => document.activeElement?.id || document.activeElement?.tagName).catch(() => '?')})${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      const r = await askInBox(pq.question, async () => {
        await page.keyboard.press('Control+a');
        await page.keyboard.insertText(pq.question);
        await page.keyboard.press('Enter');
      });
      const hit = expectAnswer(`"${pq.question}"`, r, pq);
      lastAnswer = { r, hit };
      console.log(`     "${pq.question}" → ${r.line}; ${r.summary}; #${hit.rank} ${hit.title} · ${hit.meta} [${hit.badges.join(',')}] → ${await openHitAndCheck(hit)}`);
    });

    await check('Ask box: "What does [1] say?" resolves citation 1 of the newest report and opens its span', async () => {
      if (!askWorks) throw new Error('no answer in the Ask box');
      if (!reportOpen) throw new Error('no report was written earlier in this run');
      if (await webview.locator('#ask-chip').count()) await webview.locator('#ask-chip').click();
      const r = await askInBox('What does [1] say?');
      const hit = expectAnswer('"What does [1] say?"', r, { intent: 'citation_lookup', strategy: 'citation' });
      if (!hit.badges.includes('citation')) throw new Error(`the first hit's badges are ${JSON.stringify(hit.badges)}, expected "citation"`);
      console.log(`     → ${r.line}; #${hit.rank} ${hit.title} [${hit.badges.join(',')}] → ${await openHitAndCheck(hit)}`);
    });

    // 21b. a question about the caption item (issue 21): its top hit quotes whole sentences (the segmenter's, never a
    //      caption line) and opens in the readable view, the span highlighted inside its paragraph
    await check('Ask box: the top hit of a question about the caption transcript quotes whole sentences and opens inside its paragraph', async () => {
      if (!askWorks) throw new Error('no answer in the Ask box');
      if (!withCaptions) throw new Error('the caption item is only added to the demo corpus');
      if (await webview.locator('#ask-chip').count()) await webview.locator('#ask-chip').click();
      await webview.locator('#ask').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      const r = await askInBox(CAPTIONS.question);
      const top = r.hits[0];
      if (!top || top.item !== CAPTIONS.item) throw new Error(`the top hit for "${CAPTIONS.question}" is ${top ? `from ${top.item}` : 'missing'} (line "${r.line}")`);
      const quote = top.quote.trim();
      if (quote.startsWith('…')) throw new Error(`the quote starts inside a sentence: «${quote}»`);
      const body = quote.replace(/…$/, '').replace(/\s+/g, ' ').trim();
      const captionLines = fs.readFileSync(path.join(CAPTION_FIXTURES, CAPTIONS.item, 'transcript.txt'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
      if (body.split(' ').length < 8) throw new Error(`the quote has fewer than 8 words: «${quote}»`);
      if (captionLines.some((l) => l.includes(body))) throw new Error(`the quote is (part of) one caption line: «${quote}»`);
      const { sentences } = captionFixture();
      let whole = null;
      for (let k = 0; k < sentences.length && !whole; k++) {
        let run = '';
        for (let j = k; j < Math.min(sentences.length, k + 3) && !whole; j++) {
          run = run ? `${run} ${sentences[j]}` : sentences[j];
          if (run === body || (quote.endsWith('…') && run.startsWith(body))) whole = { from: k + 1, to: j + 1 };
        }
      }
      if (!whole) throw new Error(`the quote is not whole sentences of the transcript: «${quote}»`);
      // Opened in the readable view: the span highlighted inside its paragraph.
      setEvidenceView('readable');
      let opened = null;
      try {
        const seen = outputLines().length;
        for (let attempt = 1; !opened && attempt <= 8; attempt++) {
          await sleep(1000);
          await webview.locator(`li.ask-hit[data-rank="${top.rank}"]`).click();
          opened = await waitFor('a log line "opened … in the readable view"', 5_000, () => outputLines().slice(seen).find((l) => l.includes(`in the readable view of ${CAPTIONS.item} at `)) ?? null, 200).catch(() => null);
        }
        if (!opened) throw new Error(`clicking the hit did not open the readable view of ${CAPTIONS.item}`);
        const selection = page.locator('[id="status.editor.selection"]');
        let text = '';
        await waitFor('the hit\'s span selected', 10_000, async () => /selected/.test(text = (await selection.innerText({ timeout: 1_000 })).replace(/\s+/g, ' ')), 200)
          .catch(() => { throw new Error(`status bar "${text}"`); });
        const shown = (await page.locator('.editor-group-container.active .view-lines').innerText()).replace(/\s+/g, ' ');
        if (!shown.includes(body.split(' ').slice(0, 6).join(' '))) throw new Error(`the quote's start is not on screen in the readable view`);
        await sleep(300);
        fs.mkdirSync(path.dirname(ASK_CAPTIONS_SCREENSHOT), { recursive: true });
        await page.screenshot({ path: ASK_CAPTIONS_SCREENSHOT, timeout: 30_000 });
        console.log(`     "${CAPTIONS.question}" → #1 «${quote.slice(0, 90)}…» = sentences ${whole.from}–${whole.to} of ${sentences.length}; ${opened.replace(/^.*?opened/, 'opened')}; "${text.trim()}"`);
      } finally {
        setEvidenceView('original');
      }
    });

    await check('screenshot test-results/e2e/ask.png (Ask box with hits, a hit\'s span open)', async () => {
      fs.mkdirSync(path.dirname(ASK_SCREENSHOT), { recursive: true });
      await webview.locator('#ask').evaluate((e) => e.scrollIntoView({ block: 'start' })).catch(() => {});
      await sleep(300);
      await page.screenshot({ path: ASK_SCREENSHOT, timeout: 30_000 });
    });
    await (await import('./workbenchNotebookChecks.mjs')).workbenchNotebookChecks({ page, webview, check, runFromPalette, waitFor, sleep, shownErrors, folder, repo: REPO, firstLine, setEvidenceView, askInBox, askWorks, question: ax.answer?.question ?? ax.entity.question });

    // 22. the researcher's workspace (issue 12): locations, the walkthrough, export
    await check('marker locations read speaker · time, with file:line in the tooltip', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const rows = webview.locator(`li.item[data-item-id="${mx.open.item}"] li.marker`);
      const wheres = (await rows.locator('.marker-where').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      if (!wheres.length) throw new Error('no .marker-where');
      const bad = wheres.filter((w) => !/ · /.test(w) || /\.(?:vtt|json|jsonl|txt|srt):\d+/.test(w) || !/\b\d+:\d{2}\b|@\S+|turn \d+/.test(w));
      if (bad.length) throw new Error(`locations without speaker/time (or showing file:line): ${JSON.stringify(bad.slice(0, 3))}`);
      const tips = await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute('title') ?? ''} ${e.querySelector('[title]')?.getAttribute('title') ?? ''}`));
      if (!tips.some((t) => /\.(?:vtt|json|jsonl|txt|srt):\d+/.test(t))) throw new Error(`no file:line in the tooltips: ${JSON.stringify(tips.slice(0, 2))}`);
      console.log(`     ${wheres.slice(0, 3).join(' | ')}`);
    });
    await check('the filter folds traditional to simplified Chinese: "電動車" finds the 电动车 item', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const filter = webview.locator('input#filter');
      try {
        await filter.fill('電動車');
        await waitFor('the ev-winter-range item shown and others hidden', 5_000, async () => {
          const shown = await webview.locator('body').evaluate(() => [...document.querySelectorAll('li.item[data-item-id]')].filter((e) => !e.closest('[hidden]') && !e.hidden).map((e) => e.getAttribute('data-item-id')));
          return shown.includes('ev-winter-range') && shown.length < 5 ? shown : null;
        }, 200);
      } finally {
        await filter.fill('').catch(() => {});
      }
    });
    await check('command palette: Marker Research: Export Markers writes a CSV with every marker', async () => {
      if (!markersShown) throw new Error('no markers shown');
      const out = path.join(folder, `${path.basename(folder)}-markers.csv`);
      fs.rmSync(out, { force: true });
      await runFromPalette('Marker Research: Export Markers');
      // the save dialog (code-server's simple dialog: a quick input with the path) defaults to the corpus folder
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      // The simple dialog fills in the folder first, then the suggested name.
      let value = '';
      await waitFor('the suggested file name in the save dialog', 10_000, async () => (value = await input.inputValue()).endsWith(`${path.basename(folder)}-markers.csv`), 200)
        .catch(() => { throw new Error(`the dialog suggests "${value}"`); });
      await page.keyboard.press('Enter');
      await waitFor(`${out} written`, 10_000, () => fs.existsSync(out) && fs.statSync(out).size > 0, 200);
      const lines = fs.readFileSync(out, 'utf8').replace(/^\uFEFF/, '').split('\n').filter(Boolean);
      if (!/^item,item_title,kind,text,topic,speaker,time,file,line,quote/.test(lines[0] ?? '')) throw new Error(`header "${lines[0]}"`);
      const total = await markerRows.count();
      if (lines.length < total + 1) throw new Error(`${lines.length - 1} data lines for ${total} markers`);
      console.log(`     ${out}: ${lines.length - 1} markers`);
    });

    await check('command palette: Marker Research: Getting Started opens the walkthrough', async () => {
      await runFromPalette('Marker Research: Getting Started');
      const page1 = page.locator('.gettingStartedContainer');
      const steps = ['Open a corpus folder', 'Index the corpus', 'Read the markers', 'Run research', 'Use a model (optional)'];
      let text = '';
      await waitFor('the walkthrough "Get Started with Marker Research" with its five steps', 15_000, async () => {
        text = (await page1.innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ');
        return text.includes('Get Started with Marker Research') && steps.every((t) => text.includes(t));
      }, 300).catch(() => { throw new Error(`the page shows: ${text.slice(0, 300)}`); });
      await page.keyboard.press('Escape');
      console.log(`     ${steps.join(' · ')}`);
    });
    await (await import('./workbenchAcrossChecks.mjs')).workbenchAcrossChecks({ page, check, runFromPalette, waitFor, sleep, shownErrors, notifications, outputLines, folder, extId, repo: REPO, firstLine }); // issue 24: Across items panels, REFI-QDA export
    // 21. Follow-up chat: the Chat view (a second webview view of the container) about the finished
    //     run's report — streamed answers with [n] chips that open the cited span, a citation
    //     question showing the cited original inline, the conversation listed and reopened
    const cx = expected.chat ?? DEMO_CHAT;
    /** Waits for the active editor on `file` with the cursor at one-based `line`:`col` and a selection; returns the status bar text. */
    const editorAt = async (file, line, col) => {
      const tab = page.locator('.editor-group-container.active .tab.active');
      const dir = path.dirname(file);
      let seen = { tab: '', crumbs: '', text: '' };
      await waitFor(`the editor on ${file} at "Ln ${line}, Col ${col}"`, 15_000, async () => {
        seen = {
          tab: await tab.innerText({ timeout: 1_000 }).catch(() => ''),
          crumbs: (await page.locator('.editor-group-container.active .breadcrumbs-control').innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' '),
          text: (await page.locator('[id="status.editor.selection"]').innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ').trim(),
        };
        return seen.tab.includes(path.basename(file)) && (dir === '.' || seen.crumbs.includes(dir)) && seen.text.startsWith(`Ln ${line}, Col ${col} `);
      }, 200).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}: tab ${JSON.stringify(seen.tab)}, breadcrumbs "${seen.crumbs}", status bar "${seen.text}"${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      if (!/selected/.test(seen.text)) throw new Error(`status bar "${seen.text}": the cited span is not selected`);
      // (the editor scrolls to the selection a frame or two after the status bar shows it)
      let lineNumbers = [];
      await waitFor(`line ${line} in view`, 3_000, async () => {
        lineNumbers = (await page.locator('.editor-group-container.active .monaco-editor .margin-view-overlays .line-numbers').allInnerTexts()).map((t) => t.trim());
        return lineNumbers.includes(String(line));
      }, 100).catch(() => { throw new Error(`line ${line} is not in view (visible line numbers ${lineNumbers.slice(0, 5).join(',')}…)`); });
      return seen.text;
    };
    let chat = null; // the Chat view's content frame
    let chatRun = null; // { runId, goal, citations: Map<number, span> }
    /** Asks `question` in the Chat view (typed, Enter) and waits for its finished turn; returns what the turn shows. */
    const askInChat = async (question) => {
      const turns = chat.locator('li.chat-turn[data-turn]:not(.is-pending)');
      const before = await turns.count();
      let sawPending = false;
      await chat.locator('#chat-input').fill(question);
      await chat.locator('#chat-input').press('Enter');
      await waitFor(`the answer to "${question}" in the Chat view`, 30_000, async () => {
        const err = chat.locator('#chat-message.is-error:not([hidden])');
        if (await err.count()) throw Object.assign(new Error(`the Chat view shows an error: ${await err.innerText()}`), { fatal: true });
        if (await chat.locator('#chat-pending').count()) sawPending = true;
        const busy = await chat.locator('#chat').getAttribute('data-busy', { timeout: 1_000 });
        return busy === null && (await turns.count()) > before && (await turns.last().locator('.chat-q').innerText()).trim() === question;
      }, 100);
      const turn = turns.last();
      return {
        turn,
        sawPending,
        answer: (await turn.locator('.chat-a').innerText()).replace(/\s+/g, ' ').trim(),
        engine: await turn.getAttribute('data-engine'),
        mode: await turn.getAttribute('data-mode'),
        badge: (await turn.locator('.engine-badge').innerText().catch(() => '')).trim(),
        meta: (await turn.locator('.chat-meta-line').innerText().catch(() => '')).trim(),
        chips: await turn.locator('.chat-a button.cite-chip').evaluateAll((bs) => bs.map((b) => ({ n: Number(b.getAttribute('data-n')), where: b.getAttribute('data-where'), text: b.textContent }))),
      };
    };
    /** The `file:line:col` a citation's span starts at (one-based), as the chips say. */
    const whereOf = (span) => `${span.source.file}:${span.source.startLine + 1}:${span.source.startColumn + 1}`;

    const chatOpen = await check('Chat: "Ask about this report" on the finished run opens the Chat view about that run', async () => {
      if (!researchDone) throw new Error('research did not finish');
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click().catch(() => {});
      const runEl = research.locator('.run[data-run-id]');
      const runId = await runEl.getAttribute('data-run-id');
      if ((await runEl.getAttribute('data-run-status')) !== 'done') throw new Error(`the run shown (${runId}) is not done`);
      const runDir = path.join(folder, '.marker-research', 'runs', runId);
      const goal = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8')).goal;
      const sources = JSON.parse(fs.readFileSync(path.join(runDir, 'report.sources.json'), 'utf8'));
      chatRun = { runId, goal, citations: new Map(sources.citations.map((c) => [c.number, c.span])) };
      const askBtn = research.locator('#run-ask');
      await askBtn.scrollIntoViewIfNeeded();
      await askBtn.click();
      chat = await webviewWith('#chat-turns', 20_000).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      await waitFor(`#chat-about for run ${runId}`, 10_000, async () => (await chat.locator('#chat-about').getAttribute('data-run-id')) === runId, 200)
        .catch(async () => { throw new Error(`#chat-about says "${(await chat.locator('#chat-about').innerText().catch(() => '')).replace(/\s+/g, ' ')}", expected run ${runId}`); });
      const shownGoal = (await chat.locator('#chat-run-goal').innerText()).trim();
      const shownId = (await chat.locator('#chat-run-id').innerText()).trim();
      if (shownGoal !== goal || shownId !== runId) throw new Error(`the Chat view is about "${shownGoal}" (${shownId}), expected "${goal}" (${runId})`);
      await waitFor('#chat-input focused', 10_000, async () => chat.locator('body').evaluate(() => document.hasFocus() && document.activeElement?.id === 'chat-input'), 200)
        .catch(() => { throw new Error('the question box of the Chat view is not focused'); });
      // The Chat view has its own activity-bar container: the whole height of the side bar.
      const height = await chat.locator('body').evaluate(() => window.innerHeight);
      if (height < 400) throw new Error(`the Chat view is ${height}px tall; expected the side bar's height`);
      console.log(`     Chat view about "${shownGoal}" · ${shownId}; ${chatRun.citations.size} report citations; ${height}px tall`);
    });

    let chatAnswer = null;
    await check('Chat: a follow-up is answered from the report (extractive label), with [n] chips of the report\'s citations', async () => {
      if (!chatOpen) throw new Error('the Chat view did not open');
      const r = await askInChat(cx.followUp);
      if (!r.answer) throw new Error('the answer is empty');
      if (r.engine !== 'extractive' || r.badge !== 'extractive') throw new Error(`engine "${r.engine}", badge "${r.badge}": an offline answer must be labelled extractive`);
      if (r.mode !== 'report') throw new Error(`mode "${r.mode}" (${r.meta}), expected an answer from the report`);
      if (!r.chips.length) throw new Error(`no citation chips in "${r.answer.slice(0, 200)}"`);
      const bad = r.chips.filter((c) => !chatRun.citations.has(c.n) || c.where !== whereOf(chatRun.citations.get(c.n)) || c.text !== String(c.n));
      if (bad.length) throw new Error(`chips that are not the report's citations: ${JSON.stringify(bad.slice(0, 3))}`);
      const plain = await r.turn.locator('.chat-a').evaluate((e) => /\[\d+\]/.test([...e.childNodes].map((n) => n.nodeType === 3 ? n.textContent : '').join('')));
      if (plain) throw new Error('a [n] of the answer is left as text next to the chips');
      chatAnswer = r;
      const file = path.join(folder, '.marker-research', 'chats');
      const saved = listFiles(file).filter((f) => f.endsWith('.jsonl'));
      if (saved.length !== 1) throw new Error(`${saved.length} conversation files in ${file}, expected 1`);
      const lines = fs.readFileSync(saved[0], 'utf8').trim().split('\n');
      if (lines.length !== 2 || JSON.parse(lines[0]).runId !== chatRun.runId) throw new Error(`${saved[0]}: ${lines.length} lines, header ${lines[0].slice(0, 160)}`);
      console.log(`     "${cx.followUp}" → ${r.mode}, ${r.badge}${r.sawPending ? ', streamed (pending turn seen)' : ''}; chips ${JSON.stringify(r.chips.map((c) => c.n))}; "${r.answer.slice(0, 110)}…"; saved ${path.relative(folder, saved[0])}`);
    });

    await check('Chat: clicking a chip opens the cited span in the original file, selected and in view', async () => {
      if (!chatAnswer) throw new Error('no answer in the Chat view');
      const c = chatAnswer.chips[0];
      const src = chatRun.citations.get(c.n).source;
      await chatAnswer.turn.locator(`.chat-a button.cite-chip[data-n="${c.n}"]`).first().click();
      const text = await editorAt(src.file, src.startLine + 1, src.startColumn + 1);
      const highlighted = await page.locator('.editor-group-container.active .monaco-editor .view-overlays .cdr').count();
      console.log(`     chip [${c.n}] → ${c.where} "${text}"${highlighted ? `, ${highlighted} highlight decorations` : ''}`);
    });

    let citationTurn = null;
    await check(`Chat: "What does [${cx.citation}] say?" shows citation ${cx.citation}'s original inline, verbatim, its context dimmed`, async () => {
      if (!chatAnswer) throw new Error('no answer in the Chat view');
      const n = cx.citation;
      const span = chatRun.citations.get(n);
      if (!span) throw new Error(`the report has no citation [${n}]`);
      const r = await askInChat(`What does [${n}] say?`);
      if (r.mode !== 'citation') throw new Error(`mode "${r.mode}" (${r.meta}), expected a citation answer`);
      const loaded = r.turn.locator(`details.chat-loaded[data-n="${n}"]`);
      if (!(await loaded.count())) throw new Error(`no details.chat-loaded[data-n="${n}"] under the answer "${r.answer.slice(0, 160)}"`);
      if (!(await loaded.evaluate((d) => d.open))) throw new Error('the loaded original is collapsed');
      const cited = (await loaded.locator('mark.loaded-cited').innerText()).trim();
      const context = (await loaded.locator('.loaded-context').allInnerTexts()).join(' ').trim();
      const opacity = Number(await loaded.locator('.loaded-context').first().evaluate((e) => getComputedStyle(e).opacity).catch(() => '1'));
      if (!cited) throw new Error('the loaded original is empty');
      if (!context || !(opacity < 1)) throw new Error(`the context around the original is missing or not dimmed (opacity ${opacity})`);
      const norm = (t) => t.replace(/\s+/g, ' ').trim();
      const original = fs.readFileSync(path.join(folder, span.source.file), 'utf8').split(/\r?\n/).slice(span.source.startLine, span.source.endLine + 1).join('\n');
      if (!norm(original).includes(norm(cited))) throw new Error(`"${cited.slice(0, 80)}" is not the text of ${whereOf(span)} ("${norm(original).slice(0, 80)}")`);
      if (!r.chips.some((c) => c.n === n)) throw new Error(`the answer has no chip [${n}]`);
      // the original collapses (it is a <details>)
      await loaded.locator('summary').click();
      if (await loaded.evaluate((d) => d.open)) throw new Error('the loaded original does not collapse');
      await loaded.locator('summary').click();
      citationTurn = r;
      console.log(`     [${n}] → ${whereOf(span)}: «${cited.slice(0, 90)}»; ${context.length} chars of context (opacity ${opacity})`);
    });

    await check('screenshot test-results/e2e/chat.png (Chat view: a follow-up, a loaded original; fits, nothing overflows)', async () => {
      if (!chatOpen) throw new Error('the Chat view did not open');
      fs.mkdirSync(path.dirname(CHAT_SCREENSHOT), { recursive: true });
      await chat.locator('#chat-turns').evaluate((e) => { e.scrollTop = e.scrollHeight; });
      await sleep(300);
      await page.screenshot({ path: CHAT_SCREENSHOT, timeout: 30_000 });
      const layout = await chat.locator('body').evaluate(() => {
        const over = [...document.querySelectorAll('#chat *')].filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth}>${e.clientWidth}`);
        const form = document.querySelector('form.chat-form').getBoundingClientRect();
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, over, formBottom: form.bottom, height: window.innerHeight, width: window.innerWidth };
      });
      if (layout.page > 0) throw new Error(`the Chat view scrolls sideways by ${layout.page}px`);
      if (layout.over.length) throw new Error(`elements overflow: ${layout.over.slice(0, 4).join(', ')}`);
      if (layout.formBottom > layout.height + 1) throw new Error(`the question box is cut off (bottom ${layout.formBottom} > ${layout.height})`);
      console.log(`     Chat view ${layout.width}×${layout.height}px; ${citationTurn ? 'two turns' : 'turns'}, the input in view`);
    });

    await check('Chat: "Ask about this report" on report.md (editor title) keeps the conversation; "New conversation", then the earlier one reopens from the list', async () => {
      if (!chatAnswer) throw new Error('no answer in the Chat view');
      // The Chat view has its own container (the Corpus view is hidden now): open the report from the palette.
      await runFromPalette('Marker Research: Open Report');
      // With several runs it asks which report: the one the chat is about.
      const picker = page.locator('.quick-input-widget');
      if (await picker.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false)) {
        await page.keyboard.insertText(chatRun.runId);
        await sleep(300);
        await page.keyboard.press('Enter');
      }
      const tab = page.locator('.editor-group-container.active .tab.active');
      await waitFor('report.md in the editor', 10_000, async () => (await tab.innerText({ timeout: 1_000 })).includes('report.md'), 200);
      const action = page.locator('.editor-group-container.active .editor-actions .action-label[aria-label^="Ask about this report"]');
      await action.first().waitFor({ state: 'visible', timeout: 10_000 }).catch(async (e) => {
        const labels = await page.locator('.editor-group-container.active .editor-actions .action-label').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')));
        throw new Error(`no "Ask about this report" in the editor title of report.md (${firstLine(e)}; actions ${JSON.stringify(labels)})`);
      });
      await action.first().click();
      const conversationId = await chat.locator('#chat').getAttribute('data-conversation-id');
      await waitFor('#chat-input focused', 10_000, async () => chat.locator('body').evaluate(() => document.activeElement?.id === 'chat-input'), 200);
      const kept = await chat.locator('li.chat-turn[data-turn]:not(.is-pending)').count();
      if ((await chat.locator('#chat').getAttribute('data-conversation-id')) !== conversationId || kept < 2) throw new Error(`the conversation about the same report was not kept (${kept} turns)`);
      await chat.locator('#chat-new').click();
      await waitFor('an empty conversation', 10_000, async () => (await chat.locator('#chat').getAttribute('data-conversation-id')) === '' && (await chat.locator('li.chat-turn').count()) === 0, 200);
      if ((await chat.locator('#chat-about').getAttribute('data-run-id')) !== chatRun.runId) throw new Error('"New conversation" left the run');
      await chat.locator('#chat-history-toggle').click();
      const entry = chat.locator(`li.history-entry[data-conversation-id="${conversationId}"]`);
      await entry.waitFor({ state: 'visible', timeout: 5_000 }).catch(async () => { throw new Error(`conversation ${conversationId} is not in the list (${JSON.stringify(await chat.locator('li.history-entry').allInnerTexts().catch(() => []))})`); });
      const listed = (await entry.innerText()).replace(/\s+/g, ' ').trim();
      await entry.click();
      await waitFor(`conversation ${conversationId} reopened`, 10_000, async () => (await chat.locator('#chat').getAttribute('data-conversation-id')) === conversationId && (await chat.locator('li.chat-turn[data-turn]').count()) >= 2, 200);
      const chips = await chat.locator('li.chat-turn').first().locator('button.cite-chip').count();
      if (!chips) throw new Error('the reopened conversation shows no citation chips');
      console.log(`     editor title action kept ${conversationId} (${kept} turns); list entry "${listed.slice(0, 100)}" reopened it with ${chips} chips in its first answer`);
    });

    await check('Chat: after "Developer: Reload Window", "Ask Follow-up" from the palette reopens the conversation (turns, chips)', async () => {
      if (!chatAnswer) throw new Error('no answer in the Chat view');
      const conversationId = await chat.locator('#chat').getAttribute('data-conversation-id');
      const logText = () => outputChannelLogs(dirs.data).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
      const reopenedLines = () => (logText().match(new RegExp(`(reopened|opened) conversation ${conversationId}`, 'g')) ?? []).length;
      const before = reopenedLines();
      // Wait for the page to load again: the old workbench stays visible for a moment after the command.
      const reloaded = page.waitForEvent('load', { timeout: 60_000 });
      await runFromPalette('Developer: Reload Window');
      await reloaded;
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
      await waitFor('the extension to activate again', 60_000, async () => (logText().match(/Marker Research activated/g) ?? []).length >= 2, 300).catch(() => {});
      await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
      await runFromPalette('Marker Research: Ask Follow-up');
      chat = await webviewWith('#chat-turns', 30_000);
      await waitFor(`conversation ${conversationId} back after the reload`, 30_000, async () =>
        reopenedLines() > before && (await chat.locator('#chat').getAttribute('data-conversation-id')) === conversationId && (await chat.locator('li.chat-turn[data-turn]').count()) >= 2, 300)
        .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}; shown ${await chat.locator('#chat').getAttribute('data-conversation-id').catch(() => '?')} with ${await chat.locator('li.chat-turn[data-turn]').count().catch(() => '?')} turns${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      // Its turns can be drawn before their chips and loaded originals (the state comes in pieces): waited for, not counted once.
      let chips = 0;
      let loaded = 0;
      await waitFor('its citation chips and loaded originals after the reload', 20_000, async () => {
        chips = await chat.locator('button.cite-chip').count();
        loaded = await chat.locator('details.chat-loaded').count();
        return chips > 0 && loaded > 0;
      }, 300).catch(() => { throw new Error(`after the reload: ${chips} chips, ${loaded} loaded originals (20 s)`); });
      const line = logText().split('\n').filter((l) => l.includes(`conversation ${conversationId}`)).pop()?.replace(/^.*?chat: /, '') ?? '';
      console.log(`     "${line}"; ${chips} chips, ${loaded} loaded original(s) shown`);
    });

  } finally {
    // 6. screenshot of the whole workbench, Marker Research view visible (also taken after a failure: it helps)
    await check('screenshot test-results/e2e/workbench.png', async () => {
      fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, timeout: 30_000 });
    });
    // 7. the workbench in Chinese: a second, short code-server session with --locale zh-cn (test/e2e/l10nChecks.mjs)
    if (!opts.browse) await l10nChecks({ check, browser, bin: BIN, vsix, run: RUN, env, corpus: opts.corpus, extId, screenshot: path.join(REPO, 'test-results', 'e2e', 'workbench-zh.png') });
    const toasts = await notifications();
    if (toasts.length) console.log(`     notifications: ${toasts.map((t) => JSON.stringify(t)).join(', ')}`);
    fs.writeFileSync(path.join(RUN, 'browser-console.log'), consoleLog.join('\n'));
    console.log(`run: ${secs(tRun)} s (total ${secs(tAll)} s)`);
  }
}

let crashed = null;
try { await main(); } catch (e) { crashed = e; fail('harness', e); }
await cleanup();
if (watchdog) clearTimeout(watchdog);
if (failed || crashed) {
  if (crashed?.stack) console.log(crashed.stack);
  if (RUN) {
    console.log(`\nkept run folder: ${RUN}`);
    console.log(`--- code-server log (tail) ${path.join(RUN, 'code-server.log')}`);
    console.log(tail(path.join(RUN, 'code-server.log'), 40));
    const data = path.join(RUN, 'data');
    for (const f of [...extHostLogs(data), ...outputChannelLogs(data)]) {
      console.log(`--- ${path.relative(RUN, f)} (tail)`);
      console.log(tail(f, 30));
    }
  }
} else if (RUN && !opts.keep) {
  fs.rmSync(RUN, { recursive: true, force: true });
} else if (RUN) {
  console.log(`kept run folder: ${RUN}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
