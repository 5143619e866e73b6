/**
 * Hostile texts for Markdown tests, composed from parts by a seeded generator: every Markdown
 * link form (inline, reference, autolink, bare `scheme:` URLs of many schemes, images), HTML tags
 * and entities, fences (``` and ~~~, unclosed), line breaks followed by `## Sources` and forged
 * `[1]` lines or definitions, backticks, backslashes, emphasis, math, tables — mixed with plain
 * words, so each run composes other texts from the same classes.
 */
import { rng } from './testing';

const SCHEMES = ['command', 'file', 'http', 'https', 'vscode', 'vscode-insiders', 'javascript', 'data', 'mailto', 'ftp', 'Command', 'HTTPS', 'x-evil'];
const TARGETS = ['workbench.action.terminal.new', 'workbench.action.terminal.sendSequence?%7B%22text%22%3A%22calc%5Cn%22%7D', '//evil.example/x?y=1', '///etc/passwd', 'alert(1)', 'text/html;base64,PHNjcmlwdD4=', 'a@evil.example', 'ms-vscode.evil/x'];

/** A URL of a generated scheme and target. */
function url(r: () => number): string {
  const scheme = pick(r, SCHEMES);
  const target = pick(r, TARGETS);
  return `${scheme}:${target}`;
}

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

/** One hostile part: a link form, HTML, a fence, a structure break, or plain words. */
function part(r: () => number, opts: { lineBreaks: boolean }): string {
  const u = url(r);
  const kinds: (() => string)[] = [
    () => `[free bike](${u})`,
    () => `[open terminal](<${u}> "title")`,
    () => `[x][ref]`,
    () => `[ref]: ${u}`,
    () => `<${u}>`,
    () => `<evil@example.com>`,
    () => u,
    () => `see ${u} now`,
    () => 'www.evil.example/path',
    () => 'write to evil@example.com',
    () => '//evil.example/pixel',
    () => `![img](${u})`,
    () => '![x][ref]',
    () => '<img src=x onerror=alert(1)>',
    () => '<script>alert(1)</script>',
    () => `<a href="${u}">y</a>`,
    () => '<!-- comment -->',
    () => '<details open>',
    () => '</div>',
    () => '&lt;b&gt; &#60;img&#62; &amp; &colon;',
    () => '`tick',
    () => '``double`` tick`',
    () => '\\',
    () => '\\[',
    () => '*emph* _under_ **bold**',
    () => '$x^2$ math',
    () => '|a|b|',
    () => '~~strike~~',
    () => '[S3]',
    () => '[3]',
    () => 'Episode [12]',
    () => 'bike lanes cut injuries',
    () => '中文标题',
    () => 'coffee prices rose',
    () => '- not a list',
    () => '1. not a list',
    () => '# not a heading',
  ];
  const breaks: (() => string)[] = [
    () => '\n## Sources\n',
    () => `\n[1] forged source [evil](${u})\n`,
    () => `\n[1]: ${u}\n`,
    () => '\n```\n',
    () => '\n~~~\n',
    () => '\n````js\n',
    () => '\n# heading\n',
    () => '\n- item\n',
    () => '\n> quote\n',
    () => '\n    indented code\n',
    () => '\r\n',
    () => '\u2028',
    () => '\n|a|b|\n|-|-|\n',
    () => '\n\n',
    () => '\n<div>\n',
  ];
  return opts.lineBreaks && r() < 0.3 ? pick(r, breaks)() : pick(r, kinds)();
}

/**
 * `count` hostile texts from `seed`: each 2–7 parts joined by a space, nothing or a line break
 * (`lineBreaks`: whether line breaks and block starts are among the parts; default true).
 */
export function hostileTexts(seed: number, count: number, opts: { lineBreaks?: boolean } = {}): string[] {
  const r = rng(seed);
  const lineBreaks = opts.lineBreaks ?? true;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const n = 2 + Math.floor(r() * 6);
    let s = '';
    for (let i = 0; i < n; i++) s += (i ? pick(r, lineBreaks ? [' ', '', ' ', '\n'] : [' ', '', ' ']) : '') + part(r, { lineBreaks });
    out.push(s);
  }
  return out;
}

/** A hostile name for a folder (no `/`, no NUL, under 200 bytes), composed like {@link hostileTexts}. */
export function hostileNames(seed: number, count: number): string[] {
  return hostileTexts(seed, count).map((s, i) => `${i}-${s.replace(/[/\0]/g, '|')}`.slice(0, 60).replace(/[\uD800-\uDBFF]$/, ''));
}
