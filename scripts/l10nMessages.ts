/**
 * The `l10n.t(...)` messages of the sources, read with the TypeScript parser: the extension host's
 * `vscode.l10n.t`, `@vscode/l10n`'s `l10n.t` (engine, shared view models, webviews) and an `l10n`
 * handed to a pure module (`l10n: L10n` parameters of the tree models). @vscode/l10n-dev's export
 * only sees an `l10n` imported from 'vscode' or '@vscode/l10n', so this is the one list both the
 * bundle (scripts/l10nExport.ts) and its test (test/unit/l10nBundles.test.ts) are made from.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/** Where `l10n.t` messages live: the extension host, the engine, the shared view models, the webviews. */
export const L10N_SOURCE_DIRS = ['src/extension', 'src/server', 'src/shared', 'src/webview'];

export interface L10nMessage {
  /** The bundle key: the message, or `message/comment` when the call gives a comment (as @vscode/l10n keys it). */
  key: string;
  message: string;
  /** `file:line` of the call. */
  where: string;
}

/** The `.ts` files under `dir` (relative to `root`), sorted. */
export function tsFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir)).sort()) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...tsFiles(root, rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The receiver of a `.t(...)` call is `l10n` (imported or handed in) or `vscode.l10n`. */
function isL10nT(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const target = callee.expression;
  if (ts.isIdentifier(target)) return target.text === 'l10n';
  return ts.isPropertyAccessExpression(target) && target.name.text === 'l10n' && ts.isIdentifier(target.expression) && target.expression.text === 'vscode';
}

const literalText = (e: ts.Expression | undefined): string | undefined => (e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) ? e.text : undefined);

/** The messages of one source text; a call whose message is not a literal is a problem (no bundle can hold it). */
export function messagesOf(file: string, text: string): { messages: L10nMessage[]; problems: string[] } {
  const messages: L10nMessage[] = [];
  const problems: string[] = [];
  if (!text.includes('l10n')) return { messages, problems };
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isL10nT(node)) {
      const where = `${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const first = node.arguments[0];
      const direct = literalText(first);
      if (direct !== undefined) messages.push({ key: direct, message: direct, where });
      else if (first && ts.isObjectLiteralExpression(first)) {
        const prop = (name: string): ts.Expression | undefined =>
          first.properties.find((x): x is ts.PropertyAssignment => ts.isPropertyAssignment(x) && ts.isIdentifier(x.name) && x.name.text === name)?.initializer;
        const message = literalText(prop('message'));
        const comment = prop('comment');
        const comments = comment && ts.isArrayLiteralExpression(comment) ? comment.elements.map((e) => literalText(e)) : comment ? [literalText(comment)] : [];
        if (message === undefined || comments.some((c) => c === undefined)) problems.push(`${where}: l10n.t({ message, comment }) with a message or comment that is not a literal`);
        else messages.push({ key: comments.length ? `${message}/${comments.join('')}` : message, message, where });
      } else problems.push(`${where}: l10n.t(...) whose message is not a string literal`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { messages, problems };
}

/** Every `l10n.t` message of the sources under `root`, in source order. */
export function sourceMessages(root: string): { messages: L10nMessage[]; problems: string[] } {
  const messages: L10nMessage[] = [];
  const problems: string[] = [];
  for (const dir of L10N_SOURCE_DIRS) {
    for (const file of tsFiles(root, dir)) {
      const r = messagesOf(file, readFileSync(path.join(root, file), 'utf8'));
      messages.push(...r.messages);
      problems.push(...r.problems);
    }
  }
  return { messages, problems };
}
