/**
 * Model-written Markdown reduced to a safe subset before it is written into a report or shown in
 * a chat: headings, bullet and numbered lists, block quotes, emphasis, inline code, fenced code
 * (every fence closed before anything is appended) and the caller's citations (`[3]`, `[S3]`).
 * Everything else — links, autolinks, images, HTML, entities, reference definitions, tables, math
 * — is written as the plain text it is (escaped with {@link markdownText}), and bare URLs are
 * broken ({@link breakAutolinks}), in code too.
 *
 * A small line-based tokenizer of our own rather than a full Markdown parser: a parser answers
 * "what does this text mean", while the reducer needs "what may this text do", and its output is
 * rebuilt from a whitelist (every block re-emitted in a normal form, every run of text escaped) —
 * anything the tokenizer does not recognise is escaped text, never passed through. The output is
 * the same whatever a reader's parser makes of the input, and reducing it again changes nothing.
 *
 * @example
 * reduceMarkdown('[open terminal](command:x) **now** [S2]\n```js\nrm -rf', { isCitation: (s) => /^S\d+$/.test(s) })
 * // '\\[open terminal\\](command\u2060:x) **now** [S2]\n```js\nrm -rf\n```'
 */
import { breakAutolinks, markdownText } from './markdownSafe';

/** Options of {@link reduceMarkdown} and {@link MarkdownReducer}. */
export interface ReduceOptions {
  /** The text of a bracket kept as written, as a citation (default: a number, `[3]`). */
  isCitation?: (inner: string) => boolean;
  /** The highest heading level the text may have (default 1): a `# title` of a section body becomes `### title` with 3, so it cannot pose as a heading of the report (`## Sources`). */
  minHeading?: number;
}

/** A fence opening: three or more backticks or tildes (any indentation), then the info string. */
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
/** A list item's marker and its text. */
const LIST_ITEM = /^([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const HEADING = /^(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const RULE = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^(?:>[ \t]?)+/;
/** Quote levels kept (deeper ones are written at this depth). */
const MAX_QUOTE = 8;
/** Every line break a Markdown reader or an editor may act on. */
const LINE_BREAK = /\r\n|[\r\n\u0085\u2028\u2029]/;
/** ASCII punctuation: what a backslash escapes in CommonMark. */
const PUNCT = /[!-/:-@[-`{-~]/;

/**
 * Reduces Markdown line by line, as it streams: {@link push} returns the reduced complete lines,
 * {@link end} the last line and the closing of a fence left open.
 */
export class MarkdownReducer {
  readonly #isCitation: (inner: string) => boolean;
  readonly #minHeading: number;
  #fence: { char: string; length: number } | undefined;
  #partial = '';
  /** The lines just written are (in) a list item; `#content` is the column its text starts at. */
  #inList = false;
  #content = 0;
  #lastBlank = true;

  constructor(opts: ReduceOptions = {}) {
    this.#isCitation = opts.isCitation ?? ((s) => /^\d{1,6}$/.test(s));
    this.#minHeading = Math.min(6, Math.max(1, opts.minHeading ?? 1));
  }

  /** Takes the next piece of text; returns the reduced lines it completed, each ending with `\n`. */
  push(chunk: string): string {
    let text = this.#partial + chunk;
    // A CR at the end may be the first half of a CRLF.
    const carry = text.endsWith('\r') ? '\r' : '';
    if (carry) text = text.slice(0, -1);
    const lines = text.split(LINE_BREAK);
    this.#partial = lines.pop()! + carry;
    return lines.map((l) => `${this.#line(l)}\n`).join('');
  }

  /** The last (unterminated) line, reduced, and the closing fence of a fence left open; no trailing line break. */
  end(): string {
    const out: string[] = [];
    const last = this.#partial.replace(/\r$/, '');
    this.#partial = '';
    if (last) out.push(this.#line(last));
    if (this.#fence) {
      out.push(this.#fence.char.repeat(this.#fence.length));
      this.#fence = undefined;
    }
    return out.join('\n');
  }

  #line(line: string): string {
    const fence = this.#fence;
    if (fence) {
      if (new RegExp(`^[ \\t]*\\${fence.char}{${fence.length},}[ \\t]*$`).test(line)) {
        this.#fence = undefined;
        return fence.char.repeat(fence.length);
      }
      return breakAutolinks(line);
    }
    if (!line.trim()) {
      this.#lastBlank = true;
      return '';
    }
    const wasBlank = this.#lastBlank;
    this.#lastBlank = false;
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1]!.startsWith('`') && open[2]!.includes('`'))) {
      this.#inList = false;
      this.#fence = { char: open[1]![0]!, length: open[1]!.length };
      const info = /^[A-Za-z0-9_+#.-]{0,40}/.exec(open[2]!.trim())![0];
      return `${open[1]!}${info}`;
    }
    const lead = /^[ \t]*/.exec(line)![0];
    const indent = columns(lead);
    const body = line.slice(lead.length);
    const quote = QUOTE.exec(body);
    if (quote) {
      this.#inList = false;
      const levels = Math.min(MAX_QUOTE, quote[0].split('>').length - 1);
      const rest = this.#block(body.slice(quote[0].length), 0, true);
      return `${'> '.repeat(levels)}${rest}`.trimEnd();
    }
    if (indent === 0 && wasBlank && !LIST_ITEM.test(body)) this.#inList = false;
    return this.#block(body, indent, false);
  }

  /** A line's content (indentation removed): heading, rule, list item or paragraph text. */
  #block(body: string, indent: number, quoted: boolean): string {
    const heading = HEADING.exec(body);
    if (heading) {
      this.#inList = false;
      const text = (heading[2] ?? '').replace(/[ \t]+#+$/, '').replace(/^#+$/, '');
      const level = '#'.repeat(Math.max(this.#minHeading, heading[1]!.length));
      return text ? `${level} ${this.#inline(text)}` : level;
    }
    if (RULE.test(body)) {
      this.#inList = false;
      return '***';
    }
    const at = this.#inList && !quoted ? Math.min(indent, this.#content) : 0;
    const item = LIST_ITEM.exec(body);
    if (item) {
      if (!quoted) {
        this.#inList = true;
        this.#content = at + item[1]!.length + 1;
      }
      return `${' '.repeat(at)}${item[1]!} ${this.#inline(item[2] ?? '')}`.trimEnd();
    }
    return `${' '.repeat(at)}${this.#inline(body)}`;
  }

  /** One line of inline Markdown: code spans, emphasis delimiters and citations kept; everything else escaped text. */
  #inline(s: string): string {
    const closing = backtickRuns(s);
    let out = '';
    let text = '';
    const flush = (): void => {
      if (text) out += markdownText(text);
      text = '';
    };
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') {
        const next = s[i + 1];
        // An escaped character is that character, as text (escaped again when written).
        if (next !== undefined && PUNCT.test(next)) {
          text += next;
          i += 2;
        } else {
          text += c;
          i++;
        }
        continue;
      }
      if (c === '`') {
        const run = runAt(s, i, '`');
        const close = closing(i + run.length, run.length);
        if (close >= 0) {
          flush();
          out += `${run}${breakAutolinks(s.slice(i + run.length, close))}${run}`;
          i = close + run.length;
        } else {
          text += run;
          i += run.length;
        }
        continue;
      }
      if (c === '[') {
        const end = s.indexOf(']', i + 1);
        const inner = end > 0 ? s.slice(i + 1, end) : '';
        // `[3](…)` is a link, not a citation: it stays text, like every other link.
        if (end > 0 && !inner.includes('[') && s[end + 1] !== '(' && this.#isCitation(inner)) {
          // `![3]` would be an image: its `!` stays text.
          const bang = text.endsWith('!');
          if (bang) text = text.slice(0, -1);
          flush();
          out += `${bang ? '\\!' : ''}[${inner}]`;
          i = end + 1;
          // `[3]: …` would be a definition: the colon stays text.
          if (s[i] === ':') out += `\\${s[i++]}`;
          continue;
        }
      }
      if (c === '*' || c === '_') {
        const run = runAt(s, i, c);
        flush();
        out += run;
        i += run.length;
        continue;
      }
      text += c;
      i++;
    }
    flush();
    return out;
  }
}

/** The run of `ch` starting at `at` in `s`. */
function runAt(s: string, at: number, ch: string): string {
  let end = at;
  while (s[end] === ch) end++;
  return s.slice(at, end);
}

/**
 * The backtick runs of a line, for closing code spans: `closing(from, n)` is the start of the
 * next run of exactly `n` backticks at or after `from`, or -1. Linear over a line: calls come
 * with `from` increasing, and each length's pointer only moves forward.
 */
export function backtickRuns(s: string): (from: number, n: number) => number {
  const byLength = new Map<number, number[]>();
  for (const m of s.matchAll(/`+/g)) {
    const list = byLength.get(m[0].length) ?? [];
    list.push(m.index);
    byLength.set(m[0].length, list);
  }
  const next = new Map<number, number>();
  return (from, n) => {
    const list = byLength.get(n);
    if (!list) return -1;
    let k = next.get(n) ?? 0;
    while (k < list.length && list[k]! < from) k++;
    next.set(n, k);
    return k < list.length ? list[k]! : -1;
  };
}

/** Columns of leading whitespace (a tab to the next multiple of four). */
function columns(lead: string): number {
  let col = 0;
  for (const ch of lead) col = ch === '\t' ? col + 4 - (col % 4) : col + 1;
  return col;
}

/**
 * Model-written Markdown reduced to the safe subset (see the module comment); a fence left open
 * is closed at the end, so nothing appended after it is swallowed.
 *
 * @example
 * reduceMarkdown('<img src=x onerror=alert(1)> *ok* [2]') // '\\<img src=x onerror=alert(1)> *ok* [2]'
 */
export function reduceMarkdown(text: string, opts: ReduceOptions = {}): string {
  const r = new MarkdownReducer(opts);
  const body = r.push(text);
  return `${body}${r.end()}`;
}
