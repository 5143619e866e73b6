// Standard @vscode/test-cli configuration (`npm run test:vscode`, i.e. `vscode-test`).
// It downloads a desktop VS Code, so it only works on machines that can reach
// update.code.visualstudio.com; offline (CI here) the extension is tested inside
// code-server instead: `node test/e2e/run.mjs`.
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  label: 'vscode',
  files: 'out/test/vscode/**/*.test.js',
  version: '1.100.3',
  workspaceFolder: 'samples/demo-corpus',
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  mocha: { ui: 'tdd', timeout: 60_000 },
});
