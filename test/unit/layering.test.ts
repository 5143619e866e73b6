import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.join(__dirname, '..', '..');

describe('layering: only src/extension may import vscode', () => {
  test('the lint rule rejects vscode in core, shared, cli, server and webview', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const dir of ['core', 'shared', 'cli', 'server', 'webview']) {
      for (const code of ["import * as vscode from 'vscode';\nexport const x = vscode;\n", "const vscode = require('vscode');\nexport const x = vscode;\n"]) {
        const [res] = await eslint.lintText(code, { filePath: path.join(ROOT, 'src', dir, 'probe.ts') });
        const ids = res!.messages.map((m) => m.ruleId);
        assert.ok(ids.includes('no-restricted-imports') || ids.includes('no-restricted-syntax'), `${dir}: ${JSON.stringify(res!.messages)}`);
      }
    }
    const [ok] = await eslint.lintText("import * as vscode from 'vscode';\nexport const x = vscode;\n", { filePath: path.join(ROOT, 'src', 'extension', 'probe.ts') });
    assert.deepEqual(ok!.messages.filter((m) => m.ruleId?.startsWith('no-restricted')), []);
  });

  test('no file outside src/extension imports vscode today', () => {
    const r = spawnSync('grep', ['-rlE', `from ['"]vscode['"]|require\\(['"]vscode['"]\\)`, 'src/core', 'src/cli', 'src/server', 'src/shared', 'src/webview'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.stdout.trim(), '', `vscode imported in: ${r.stdout}`);
    assert.equal(r.status, 1, 'grep finds nothing (exit 1)');
  });
});

describe('layering: the extension is a thin client of the engine', () => {
  test('the lint rule rejects the corpus loader, the search index and the pipelines in src/extension (types allowed)', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const mod of ['../core/corpus/loader', '../core/search/corpusIndex', '../core/ask/ask', '../core/chat/chatTurn', '../core/markers/generate', '../core/research/pipeline', '../core/llm/client', '../server/corpusEngine']) {
      const [res] = await eslint.lintText(`import { x } from '${mod}';\nexport const y = x;\n`, { filePath: path.join(ROOT, 'src', 'extension', 'probe.ts') });
      assert.ok(res!.messages.some((m) => m.ruleId === '@typescript-eslint/no-restricted-imports'), `${mod}: ${JSON.stringify(res!.messages)}`);
    }
    const [types] = await eslint.lintText("import type { RunResult } from '../core/research/pipeline';\nexport type R = RunResult;\n", { filePath: path.join(ROOT, 'src', 'extension', 'probe.ts') });
    assert.deepEqual(types!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports'), []);
  });
});
