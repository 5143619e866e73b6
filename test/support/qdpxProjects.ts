/**
 * Generated REFI-QDA projects for the `.qdpx` tests: sources in English, Chinese (with characters
 * outside the Basic Multilingual Plane: CJK Extension B ideographs, emoji, flags, skin tones, ZWJ
 * sequences) and Spanish, with hostile pieces (markup, entities, quotes, CDATA ends, CR LF, tabs,
 * control characters, U+2028, lone surrogates); random code trees with folders; random selections
 * on character boundaries with codings and notes; variables of every type; speakers as cases.
 * Also what such a project must read back as, and an oracle for REFI-QDA positions.
 */
import { wellFormed } from '../../src/core/export/qdpx/codePoints';
import type { QdaGuids } from '../../src/core/export/qdpx/qdaGuids';
import type { QdaCode, QdaCodeInput, QdaProject, QdaProjectInput, QdaVariableType } from '../../src/core/export/qdpx/qdaModel';
import { DEFAULT_ORIGIN } from '../../src/core/export/qdpx/projectXml';
import { xmlSafe } from '../../src/core/export/qdpx/xmlEscape';
import { mulberry32 } from '../../src/core/util/seededRandom';

const ENGLISH = ['the', 'budget', 'meeting', 'remote', 'control', 'design', 'we', 'should', 'agree', 'on', 'battery', 'price', 'users', 'really', 'think', 'so', 'yeah', 'okay'];
const CHINESE = ['我们', '讨论', '一下', '预算', '会议', '用户', '设计', '遥控器', '电池', '价格', '同意', '好的', '𠀀', '𪚥', '𩸽', '😀', '👍🏽', '👨‍👩‍👧', '🇨🇳', '，', '。'];
const SPANISH = ['el', 'presupuesto', 'reunión', 'diseño', 'mañana', 'niño', 'acción', '¿por', 'qué?', '¡claro!', 'está', 'pingüino', 'ñandú', 'también'];
/** Pieces a parser or an escaper can trip on. */
const HOSTILE = ['<b>', '&amp;', '&', '<', '>', '"', "'", ']]>', '<![CDATA[', '\r\n', '\r', '\t', '\u0001', '\u000B', '\u001F', '\u2028', '\u0085', '\uFFFE', '\uD83D', '\uDE00', '&#0;', '<!--', '-->'];
const LANGUAGES = { en: ENGLISH, zh: CHINESE, es: SPANISH } as const;
export type Language = keyof typeof LANGUAGES;
const SPEAKERS = ['Ana', 'Bob', '王伟', 'José <PM>', 'Zoë & "Co"'];

export interface GeneratedProject {
  input: QdaProjectInput;
  /** The language of each source, by source id. */
  languages: Map<string, Language>;
}

/** A generated project; the same seed gives the same project. */
export function generateProject(seed: number): GeneratedProject {
  const r = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const chance = (p: number): boolean => r() < p;
  const words = (vocab: readonly string[], n: number, hostile = 0.1): string =>
    Array.from({ length: n }, () => (chance(hostile) ? pick(HOSTILE) : pick(vocab))).join(chance(0.5) ? ' ' : '');
  const date = (): string => new Date(Date.UTC(2019 + int(0, 6), int(0, 11), int(1, 28), int(0, 23), int(0, 59), int(0, 59))).toISOString();

  const users = Array.from({ length: int(0, 2) }, (_, i) => ({ id: `user-${i}`, name: chance(0.8) ? words(ENGLISH, 2, 0.3) : undefined }));
  const someUser = (): string | undefined => (users.length && chance(0.5) ? pick(users).id : undefined);

  const notes: { id: string; name?: string; text: string; description?: string; createdBy?: string; createdAt?: string }[] = [];
  const maybeNotes = (p: number): string[] => {
    if (!chance(p)) return [];
    return Array.from({ length: int(1, 2) }, () => {
      const id = `note-${notes.length}`;
      notes.push({ id, name: chance(0.5) ? words(SPANISH, 3, 0.3) : undefined, text: words(pick([ENGLISH, CHINESE, SPANISH]), int(0, 30), 0.2), description: chance(0.3) ? words(ENGLISH, 4, 0.3) : undefined, createdBy: someUser(), createdAt: chance(0.5) ? date() : undefined });
      return id;
    });
  };

  let codeCount = 0;
  const codable: string[] = [];
  const codeTree = (depth: number): QdaCodeInput[] =>
    Array.from({ length: int(depth === 0 ? 1 : 0, depth === 0 ? 5 : 3) }, () => {
      const id = `code-${codeCount++}`;
      const isCodable = depth === 0 && chance(0.2) ? false : true;
      if (isCodable) codable.push(id);
      return {
        id,
        name: words(pick([ENGLISH, CHINESE, SPANISH]), int(1, 3), 0.25) || 'x',
        description: chance(0.5) ? words(ENGLISH, int(0, 8), 0.3) : undefined,
        color: chance(0.7) ? `#${Math.floor(r() * 0xffffff).toString(16).padStart(6, '0')}` : chance(0.5) ? '#abc' : undefined,
        isCodable,
        noteIds: maybeNotes(0.3),
        children: depth < 3 && chance(0.5) ? codeTree(depth + 1) : [],
      };
    });
  const codes = codeTree(0);

  const variableTypes: QdaVariableType[] = ['Text', 'Boolean', 'Integer', 'Float', 'Date', 'DateTime'];
  const variables = variableTypes.filter(() => chance(0.7)).map((type, i) => ({ id: `var-${i}`, name: `${type} ${words(SPANISH, 1, 0.3)}`, type, description: chance(0.3) ? words(ENGLISH, 3) : undefined }));
  const FLOATS = [0.5, -2.25, 1e-7, 1e21, 123456.789, 5e-324, 1.7976931348623157e308, 3];
  const valueOf = (type: QdaVariableType): string | number | boolean => {
    switch (type) {
      case 'Text':
        return words(pick([ENGLISH, CHINESE, SPANISH]), int(0, 5), 0.3);
      case 'Boolean':
        return chance(0.5);
      case 'Integer':
        return int(-1e6, 1e6) * (chance(0.2) ? 1e9 : 1);
      case 'Float':
        return chance(0.5) ? pick(FLOATS) : (r() - 0.5) * 10 ** int(-10, 25);
      case 'Date':
        return date().slice(0, 10);
      case 'DateTime':
        return date();
    }
  };
  const values = (): { variableId: string; value: string | number | boolean }[] => variables.filter(() => chance(0.6)).map((v) => ({ variableId: v.id, value: valueOf(v.type) }));

  const languages = new Map<string, Language>();
  const speakerTurns = new Map<string, { sources: Set<string>; selections: string[] }>();
  let selCount = 0;
  const sources = Array.from({ length: int(1, 4) }, (_, si) => {
    const id = `source-${si}`;
    const lang = pick(Object.keys(LANGUAGES) as Language[]);
    languages.set(id, lang);
    const lines = Array.from({ length: int(1, 12) }, () => `${pick(SPEAKERS)}: ${words(LANGUAGES[lang], int(0, 25))}`);
    const text = chance(0.1) ? `\uFEFF${lines.join('\n')}` : lines.join(chance(0.3) ? '\r\n' : '\n');
    // Character (code point) boundaries as UTF-16 offsets: where a selection may start or end.
    const bounds = [0];
    for (const ch of text) bounds.push(bounds[bounds.length - 1]! + ch.length);
    const selections = bounds.length < 2 ? [] : Array.from({ length: int(0, 8) }, () => {
      const a = int(0, bounds.length - 2);
      const b = int(a + 1, Math.min(bounds.length - 1, a + 40));
      const sid = `sel-${selCount++}`;
      const chosen = codable.filter(() => chance(0.3)).slice(0, 3);
      const quote = text.slice(bounds[a]!, bounds[b]!);
      return {
        id: sid,
        name: chance(0.4) ? quote : undefined,
        description: chance(0.2) ? words(ENGLISH, 3, 0.3) : undefined,
        start: bounds[a]!,
        end: bounds[b]!,
        createdBy: someUser(),
        createdAt: chance(0.5) ? date() : undefined,
        codings: chosen.map((codeId) => ({ codeId, createdBy: someUser(), createdAt: chance(0.3) ? date() : undefined, noteIds: maybeNotes(0.15) })),
        noteIds: maybeNotes(0.25),
      };
    });
    for (const sel of selections) {
      const speaker = pick(SPEAKERS);
      const t = speakerTurns.get(speaker) ?? { sources: new Set(), selections: [] };
      t.sources.add(id);
      t.selections.push(sel.id);
      speakerTurns.set(speaker, t);
    }
    return {
      id,
      name: `${lang} ${words(LANGUAGES[lang], 2, 0.3)}`,
      text,
      description: chance(0.3) ? words(ENGLISH, 5, 0.3) : undefined,
      createdBy: someUser(),
      createdAt: chance(0.5) ? date() : undefined,
      modifiedAt: chance(0.3) ? date() : undefined,
      selections,
      codings: codable.filter(() => chance(0.1)).map((codeId) => ({ codeId, noteIds: maybeNotes(0.1) })),
      noteIds: maybeNotes(0.2),
      variables: values(),
    };
  });
  const cases = [...speakerTurns].map(([speaker, t], i) => ({
    id: `case-${i}`,
    name: speaker,
    description: chance(0.3) ? words(ENGLISH, 3, 0.3) : undefined,
    codeIds: codable.filter(() => chance(0.1)),
    variables: values(),
    sourceIds: [...t.sources],
    selectionIds: t.selections,
  }));

  const input: QdaProjectInput = {
    name: words(pick([ENGLISH, CHINESE, SPANISH]), int(1, 4), 0.3) || 'p',
    origin: chance(0.5) ? `Marker Research ${words(ENGLISH, 1, 0.5)}` : undefined,
    description: chance(0.5) ? words(ENGLISH, 6, 0.3) : undefined,
    createdBy: someUser(),
    createdAt: chance(0.7) ? date() : undefined,
    modifiedBy: someUser(),
    modifiedAt: chance(0.5) ? date() : undefined,
    users,
    variables,
    codes,
    sources,
    notes,
    cases,
    noteIds: maybeNotes(0.5),
  };
  return { input, languages };
}

/** A copy of `v` without object keys whose value is undefined (the reader and zod may differ in keeping them). */
export function dropUndefined<T>(v: T): T {
  if (Array.isArray(v)) return v.map(dropUndefined) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, dropUndefined(x)])) as T;
  return v;
}

/**
 * What `readQdpx` must give back for exported `project`: every id replaced by its GUID (the file
 * knows no other id), every name, description and note text as XML carries it (`xmlSafe`),
 * source texts as UTF-8 carries them, the default origin filled in.
 */
export function expectedReadBack(project: QdaProject, guids: QdaGuids): QdaProject {
  const opt = (s: string | undefined): string | undefined => (s === undefined ? undefined : xmlSafe(s));
  const user = (id: string | undefined): string | undefined => (id === undefined ? undefined : guids.of('user', id));
  const notes = (ids: string[]): string[] => ids.map((n) => guids.of('note', n));
  const values = (vs: QdaProject['sources'][number]['variables']): typeof vs =>
    vs.map((v) => ({ variableId: guids.of('variable', v.variableId), value: typeof v.value === 'string' ? xmlSafe(v.value) : v.value }));
  const code = (c: QdaCode): QdaCode => {
    const g = guids.of('code', c.id);
    return { id: g, guid: g, name: xmlSafe(c.name), description: opt(c.description), color: c.color, isCodable: c.isCodable, noteIds: notes(c.noteIds), children: c.children.map(code) };
  };
  const codings = (owner: 'source' | 'selection', ownerId: string, list: QdaProject['sources'][number]['codings']): typeof list =>
    list.map((c) => ({ codeId: guids.of('code', c.codeId), guid: guids.coding(owner, ownerId, c.codeId), createdBy: user(c.createdBy), createdAt: c.createdAt, noteIds: notes(c.noteIds) }));
  const withGuid = (kind: Parameters<QdaGuids['of']>[0], id: string): { id: string; guid: string } => ({ id: guids.of(kind, id), guid: guids.of(kind, id) });
  return dropUndefined({
    name: xmlSafe(project.name),
    origin: xmlSafe(project.origin ?? DEFAULT_ORIGIN),
    description: opt(project.description),
    createdBy: user(project.createdBy),
    createdAt: project.createdAt,
    modifiedBy: user(project.modifiedBy),
    modifiedAt: project.modifiedAt,
    users: project.users.map((u) => ({ ...withGuid('user', u.id), name: opt(u.name) })),
    variables: project.variables.map((v) => ({ ...withGuid('variable', v.id), name: xmlSafe(v.name), type: v.type, description: opt(v.description) })),
    codes: project.codes.map(code),
    sources: project.sources.map((s) => ({
      ...withGuid('source', s.id),
      name: xmlSafe(s.name),
      text: wellFormed(s.text),
      description: opt(s.description),
      createdBy: user(s.createdBy),
      createdAt: s.createdAt,
      modifiedAt: s.modifiedAt,
      selections: s.selections.map((sel) => ({
        ...withGuid('selection', sel.id),
        name: opt(sel.name),
        description: opt(sel.description),
        start: sel.start,
        end: sel.end,
        createdBy: user(sel.createdBy),
        createdAt: sel.createdAt,
        codings: codings('selection', sel.id, sel.codings),
        noteIds: notes(sel.noteIds),
      })),
      codings: codings('source', s.id, s.codings),
      noteIds: notes(s.noteIds),
      variables: values(s.variables),
    })),
    notes: project.notes.map((n) => ({ ...withGuid('note', n.id), name: opt(n.name), text: xmlSafe(n.text), description: opt(n.description), createdBy: user(n.createdBy), createdAt: n.createdAt })),
    cases: project.cases.map((c) => ({
      ...withGuid('case', c.id),
      name: opt(c.name),
      description: opt(c.description),
      codeIds: c.codeIds.map((x) => guids.of('code', x)),
      variables: values(c.variables),
      sourceIds: c.sourceIds.map((x) => guids.of('source', x)),
      selectionIds: c.selectionIds.map((x) => guids.of('selection', x)),
    })),
    noteIds: notes(project.noteIds),
  });
}

/** REFI-QDA's position of UTF-16 offset `u` of `text`: the code points before it (the oracle, by `Array.from`). */
export function codePointsBefore(text: string, u: number): number {
  return Array.from(text.slice(0, u)).length;
}
