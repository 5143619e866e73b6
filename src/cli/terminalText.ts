/**
 * THE sanitiser of text the command line prints (issue 19, class 5). Corpus text, titles, folder
 * names, comment authors, paths and model output reach stdout and stderr; a terminal acts on the
 * control characters among them instead of showing them (ESC starts CSI / OSC / DCS / APC
 * sequences that wipe the screen, set the window title, hide a link behind other text or write
 * the clipboard; C1 controls such as U+009B and U+009D do the same in one character; BEL rings;
 * CR overwrites the line; bidi overrides reorder what is shown). Every such character becomes a
 * visible `\uXXXX`, so nothing of the corpus ever reaches the terminal's parser.
 *
 * `\uXXXX` is also how JSON spells the character: `--json` output goes through the same filter
 * and stays valid JSON with the identical parsed value (JSON.stringify escapes C0 itself; DEL, C1
 * and bidi characters it leaves raw, and this escapes them).
 *
 * The CLI applies it once, where output is written ({@link TerminalSafeStream}, set up by
 * `main`), so no command can forget it; the program's own control sequences (the progress line)
 * go through {@link writeStatus}.
 *
 * @example
 * escapeTerminalText('evil\u001b]0;pwned\u0007 title') // → 'evil\\u001b]0;pwned\\u0007 title'
 */
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Characters a terminal acts on: C0 controls except TAB and LF, DEL, C1 controls (U+0080–U+009F,
 * e.g. U+009B CSI, U+009D OSC), and the bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every terminal control character (see {@link TERMINAL_CONTROL}) written as a
 * visible `\uXXXX`. Newlines and tabs are kept. Idempotent: escaping escaped text changes nothing.
 */
export function escapeTerminalText(text: string): string {
  return text.replace(TERMINAL_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A stream that writes everything through {@link escapeTerminalText} to `target`. Writes are
 * passed on at once, in order (nothing is buffered here), so {@link writeControl} and
 * {@link write} interleave as called.
 */
export class TerminalSafeStream extends Writable {
  /** Whether the target is a terminal (as `process.stderr.isTTY`). */
  readonly isTTY: boolean;
  readonly #decoder = new StringDecoder('utf8');

  constructor(readonly target: NodeJS.WritableStream) {
    super({ decodeStrings: false });
    this.isTTY = (target as Partial<NodeJS.WriteStream>).isTTY === true;
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    if (text) this.target.write(escapeTerminalText(text));
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    const rest = this.#decoder.end();
    if (rest) this.target.write(escapeTerminalText(rest));
    callback();
  }

  /** Writes the program's own control sequence (never corpus text) as is. */
  writeControl(sequence: string): void {
    this.target.write(sequence);
  }
}

/** The stream the program's own terminal control (readline's prompt) may be written to: the target of a {@link TerminalSafeStream}. */
export function rawStream(stream: NodeJS.WritableStream): NodeJS.WritableStream {
  return stream instanceof TerminalSafeStream ? stream.target : stream;
}

/** Whether `stream` is a terminal. */
export function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as Partial<NodeJS.WriteStream>).isTTY === true;
}

/**
 * The one-line status of a long operation on a terminal: clears the line and writes `text`
 * (escaped) without a newline; `text` undefined only clears the line. Nothing is written when
 * `stream` is not a terminal.
 */
export function writeStatus(stream: NodeJS.WritableStream, text?: string): void {
  if (!isTerminal(stream)) return;
  const clear = '\r\x1b[K';
  if (stream instanceof TerminalSafeStream) stream.writeControl(clear);
  else stream.write(clear);
  if (text) stream.write(escapeTerminalText(text));
}
