/**
 * A source's text file inside a `.qdpx`: UTF-8 (REFI-QDA 1.5 §9.1.2), the text exactly, so that
 * positions in it are positions in the text. A reader drops a leading byte-order mark (other tools
 * may write one, and do not count it); so a text that itself begins with U+FEFF is written after
 * one, and reads back whole.
 */

const BOM = '\uFEFF';
const encoder = new TextEncoder();
/** Lone surrogates and invalid bytes become U+FFFD; one leading BOM is dropped. */
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** The bytes of the text file of `text`. */
export function encodePlainText(text: string): Uint8Array {
  return encoder.encode(text.startsWith(BOM) ? BOM + text : text);
}

/** The text of a text file's bytes. */
export function decodePlainText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
