/**
 * Reads a `.qdpx` (ours or another tool's: ATLAS.ti, MAXQDA, NVivo, QualCoder, Transana) back into
 * the project model. Every entity's id is its GUID (canonical: lower case, no braces). Positions
 * are converted from REFI-QDA's code points to the model's UTF-16 code units.
 *
 * What the model cannot hold or what does not hold together is left out with a warning, never
 * guessed: sources other than plain text (pictures, PDFs, audio, video), sets, links, graphs, a
 * selection outside its text, a reference to something the project does not have, a value that
 * does not fit its variable.
 */
import { DOMParser, type Element } from '@xmldom/xmldom';
import { CodePointIndex } from './codePoints';
import { canonicalGuid, isGuid } from './guid';
import { decodePlainText } from './plainTextFile';
import {
  colorSchema,
  dateTimeSchema,
  qdaProjectSchema,
  VARIABLE_TYPES,
  variableValueProblem,
  type QdaCase,
  type QdaCode,
  type QdaCoding,
  type QdaNote,
  type QdaProject,
  type QdaSelection,
  type QdaTextSource,
  type QdaUser,
  type QdaVariable,
  type QdaVariableType,
  type QdaVariableValue,
} from './qdaModel';
import { PROJECT_FILE, SOURCES_DIR, internalEntry } from './qdpxPaths';
import { DEFAULT_UNZIP_LIMITS, unpackZip, type UnzipLimits } from './qdpxZip';

export interface QdpxReadResult {
  project: QdaProject;
  /** What was left out, and why, one line each. */
  warnings: string[];
}

/** The child elements of `el` with local name `name` (any namespace: versions of the format differ). */
function children(el: Element, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === name) out.push(n as Element);
  return out;
}

function child(el: Element, name: string): Element | undefined {
  return children(el, name)[0];
}

function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? (el.getAttribute(name) ?? undefined) : undefined;
}

/** XML 1.0 end-of-line handling only (xmldom's default also folds U+2028, U+2029 and U+0085, XML 1.1's rule). */
const xml10LineEnds = (s: string): string => s.replace(/\r\n?/g, '\n');

/** Parses XML text; throws on anything not well-formed. */
function parseXml(xml: string): Element {
  const doc = new DOMParser({
    normalizeLineEndings: xml10LineEnds,
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`project.qde is not well-formed XML: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
  const root = doc.documentElement;
  if (!root || root.localName !== 'Project') throw new Error(`project.qde: the root element is ${root?.localName ?? 'missing'}, not Project`);
  return root;
}

/** A variable value's text as the model's value (xsd:boolean is true, false, 1 or 0); undefined when it is none. */
function parseValue(type: QdaVariableType, raw: string): string | number | boolean | undefined {
  const t = raw.trim();
  switch (type) {
    case 'Text':
      return raw;
    case 'Boolean':
      return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : undefined;
    case 'Integer':
    case 'Float':
      return t === '' ? undefined : Number(t);
    case 'Date':
    case 'DateTime':
      return t;
  }
}

class ProjectReader {
  readonly warnings: string[] = [];
  private readonly users = new Map<string, QdaUser>();
  private readonly notes = new Map<string, QdaNote>();
  private readonly codes = new Map<string, QdaCode>();
  private readonly variables = new Map<string, QdaVariable>();
  private readonly sources = new Map<string, QdaTextSource>();
  private readonly selections = new Set<string>();
  private readonly seen = new Set<string>();

  constructor(private readonly file: (entry: string) => string | undefined) {}

  private warn(message: string): void {
    this.warnings.push(message);
  }

  /** An element's own GUID, or undefined (warned) when it is missing, malformed or already used. */
  private ownGuid(el: Element): string | undefined {
    const g = attr(el, 'guid');
    if (g === undefined || !isGuid(g.trim())) {
      this.warn(`${el.localName} "${attr(el, 'name') ?? ''}" left out: its guid ${g === undefined ? 'is missing' : `"${g}" is not a GUID`}`);
      return undefined;
    }
    const c = canonicalGuid(g);
    if (this.seen.has(c)) {
      this.warn(`${el.localName} "${attr(el, 'name') ?? ''}" left out: its guid ${c} is used twice`);
      return undefined;
    }
    this.seen.add(c);
    return c;
  }

  /** A reference attribute resolved against `known`, or undefined (warned). */
  private ref(el: Element, name: string, known: { has(id: string): boolean }, what: string): string | undefined {
    const g = attr(el, name);
    if (g === undefined) return undefined;
    const c = isGuid(g.trim()) ? canonicalGuid(g) : undefined;
    if (c === undefined || !known.has(c)) {
      this.warn(`${el.localName}: reference to unknown ${what} "${g}" left out`);
      return undefined;
    }
    return c;
  }

  private dateTime(el: Element, name: string): string | undefined {
    const v = attr(el, name);
    if (v === undefined) return undefined;
    if (dateTimeSchema.safeParse(v.trim()).success) return v.trim();
    this.warn(`${el.localName} "${attr(el, 'name') ?? ''}": ${name} "${v}" is not an xsd:dateTime, left out`);
    return undefined;
  }

  private description(el: Element): string | undefined {
    const d = child(el, 'Description');
    return d ? (d.textContent ?? '') : undefined;
  }

  private noteRefs(el: Element): string[] {
    return children(el, 'NoteRef').flatMap((r) => this.ref(r, 'targetGUID', this.notes, 'note') ?? []);
  }

  private user(el: Element, name: string): string | undefined {
    return this.ref(el, name, this.users, 'user');
  }

  readUsers(root: Element): QdaUser[] {
    for (const el of children(child(root, 'Users') ?? root, 'User')) {
      const g = this.ownGuid(el);
      if (g !== undefined) this.users.set(g, { id: g, guid: g, name: attr(el, 'name') });
    }
    return [...this.users.values()];
  }

  /** A note's or source's text: its PlainTextContent, else the internal file its plainTextPath names. */
  private textOf(el: Element, what: string): string | undefined {
    const content = child(el, 'PlainTextContent');
    if (content) return content.textContent ?? '';
    const p = attr(el, 'plainTextPath');
    if (p === undefined) return undefined;
    const entry = internalEntry(p);
    const text = entry === undefined ? undefined : this.file(entry);
    if (text === undefined) this.warn(`${what}: its text ${p} is not inside the .qdpx`);
    return text;
  }

  readNotes(root: Element): QdaNote[] {
    // Notes may refer to users only; read them first so everything else can refer to them.
    const els = children(child(root, 'Notes') ?? root, 'Note');
    for (const el of els) {
      const g = this.ownGuid(el);
      if (g === undefined) continue;
      const name = attr(el, 'name');
      const text = this.textOf(el, `Note "${name ?? g}"`) ?? '';
      this.notes.set(g, { id: g, guid: g, name, text, description: this.description(el), createdBy: this.user(el, 'creatingUser'), createdAt: this.dateTime(el, 'creationDateTime') });
    }
    return [...this.notes.values()];
  }

  private readCode(el: Element): QdaCode | undefined {
    const g = this.ownGuid(el);
    if (g === undefined) return undefined;
    let name = attr(el, 'name') ?? '';
    if (!name) {
      this.warn(`Code ${g} has no name: named "(unnamed)"`);
      name = '(unnamed)';
    }
    const colorAttr = attr(el, 'color');
    const color = colorAttr !== undefined && colorSchema.safeParse(colorAttr.trim()).success ? colorAttr.trim() : undefined;
    if (colorAttr !== undefined && color === undefined) this.warn(`Code "${name}": color "${colorAttr}" is not #rrggbb, left out`);
    const codable = attr(el, 'isCodable')?.trim();
    const code: QdaCode = {
      id: g,
      guid: g,
      name,
      description: this.description(el),
      color,
      isCodable: codable === undefined ? true : codable === 'true' || codable === '1',
      noteIds: this.noteRefs(el),
      children: [],
    };
    this.codes.set(g, code);
    code.children = children(el, 'Code').flatMap((c) => this.readCode(c) ?? []);
    return code;
  }

  readCodes(root: Element): QdaCode[] {
    const codes = child(child(root, 'CodeBook') ?? root, 'Codes');
    return codes ? children(codes, 'Code').flatMap((c) => this.readCode(c) ?? []) : [];
  }

  readVariables(root: Element): QdaVariable[] {
    for (const el of children(child(root, 'Variables') ?? root, 'Variable')) {
      const name = attr(el, 'name') ?? '';
      const type = attr(el, 'typeOfVariable')?.trim();
      if (!(VARIABLE_TYPES as readonly string[]).includes(type ?? '')) {
        this.warn(`Variable "${name}" left out: typeOfVariable "${type ?? ''}" is not one of ${VARIABLE_TYPES.join(', ')}`);
        continue;
      }
      const g = this.ownGuid(el);
      if (g !== undefined) this.variables.set(g, { id: g, guid: g, name, type: type as QdaVariableType, description: this.description(el) });
    }
    return [...this.variables.values()];
  }

  private variableValues(el: Element, owner: string): QdaVariableValue[] {
    const out: QdaVariableValue[] = [];
    for (const vv of children(el, 'VariableValue')) {
      const refEl = child(vv, 'VariableRef');
      const id = refEl && this.ref(refEl, 'targetGUID', this.variables, 'variable');
      if (id === undefined) continue;
      const variable = this.variables.get(id)!;
      const valueEl = child(vv, `${variable.type}Value`);
      if (!valueEl) {
        this.warn(`${owner}: the value of variable "${variable.name}" is not a ${variable.type}Value, left out`);
        continue;
      }
      const raw = valueEl.textContent ?? '';
      const value = parseValue(variable.type, raw);
      if (value === undefined || variableValueProblem(variable.type, value) !== undefined) {
        this.warn(`${owner}: value "${raw}" does not fit variable "${variable.name}" (${variable.type}), left out`);
        continue;
      }
      out.push({ variableId: id, value });
    }
    return out;
  }

  private codings(el: Element, owner: string): QdaCoding[] {
    const out: QdaCoding[] = [];
    for (const c of children(el, 'Coding')) {
      const refEl = child(c, 'CodeRef');
      const codeId = refEl && this.ref(refEl, 'targetGUID', this.codes, 'code');
      if (codeId === undefined) continue;
      if (!this.codes.get(codeId)!.isCodable) {
        this.warn(`${owner}: coding with code "${this.codes.get(codeId)!.name}", which is not codable, left out`);
        continue;
      }
      if (out.some((o) => o.codeId === codeId)) {
        this.warn(`${owner}: a second coding with code "${this.codes.get(codeId)!.name}" left out`);
        continue;
      }
      const g = this.ownGuid(c);
      if (g === undefined) continue;
      out.push({ codeId, guid: g, createdBy: this.user(c, 'creatingUser'), createdAt: this.dateTime(c, 'creationDateTime'), noteIds: this.noteRefs(c) });
    }
    return out;
  }

  readSources(root: Element): QdaTextSource[] {
    const sources = child(root, 'Sources');
    if (!sources) return [];
    for (let n = sources.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const el = n as Element;
      if (el.localName !== 'TextSource') {
        this.warn(`${el.localName} "${attr(el, 'name') ?? ''}" left out: only plain-text sources are read`);
        continue;
      }
      const g = this.ownGuid(el);
      if (g === undefined) continue;
      const name = attr(el, 'name') ?? '';
      const label = `TextSource "${name}"`;
      const text = this.textOf(el, label);
      const index = new CodePointIndex(text ?? '');
      const selections: QdaSelection[] = [];
      for (const s of children(el, 'PlainTextSelection')) {
        const sName = attr(s, 'name');
        const start = Number(attr(s, 'startPosition'));
        const end = Number(attr(s, 'endPosition'));
        if (text === undefined || !Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > index.codePointLength) {
          this.warn(`${label}: selection "${sName ?? ''}" [${attr(s, 'startPosition')}, ${attr(s, 'endPosition')}) left out: not inside the source's ${index.codePointLength} characters`);
          continue;
        }
        const sg = this.ownGuid(s);
        if (sg === undefined) continue;
        const sel: QdaSelection = {
          id: sg,
          guid: sg,
          name: sName,
          description: this.description(s),
          start: index.toUtf16(start),
          end: index.toUtf16(end),
          createdBy: this.user(s, 'creatingUser'),
          createdAt: this.dateTime(s, 'creationDateTime'),
          codings: this.codings(s, `${label}, selection "${sName ?? sg}"`),
          noteIds: this.noteRefs(s),
        };
        selections.push(sel);
        this.selections.add(sg);
      }
      this.sources.set(g, {
        id: g,
        guid: g,
        name,
        text: text ?? '',
        description: this.description(el),
        createdBy: this.user(el, 'creatingUser'),
        createdAt: this.dateTime(el, 'creationDateTime'),
        modifiedAt: this.dateTime(el, 'modifiedDateTime'),
        selections,
        codings: this.codings(el, label),
        noteIds: this.noteRefs(el),
        variables: this.variableValues(el, label),
      });
    }
    return [...this.sources.values()];
  }

  readCases(root: Element): QdaCase[] {
    const out: QdaCase[] = [];
    for (const el of children(child(root, 'Cases') ?? root, 'Case')) {
      const g = this.ownGuid(el);
      if (g === undefined) continue;
      const name = attr(el, 'name');
      const refs = (tag: string, known: { has(id: string): boolean }, what: string): string[] =>
        children(el, tag).flatMap((r) => this.ref(r, 'targetGUID', known, what) ?? []);
      out.push({
        id: g,
        guid: g,
        name,
        description: this.description(el),
        codeIds: refs('CodeRef', this.codes, 'code'),
        variables: this.variableValues(el, `Case "${name ?? g}"`),
        sourceIds: refs('SourceRef', this.sources, 'source'),
        selectionIds: refs('SelectionRef', this.selections, 'selection'),
      });
    }
    return out;
  }

  read(root: Element): QdaProject {
    const users = this.readUsers(root);
    const notes = this.readNotes(root);
    const codes = this.readCodes(root);
    const variables = this.readVariables(root);
    const sources = this.readSources(root);
    const cases = this.readCases(root);
    for (const tag of ['Links', 'Sets', 'Graphs']) if (child(root, tag)) this.warn(`${tag} left out: not part of the model`);
    const project = {
      name: attr(root, 'name') || '(unnamed project)',
      origin: attr(root, 'origin'),
      description: this.description(root),
      createdBy: this.user(root, 'creatingUserGUID'),
      createdAt: this.dateTime(root, 'creationDateTime'),
      modifiedBy: this.user(root, 'modifyingUserGUID'),
      modifiedAt: this.dateTime(root, 'modifiedDateTime'),
      users,
      variables,
      codes,
      sources,
      notes,
      cases,
      noteIds: this.noteRefs(root),
    };
    return qdaProjectSchema.parse(project);
  }
}

/**
 * The project of `project.qde` text `xml`, whose internal files `file(entry)` gives (entry as
 * `Sources/<name>`; undefined when absent).
 * @throws Error when `xml` is not well-formed or its root is not a Project.
 */
export function readProjectXml(xml: string, file: (entry: string) => string | undefined = () => undefined): QdpxReadResult {
  const reader = new ProjectReader(file);
  const project = reader.read(parseXml(xml));
  return { project, warnings: reader.warnings };
}

const QDE = /^[^/]+\.qde$/i;
const SOURCE_TEXT = new RegExp(`^${SOURCES_DIR}/[^/]+\\.txt$`, 'i');

/**
 * The project in `.qdpx` bytes. Entries are matched without regard to case (tools write
 * `sources/` or `Sources/`, `.txt` or `.TXT`).
 * @throws Error when the bytes are not a ZIP, hold no `.qde`, exceed `limits`, or the `.qde` is not a well-formed project.
 */
export function readQdpx(bytes: Uint8Array, limits: UnzipLimits = DEFAULT_UNZIP_LIMITS): QdpxReadResult {
  const entries = unpackZip(bytes, (p) => QDE.test(p) || SOURCE_TEXT.test(p), limits);
  const byLower = new Map([...entries].map(([k, v]) => [k.toLowerCase(), v]));
  const qdes = [...entries.keys()].filter((k) => QDE.test(k));
  const qde = byLower.get(PROJECT_FILE) ?? (qdes.length === 1 ? entries.get(qdes[0]!) : undefined);
  if (!qde) throw new Error(qdes.length ? `the .qdpx holds ${qdes.length} .qde files and none is ${PROJECT_FILE}` : `the .qdpx holds no ${PROJECT_FILE}`);
  const file = (entry: string): string | undefined => {
    const b = byLower.get(entry.toLowerCase());
    return b && decodePlainText(b);
  };
  return readProjectXml(decodePlainText(qde), file);
}
