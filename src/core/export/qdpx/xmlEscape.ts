/**
 * The one escape for every text written into `project.qde`: names, descriptions, notes, variable
 * values — corpus text and researchers' words, untrusted. The same function serves attribute
 * values and element content.
 *
 * XML 1.0 cannot carry some characters at all, not even as character references: C0 controls
 * other than tab, line feed and carriage return, U+FFFE, U+FFFF and lone surrogates. They are
 * replaced by U+FFFD (one character for one, so lengths in characters are kept); `xmlSafe` says
 * what a text becomes, which is what a reader gets back.
 */

/** Characters XML 1.0 forbids (Char production), and lone surrogates. */
// eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `s` as XML can carry it: every character XML 1.0 forbids replaced by U+FFFD. */
export function xmlSafe(s: string): string {
  return s.replace(NOT_XML_CHAR, '\uFFFD');
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // Written as references so that attribute-value normalisation (tab and newlines → space) and
  // end-of-line handling (CR LF → LF) leave them as they were.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Any character `escapeXml` changes: what needs escaping, or what XML cannot carry (C0 controls, surrogates, U+FFFE/F). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_WORK = /[\u0000-\u001F&<>"'\uD800-\uDFFF\uFFFE\uFFFF]/;

/** `s` escaped for an XML attribute value (in double or single quotes) or element content. */
export function escapeXml(s: string): string {
  if (!NEEDS_WORK.test(s)) return s; // GUIDs, numbers, most names: nothing to do
  return xmlSafe(s).replace(/[&<>"'\t\n\r]/g, (c) => ESCAPES[c]!);
}
