/**
 * A link and HTML detector for Markdown written by the product, for tests: everything a reader of
 * the text would find clickable or live, found conservatively (when in doubt, it reports).
 *
 * Two views of a text:
 * - the editor's: VS Code's text editor links `http://`, `https://` and `file://` anywhere in the
 *   raw text (its LinkComputer), code included; and per the issue, any `command:`, `vscode:`,
 *   `javascript:`, `data:`, `mailto:`… in plain text counts too;
 * - a Markdown reader's (the preview: markdown-it with linkify; hovers: marked, GFM): outside code
 *   spans and fences and not backslash-escaped — inline links and images (`](`), reference
 *   definitions (`]:`), autolinks (`<scheme:…>`, `<a@b.c>`), raw HTML (`<tag`, `</`, `<!`, `<?`),
 *   and in the rendered text bare URLs (`scheme://`, `mailto:`, `//host`, `www.`, e-mail addresses).
 */

/** One live thing found: what, its target when it has one, and where. */
export interface LiveLink {
  kind: 'link' | 'definition' | 'autolink' | 'html' | 'bare-url' | 'editor-link';
  target: string;
  line: number;
  text: string;
}

const PUNCT = /[!-/:-@[-`{-~]/;
const EDITOR_URL = /(?:https?|file):\/\/[^\s<>"'`]*/gi;
const EDITOR_SCHEME = /(?<![A-Za-z0-9+.-])(?:command|vscode(?:-insiders)?|javascript|vbscript|data|mailto|file|https?):[^\s]/gi;

/** The lines of `md` inside fenced code (CommonMark: closed by a run of the same character at least as long). */
export function fencedLines(md: string): boolean[] {
  const lines = md.split(/\r\n|\r|\n/);
  const out: boolean[] = [];
  let fence: string | undefined;
  for (const l of lines) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
      out.push(true);
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(l);
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = open[1]!;
      out.push(true);
      continue;
    }
    out.push(false);
  }
  return out;
}

/** Per character of a line: 'live' (may be markup), 'escaped' (a backslash-escaped character or its backslash), 'code' (in a code span). */
function classify(line: string): ('live' | 'escaped' | 'code')[] {
  const kind: ('live' | 'escaped' | 'code')[] = Array.from({ length: line.length }, () => 'live');
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length && PUNCT.test(line[i + 1]!)) {
      kind[i] = 'escaped';
      kind[i + 1] = 'escaped';
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(line.slice(i))![0];
      const re = /`+/g;
      re.lastIndex = i + run.length;
      let close = -1;
      for (let m = re.exec(line); m; m = re.exec(line)) {
        if (m[0].length === run.length) {
          close = m.index;
          break;
        }
      }
      if (close >= 0) {
        for (let k = i; k < close + run.length; k++) kind[k] = 'code';
        i = close + run.length;
        continue;
      }
      i += run.length;
      continue;
    }
    i++;
  }
  return kind;
}

/** The destination of an inline link starting at `(` at `open`: `<…>` or a run without spaces; and where the link ends. */
function destination(line: string, open: number): { target: string; end: number } {
  let j = open + 1;
  while (line[j] === ' ') j++;
  let target: string;
  if (line[j] === '<') {
    const close = line.indexOf('>', j);
    target = close < 0 ? line.slice(j + 1) : line.slice(j + 1, close);
    j = close < 0 ? line.length : close + 1;
  } else {
    const m = /^[^\s)]*/.exec(line.slice(j))![0];
    target = m;
    j += m.length;
  }
  const rest = /^\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')?\s*\)/.exec(line.slice(j));
  return { target, end: rest ? j + rest[0].length : j };
}

/** Everything live in a Markdown text, by the editor's view and a Markdown reader's (see the module comment). */
export function liveLinks(md: string, opts: { editor?: boolean } = {}): LiveLink[] {
  const out: LiveLink[] = [];
  const lines = md.split(/\r\n|\r|\n/);
  const fenced = fencedLines(md);
  lines.forEach((line, n) => {
    if (opts.editor !== false) {
      for (const m of line.matchAll(EDITOR_URL)) out.push({ kind: 'editor-link', target: m[0], line: n, text: line });
      for (const m of line.matchAll(EDITOR_SCHEME)) out.push({ kind: 'editor-link', target: m[0], line: n, text: line });
    }
    if (fenced[n]) return;
    const kind = classify(line);
    const live = (i: number): boolean => kind[i] === 'live';
    // What the reader renders as text: escapes resolved, code spans and link destinations cut out.
    let rendered = '';
    let i = 0;
    while (i < line.length) {
      const c = line[i]!;
      if (kind[i] === 'code') {
        rendered += '\u0000';
        while (i < line.length && kind[i] === 'code') i++;
        continue;
      }
      if (kind[i] === 'escaped' && c === '\\') {
        rendered += line[i + 1]!;
        i += 2;
        continue;
      }
      if (live(i) && c === ']' && line[i + 1] === '(') {
        const d = destination(line, i + 1);
        out.push({ kind: 'link', target: d.target, line: n, text: line });
        rendered += ']\u0000';
        i = d.end;
        continue;
      }
      if (live(i) && c === ']' && line[i + 1] === ':' && [...line.slice(0, i)].some((ch, k) => ch === '[' && live(k))) out.push({ kind: 'definition', target: line.slice(i + 2).trim(), line: n, text: line });
      if (live(i) && c === '<') {
        const rest = line.slice(i);
        const auto = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s@<>]+@[^\s<>]+)>/.exec(rest);
        if (auto) out.push({ kind: 'autolink', target: auto[1]!, line: n, text: line });
        else if (/^<[A-Za-z/!?]/.test(rest)) out.push({ kind: 'html', target: /^<[^>]*>?/.exec(rest)![0], line: n, text: line });
      }
      rendered += c;
      i++;
    }
    const bare = /(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|mailto:|xmpp:)[^\s<]*|(?<![:/])\/\/[A-Za-z0-9][^\s<]*|(?<![A-Za-z0-9])www\.[^\s<]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi;
    for (const m of rendered.matchAll(bare)) out.push({ kind: 'bare-url', target: m[0], line: n, text: line });
  });
  return out;
}

/** Markdown text as a reader sees it: backslash escapes resolved and the invisible link breaks (U+2060) removed. */
export function unescapeMarkdown(md: string): string {
  return md.replace(/\u2060/g, '').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}
