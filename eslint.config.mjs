// Lint rules. The layer rule: only src/extension may import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'Only src/extension may import vscode: core, shared, cli, server and webview stay editor-free.' }],
  }],
  'no-restricted-syntax': ['error', {
    selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
    message: 'Only src/extension may require vscode.',
  }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', '**/.cache/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['src/core/**', 'src/shared/**', 'src/cli/**', 'src/server/**', 'src/webview/**'], rules: noVscode },
  // The extension is a thin client of the engine (src/server): it never loads, indexes or researches the corpus itself.
  {
    files: ['src/extension/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/core/corpus/loader', '**/core/search/**', '**/core/ask/**', '**/core/chat/**', '**/core/markers/**', '**/core/research/pipeline', '**/core/llm/**', '**/server/**'],
          allowTypeImports: true,
          message: 'The extension is a thin client: corpus, index, markers, research, questions and chat run in the engine (src/server); ask it through src/shared/lspProtocol.ts.',
        }],
      }],
    },
  },
);
