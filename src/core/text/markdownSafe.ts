/**
 * Untrusted text (corpus text, item titles, folder names and paths, model output) written into
 * Markdown: escaped so it renders as the text it is — never a link, an image, HTML, code, a
 * heading or a new block — in every place a report is read: VS Code's text editor (whose link
 * detector follows `http://`, `https://` and `file://` in plain text), its Markdown preview
 * (markdown-it with linkify: `http(s)://`, `ftp://`, `mailto:`, `//host`, e-mail addresses) and
 * hovers (marked, GFM: bare URLs, `www.`, e-mail addresses). One function per destination:
 * {@link markdownText} for Markdown documents (report.md, its preview, the Markdown export),
 * {@link hoverText} for hovers, {@link markdownCode} for a code span of either; all share the
 * rules below. Model-written Markdown is reduced to a safe subset in `markdownReduce.ts`.
 *
 * Bare URLs are broken with a WORD JOINER (U+2060), which is invisible, so the text still reads
 * right: before the `:` of anything that looks like a URI scheme, between the slashes of `//`,
 * after `www` and before the `@` of an e-mail address.
 */

/** The invisible character that breaks a bare URL (U+2060 WORD JOINER). */
export const LINK_BREAK = '\u2060';

/** URI schemes broken wherever they appear before a colon, even before a digit (`tel:123`, `file:1`). */
const SCHEMES = new Set([
  'about', 'blob', 'callto', 'command', 'data', 'file', 'ftp', 'ftps', 'git', 'http', 'https', 'irc', 'ircs', 'javascript', 'jar', 'mailto', 'news', 'sftp', 'sms', 'smb', 'ssh', 'tel', 'vbscript', 'view-source',
  'vscode', 'vscode-file', 'vscode-insiders', 'vscode-remote', 'vscode-resource', 'vscode-webview', 'vscodium', 'ws', 'wss', 'xmpp',
]);

/** A scheme-like run (a letter, then letters, digits, `+`, `.`, `-`) and its colon. */
const SCHEME_COLON = /([A-Za-z][A-Za-z0-9+.-]*):/g;

/**
 * `text` with every bare URL broken so no link detector matches it: a word joiner before the
 * colon of a scheme-like word (a known scheme always; any other word when the colon is followed
 * by something other than a digit or a space, so `file.vtt:12` and `Note: x` stay as they are),
 * between the slashes of `//`, after `www` and before the `@` of an e-mail address. Used for code
 * too (the text editor links URLs inside code blocks as well).
 *
 * @example
 * breakAutolinks('see https://x.io') // 'see https\u2060:/\u2060/x.io'
 */
export function breakAutolinks(text: string): string {
  return text
    .replace(SCHEME_COLON, (whole, scheme: string, at: number, all: string) => {
      const next = all[at + whole.length];
      const known = SCHEMES.has(scheme.toLowerCase());
      return known || (next !== undefined && !/[\s\d]/u.test(next)) ? `${scheme}${LINK_BREAK}:` : whole;
    })
    .replace(/\/(?=\/)/g, `/${LINK_BREAK}`)
    .replace(/(?<![A-Za-z0-9])(www)(?=\.)/gi, `$1${LINK_BREAK}`)
    .replace(/(?<=[A-Za-z0-9._%+-])@(?=[A-Za-z0-9])/g, `${LINK_BREAK}@`);
}

/** Every line break a Markdown reader or an editor may act on (CR, LF, NEL, LS, PS). */
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029]/g;
/** Blank lines (and the spaces before them) at the end of a text: a blank last line would end a hover's quote. */
const TRAILING_BLANK = /[ \t]*(?:(?:\r\n|[\r\n\u0085\u2028\u2029])[ \t]*)+$/u;

/** Characters escaped wherever they are: each can start a link, image, HTML, entity, code, emphasis, table cell, strikethrough, math or heading. */
const ALWAYS = /[\\`*[\]<&|~#$]/g;
/**
 * An underscore that can open or close emphasis: one not between two letters or digits (an
 * intraword `_` never does, so `speaker_4` and `Temu_sW` stay as they are in the raw text).
 */
const EMPHASIS_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/** At the start of a line, what would start a block: a list (`-`, `+`, `1.`, `1)`), a quote, a setext underline. */
function escapeLineStart(escaped: string): string {
  const m = /^(\s*)(?:([-+>=])|(\d{1,9})([.)]))/.exec(escaped);
  if (!m) return escaped;
  if (m[2]) return `${m[1]}\\${escaped.slice(m[1]!.length)}`;
  const at = m[1]!.length + m[3]!.length;
  return `${escaped.slice(0, at)}\\${escaped.slice(at)}`;
}

/** One line of untrusted text, escaped (shared by {@link markdownText} and {@link hoverText}). */
function escapeLine(line: string): string {
  return escapeLineStart(breakAutolinks(line).replace(ALWAYS, (c) => `\\${c}`).replace(EMPHASIS_UNDERSCORE, '\\_'));
}

/**
 * Untrusted text as one line of a Markdown document (report.md, its preview, the Markdown export):
 * line breaks become spaces (a name never starts a new block), Markdown characters are
 * backslash-escaped (no link, image, HTML, entity, code, emphasis or heading comes from it) and
 * bare URLs are broken ({@link breakAutolinks}). The preview shows exactly the characters of
 * `text` (line breaks as spaces).
 *
 * @example
 * markdownText('[free bike](command:x)') // '\\[free bike\\](command\u2060:x)'
 */
export function markdownText(text: string): string {
  return escapeLine(text.replace(LINE_BREAKS, ' '));
}

/**
 * Untrusted text in a hover (a Markdown string the editor renders once): each line escaped as
 * {@link markdownText} escapes it, the lines joined with Markdown hard breaks, so a multi-line
 * title or quote shows its lines and none of them starts a block of its own. After `> ` the whole
 * text stays in the quote.
 *
 * @example
 * hoverText('one\n# two') // 'one\\\n\\# two'
 */
export function hoverText(text: string): string {
  return text.replace(TRAILING_BLANK, '').split(LINE_BREAKS).map(escapeLine).join('\\\n');
}

/**
 * Untrusted text as a Markdown code span (documents and hovers): the fence is one backtick more
 * than the longest run inside, line breaks become spaces, bare URLs are broken (the text editor
 * links them inside code too); code renders literally, so nothing else needs escaping.
 *
 * @example
 * markdownCode('a`b') // '``a`b``'
 */
export function markdownCode(text: string): string {
  const one = breakAutolinks(text.replace(LINE_BREAKS, ' '));
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[ `]|[ `]$/.test(one) && one.trim() !== '' ? ' ' : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/**
 * Untrusted text in a header line of the readable view (a Markdown document read raw in the text
 * editor, where the Markdown language's link finder looks for `[…](…)`, `[…][…]`, `[…]: …` and
 * `<scheme:…>`, and the editor's for bare URLs): one line, `[`, `]` and `<` backslash-escaped and
 * bare URLs broken — and nothing else, so a name such as `speaker_1` reads as it is.
 *
 * @example
 * readableHeaderText('[free](command:x)') // '\\[free\\](command\u2060:x)'
 */
export function readableHeaderText(text: string): string {
  return breakAutolinks(text.replace(/\s+/g, ' ')).replace(/[[\]<\\]/g, (c) => `\\${c}`);
}
