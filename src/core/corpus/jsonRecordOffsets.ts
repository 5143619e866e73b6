/**
 * Where the records of JSON text that `JSON.parse` already accepted sit in the file: each
 * record's braces, how many keys it has as written, and where the values of some of its keys
 * (its text) are. The readers need those offsets for the source map of a record's text, and
 * until now got them from jsonc-parser's tree of every value, which costs about five times
 * `JSON.parse` (issue 25: Ask parses its hits' items, ~8 ms a transcript on the 100 M corpus).
 *
 * This is not a parser: it trusts that the text is valid JSON (`JSON.parse` said so) and only
 * finds string tokens and brackets, with a regular expression that the engine runs natively.
 * The counts let a caller see what `JSON.parse` hides — a key written twice in a record (or at
 * the top), which the jsonc-based readers report — and fall back to them when a count differs.
 * A reader that uses it must give the same result as without it (jsonFastPath.test.ts checks
 * that on generated files).
 *
 * @example
 * const o = jsonRecordOffsets('{"turns":[{"text":"hi"}]}', '"turns"', ['"text"']);
 * // o.rootKeys === 1; o.maxDepth === 3; o.records[0] = { start: 10, end: 23, keys: 1, values: Map { '"text"' => { offset: 18, length: 4 } } }
 */

/** The place of a string token: `offset` at its opening quote, `length` with both quotes. */
export interface StringAt {
  offset: number;
  length: number;
}

/** One record: an object directly inside the records array (or the root object itself). */
export interface RecordOffsets {
  /** Offset of its `{`. */
  start: number;
  /** Offset after its `}`. */
  end: number;
  /** Its own keys as written (a key written twice counts twice). */
  keys: number;
  /** String values of the wanted keys, by the key as written (with its quotes); the first of a key written twice. */
  values: Map<string, StringAt>;
}

export interface JsonRecordOffsets {
  /** Keys of the root object as written (0 when the root is not an object). */
  rootKeys: number;
  /** The deepest nesting of arrays and objects (JSON.parse is not recursive; the tree readers are, and refuse what nests too deep). */
  maxDepth: number;
  records: RecordOffsets[];
}

/**
 * `text` as `JSON.parse` reads it when it is an object the clean readers may take: undefined for
 * invalid JSON, a root that is not an object, and any `"__proto__"` key (JSON.parse makes it an
 * own key, the tree readers the prototype).
 */
export function parseCleanObject(text: string): Record<string, unknown> | undefined {
  if (text.includes('"__proto__"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string token or a bracket, in valid JSON. */
const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\]]/g;

/** Offset of the first character at or after `i` that is not JSON whitespace. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/**
 * The records of valid JSON `text`: the objects directly inside the array that is the value of
 * the root object's key `listKey` (as written, with quotes: `'"turns"'`), or, with no `listKey`,
 * the root object itself. `wanted` are the keys (as written, with quotes) whose string values are
 * located. An object that is not directly in the records array is not a record; keys of nested
 * objects are not counted. Undefined when the records array is not found.
 */
export function jsonRecordOffsets(text: string, listKey: string | undefined, wanted: readonly string[]): JsonRecordOffsets | undefined {
  const re = new RegExp(TOKEN.source, 'g');
  /** Open containers. */
  let depth = 0;
  let maxDepth = 0;
  let rootKeys = 0;
  /** The depth of the records' own keys: 1 for the root, 3 for objects in an array under a root key. */
  const recordDepth = listKey === undefined ? 1 : 3;
  let inList = listKey === undefined;
  let listFound = listKey === undefined;
  let cur: RecordOffsets | undefined;
  const records: RecordOffsets[] = [];
  /** Where the value of the last key read starts, and that key (as written). */
  let valueAt = -1;
  let valueKey = '';
  let valueDepth = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index;
    const tok = m[0];
    const c = tok.charCodeAt(0);
    if (c === 34 /* " */) {
      // A string: a key when a colon follows it.
      const next = skipSpace(text, at + tok.length);
      if (text.charCodeAt(next) === 58 /* : */) {
        if (depth === 1) rootKeys++;
        if (cur && depth === recordDepth) cur.keys++;
        valueAt = skipSpace(text, next + 1);
        valueKey = tok;
        valueDepth = depth;
      } else if (cur && at === valueAt && valueDepth === recordDepth && !cur.values.has(valueKey) && wanted.includes(valueKey)) {
        cur.values.set(valueKey, { offset: at, length: tok.length });
      }
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (listKey !== undefined && !listFound && c === 91 && depth === 1 && at === valueAt && valueKey === listKey) {
        inList = true;
        listFound = true;
      }
      if (++depth > maxDepth) maxDepth = depth;
      if (inList && c === 123 && depth === recordDepth) cur = { start: at, end: at, keys: 0, values: new Map() };
    } else {
      if (cur && c === 125 /* } */ && depth === recordDepth) {
        cur.end = at + 1;
        records.push(cur);
        cur = undefined;
      }
      if (listKey !== undefined && inList && c === 93 /* ] */ && depth === 2) inList = false;
      depth--;
    }
  }
  return listFound ? { rootKeys, maxDepth, records } : undefined;
}
