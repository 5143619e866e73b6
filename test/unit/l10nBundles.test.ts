/**
 * The UI in every language it ships (issue 24): every `%key%` of package.json has its English in
 * package.nls.json and a translation in each package.nls.<locale>.json; every `l10n.t(...)` message
 * of the extension, the engine, the shared view models and the webviews has an entry in
 * l10n/bundle.l10n.json and in each bundle.l10n.<locale>.json; no file has a key nothing uses; a
 * translation keeps its message's placeholders ({0}, {1}, …), command links and code spans; and no
 * notification is shown with English text that skips l10n. Messages are read from the sources with
 * the TypeScript parser (scripts/l10nMessages.ts, the same list `npm run l10n:export` writes).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { sourceMessages, tsFiles } from '../../scripts/l10nMessages';

const ROOT = path.join(__dirname, '..', '..');
/** The display languages the extension ships besides English (VS Code's locale ids). */
const LOCALES = ['zh-cn', 'zh-tw', 'es'] as const;

const readJson = (rel: string): unknown => JSON.parse(readFileSync(path.join(ROOT, rel), 'utf8'));
const asTable = (v: unknown, what: string): Record<string, string> => {
  assert.ok(v && typeof v === 'object' && !Array.isArray(v), `${what}: an object`);
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) assert.equal(typeof x, 'string', `${what}: ${k} is a string`);
  return v as Record<string, string>;
};

/** `{0}`, `{1}`, … of a message, sorted (a translation may reorder them, never drop or add one). */
const placeholders = (s: string): string[] => [...s.matchAll(/\{(\d+)\}/g)].map((m) => m[0]).sort();
/** What a translation must carry over as it is: `command:` links, code spans, setting ids. */
const fixedParts = (s: string): string[] => [...s.matchAll(/\(command:[^)]*\)|`[^`]*`|markerResearch\.[\w.]+/g)].map((m) => m[0]).sort();

/** Every string that is a whole `%key%` in `value`, with where it is. */
function nlsKeys(value: unknown, at: string, out: Map<string, string>): Map<string, string> {
  if (typeof value === 'string') {
    const m = /^%([^%\s]+)%$/.exec(value);
    if (m) out.set(m[1]!, at);
  } else if (Array.isArray(value)) value.forEach((v, i) => nlsKeys(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) nlsKeys(v, `${at}.${k}`, out);
  return out;
}

const pkg = readJson('package.json');
const nls = asTable(readJson('package.nls.json'), 'package.nls.json');
const bundle = asTable(readJson('l10n/bundle.l10n.json'), 'l10n/bundle.l10n.json');

describe('package.json contributions in every language', () => {
  const used = nlsKeys((pkg as { contributes: unknown }).contributes, 'contributes', new Map());
  for (const [k, at] of nlsKeys(pkg, '', new Map())) used.set(k, at);

  test('every %key% of package.json has its English in package.nls.json, and package.nls.json has no key nothing uses', () => {
    assert.ok(used.size > 50, `package.json uses ${used.size} keys`);
    const missing = [...used].filter(([k]) => !(k in nls)).map(([k, at]) => `${k} (${at})`);
    assert.deepEqual(missing, [], 'keys without English');
    assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), [], 'stale keys in package.nls.json');
  });

  for (const locale of LOCALES) {
    test(`package.nls.${locale}.json: every key, no other, each translated with its placeholders, command links and code spans`, () => {
      const t = asTable(readJson(`package.nls.${locale}.json`), `package.nls.${locale}.json`);
      assert.deepEqual(Object.keys(nls).filter((k) => !(k in t)), [], `keys missing in package.nls.${locale}.json`);
      assert.deepEqual(Object.keys(t).filter((k) => !(k in nls)), [], `stale keys in package.nls.${locale}.json`);
      for (const [k, en] of Object.entries(nls)) {
        const tr = t[k]!;
        assert.ok(tr.trim(), `${locale} ${k}: empty`);
        assert.deepEqual(placeholders(tr), placeholders(en), `${locale} ${k}: placeholders`);
        assert.deepEqual(fixedParts(tr), fixedParts(en), `${locale} ${k}: command links, code spans and setting ids`);
      }
    });
  }
});

describe('l10n.t messages in every language', () => {
  const { messages, problems } = sourceMessages(ROOT);
  const keys = new Set(messages.map((m) => m.key));

  test('every l10n.t call has a literal message, and l10n/bundle.l10n.json holds exactly those messages', () => {
    assert.deepEqual(problems, []);
    assert.ok(keys.size > 300, `${keys.size} messages`);
    const missing = messages.filter((m) => !(m.key in bundle)).map((m) => `${m.where}: ${m.key}`);
    assert.deepEqual(missing, [], 'messages missing in l10n/bundle.l10n.json (run npm run l10n:export)');
    assert.deepEqual(Object.keys(bundle).filter((k) => !keys.has(k)), [], 'stale keys in l10n/bundle.l10n.json (run npm run l10n:export)');
    for (const m of messages) assert.equal(bundle[m.key], m.message, `${m.where}: the English of ${m.key}`);
  });

  for (const locale of LOCALES) {
    test(`l10n/bundle.l10n.${locale}.json: every message, no other, each with its placeholders`, () => {
      const t = asTable(readJson(`l10n/bundle.l10n.${locale}.json`), `bundle.l10n.${locale}.json`);
      const missing = [...keys].filter((k) => !(k in t));
      assert.deepEqual(missing, [], `messages missing in bundle.l10n.${locale}.json`);
      assert.deepEqual(Object.keys(t).filter((k) => !keys.has(k)), [], `stale keys in bundle.l10n.${locale}.json`);
      for (const k of keys) {
        const tr = t[k]!;
        assert.ok(tr.trim(), `${locale}: empty translation of ${k}`);
        assert.deepEqual(placeholders(tr), placeholders(k), `${locale}: placeholders of ${k} → ${tr}`);
        assert.deepEqual(fixedParts(tr).filter((p) => p.startsWith('(command:') || p.startsWith('markerResearch.')), fixedParts(k).filter((p) => p.startsWith('(command:') || p.startsWith('markerResearch.')), `${locale}: command links and setting ids of ${k}`);
      }
    });
  }
});

describe('no notification skips l10n', () => {
  /** What an English string shown to the user looks like: two words of Latin letters. */
  const englishWords = /[A-Za-z]{2,}[^A-Za-z]+[A-Za-z]{2,}/;
  /** The one literal text a message may carry as it is: the product's name before a localised message. */
  const literalParts = (e: ts.Expression): string[] => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
    if (ts.isTemplateExpression(e)) return [e.head.text, ...e.templateSpans.map((s) => s.literal.text)];
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return [...literalParts(e.left), ...literalParts(e.right)];
    if (ts.isConditionalExpression(e)) return [...literalParts(e.whenTrue), ...literalParts(e.whenFalse)];
    if (ts.isParenthesizedExpression(e)) return literalParts(e.expression);
    return [];
  };
  const SHOWN = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage', 'withCancellableProgress']);

  /** Calls of `SHOWN` in `text` whose arguments hold English that is not in an l10n.t call. */
  function unlocalised(file: string, text: string): string[] {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const out: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
        if (SHOWN.has(name)) {
          for (const arg of node.arguments) {
            const english = literalParts(arg).map((s) => s.replace(/^\$\([\w-]+\)\s*/, '').replace(/Marker Research:?/g, '')).filter((s) => englishWords.test(s));
            if (english.length) out.push(`${file}:${sf.getLineAndCharacterOfPosition(arg.getStart()).line + 1}: ${name}(${english.join(' … ')})`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return out;
  }

  test('the scan finds English left in a notification, and passes a localised one (the rule itself)', () => {
    const bad = [
      "vscode.window.showInformationMessage('Marker Research: the markers are ready.');",
      'void vscode.window.showWarningMessage(`Marker Research: indexed ${n} items`, \'Show Logs\');',
      "vscode.window.showErrorMessage(vscode.l10n.t('Failed.'), 'Open Settings');",
      "vscode.window.setStatusBarMessage(`$(check) nothing is running`, 500);",
    ];
    for (const code of bad) assert.equal(unlocalised('probe.ts', code).length, 1, code);
    const good = [
      "vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: the markers are ready.'));",
      'void vscode.window.showWarningMessage(`Marker Research: ${text}`, vscode.l10n.t(\'Show Logs\'));',
      "vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Nothing is running.')}`, 500);",
      'vscode.window.showWarningMessage(message, showLogs);',
    ];
    for (const code of good) assert.deepEqual(unlocalised('probe.ts', code), [], code);
  });

  test('no showInformationMessage / showWarningMessage / showErrorMessage / status bar message / progress title of src/extension carries English outside l10n', () => {
    const found = tsFiles(ROOT, 'src/extension').flatMap((f) => unlocalised(f, readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(found, []);
  });
});
