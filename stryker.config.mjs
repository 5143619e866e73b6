// Mutation testing of the safety-critical core (issue 10): `npm run mutate`. Not part of `npm test`
// or CI — it takes minutes. Reports go to reports/ (gitignored); the sandbox is .stryker-tmp/.
//
// Scope: grounding, windows and coverage, the marker cache key, citations, request and plan
// validation, source maps and span mapping, de-duplication. Where only part of a file is in scope
// (a function of a large module), the part is found by its declaration when this config loads, so
// the scope follows the code as it is edited.
//
// The tap runner runs each test file as its own `node` process; the files are run directly (not
// through `node --test`, which would start another child process per file, out of reach of
// Stryker's coverage hook). Coverage is per test file: a mutant runs only the files that reach it.
// Runs are incremental (reports/stryker-incremental.json): only mutants whose code or covering
// tests changed are run again; `npm run mutate -- --force` runs them all.
import { readFileSync } from 'node:fs';

/**
 * `file:first-last` for the declaration matching `start` and its body: up to the first later line
 * that closes at the declaration's indentation (`}`, `]);`, `});`, …).
 */
function declaration(file, start) {
  const lines = readFileSync(new URL(file, import.meta.url), 'utf8').split('\n');
  const first = lines.findIndex((l) => start.test(l));
  if (first < 0) throw new Error(`stryker.config.mjs: ${start} not found in ${file}; update the mutate scope`);
  const indent = /^\s*/.exec(lines[first])[0];
  const close = new RegExp(`^${indent}[}\\])]`);
  let last = first;
  if (!/[;}]\s*$/.test(lines[first])) {
    last = lines.findIndex((l, i) => i > first && close.test(l));
    if (last < 0) throw new Error(`stryker.config.mjs: the end of ${start} in ${file} not found`);
  }
  return `${file}:${first + 1}-${last + 1}`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'tap',
  tap: {
    // The unit test files that exercise the code in scope (add one here when it tests that code).
    testFiles: [
      'test/unit/grounding.test.ts',
      'test/unit/windows.test.ts',
      'test/unit/windowLimit.test.ts',
      'test/unit/coverageUnion.test.ts',
      'test/unit/contextRetry.test.ts',
      'test/unit/markerCache.test.ts',
      'test/unit/dedup.test.ts',
      'test/unit/citations.test.ts',
      'test/unit/citationLinks.test.ts',
      'test/unit/requestValidation.test.ts',
      'test/unit/sourceMap.test.ts',
      'test/unit/sourceMapBuilder.test.ts',
      'test/unit/spans.test.ts',
      'test/unit/research.test.ts',
    ],
    nodeArgs: ['--import', 'tsx', '--test-reporter=tap', '{{testFile}}'],
  },
  mutate: [
    // grounding
    'src/core/markers/grounding.ts',
    // windows and coverage, and the context-length retry size
    'src/core/markers/windows.ts',
    declaration('src/core/markers/modelEngine.ts', /^ {2}reject\(error: unknown/),
    // the marker cache: its files and its key
    'src/core/markers/store.ts',
    declaration('src/core/markers/generate.ts', /^async function promptVersions\(/),
    declaration('src/core/markers/generate.ts', /^export function cacheKey\(/),
    // citations
    'src/core/research/citations.ts',
    'src/core/research/citationLinks.ts',
    // request and plan validation
    declaration('src/core/research/handler.ts', /^const ID_OK = /),
    declaration('src/core/research/handler.ts', /^export function badId\(/),
    declaration('src/core/research/handler.ts', /^ {2}#checkItem\(/),
    declaration('src/core/research/handler.ts', /^ {2}#prepare\(/),
    declaration('src/core/research/schema.ts', /^export const contentRequestSchema = /),
    declaration('src/core/research/plan.ts', /^export function validatePlan\(/),
    // source maps and span mapping
    'src/core/corpus/sourceMap.ts',
    'src/core/corpus/spans.ts',
    // de-duplication (markers: build.ts; findings: citations.ts above; epic runs: dedupeEpic)
    'src/core/markers/build.ts',
    declaration('src/core/research/pipeline.ts', /^export function dedupeEpic\(/),
  ],
  ignorePatterns: ['dist', 'out', 'test-results', '.vscode-test', '.e2e', 'bench/results', 'reports', '*.vsix', '**/.marker-research'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 5000,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
