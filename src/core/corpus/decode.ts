/**
 * Turns the bytes of a corpus file into text: BOMs (UTF-8, UTF-16 LE/BE) are
 * honoured and stripped, invalid UTF-8 is replaced and reported, CRLF becomes LF.
 */

export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** Human-readable notes about the decoding (e.g. invalid bytes replaced). */
  warnings: string[];
}

/** Decodes file bytes to text, never throwing. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const warnings: string[] = [];
  let encoding: DecodedText['encoding'] = 'utf-8';
  let body = bytes;
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf-16le';
    body = bytes.subarray(2);
  } else if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    encoding = 'utf-16be';
    body = bytes.subarray(2);
  } else if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    body = bytes.subarray(3);
  } else if (looksLikeUtf16Le(bytes)) {
    encoding = 'utf-16le';
    warnings.push('no byte-order mark, but the bytes look like UTF-16 LE; decoded as UTF-16 LE');
  }
  let text: string;
  if (encoding === 'utf-8') {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      text = new TextDecoder('utf-8').decode(body);
      warnings.push('invalid UTF-8 bytes were replaced with U+FFFD');
    }
  } else {
    text = new TextDecoder(encoding).decode(body);
  }
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  return { text, encoding, warnings };
}

function looksLikeUtf16Le(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  const n = Math.min(bytes.length, 200) & ~1;
  let zeroOdd = 0;
  for (let i = 1; i < n; i += 2) if (bytes[i] === 0 && bytes[i - 1] !== 0) zeroOdd++;
  return zeroOdd > n / 4;
}
