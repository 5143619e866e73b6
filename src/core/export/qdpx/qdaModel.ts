/**
 * The REFI-QDA project as Marker Research exports it, independent of where the workbench keeps
 * things: what `exportQdpx` writes and what `readQdpx` gives back. zod is the source of truth.
 *
 * - Ids are ours (any non-empty string); each entity's GUID is derived from its id (`guid.ts`)
 *   unless it carries one (`guid`, as a project read back from a `.qdpx` does).
 * - Texts are JavaScript strings and **offsets count UTF-16 code units**, half-open
 *   `[start, end)`, like every offset in Marker Research. The writer converts them to the code
 *   points REFI-QDA counts (`codePoints.ts`); the reader converts back.
 * - Sources are plain-text sources (`TextSource`): the readable text, written to the `.qdpx` as
 *   `Sources/<guid>.txt`, so that a selection's offsets are offsets into that file.
 * - A coded segment is a `PlainTextSelection` with one `Coding` per code; memos are `Note`s,
 *   referenced by id from the project, a source, a selection, a coding or a code.
 * - Speakers are best exported as **cases** (REFI-QDA 1.5 §13: "A Case is a subject, object or
 *   topic by which sources and selections can be grouped. For example the person that was
 *   interviewed multiple times"): a speaker recurs across items and says particular passages, so a
 *   case per speaker with `sourceIds` (the items they speak in) and `selectionIds` (their turns)
 *   keeps who said what; variables (§3.18, "a named attribute of a case or a source") carry an
 *   item's own attributes (date, channel, language, the list of speakers as text).
 *
 * Names, descriptions and note texts are written to XML: characters XML 1.0 cannot carry come back
 * as U+FFFD (`xmlSafe`). Source texts are written to their own UTF-8 files and come back exactly
 * (a lone surrogate becomes U+FFFD, as in any UTF-8 file).
 */
import { z } from 'zod';
import { splitsSurrogatePair } from './codePoints';
import { GUID_PATTERN } from './guid';

const id = z.string().min(1);
const guid = z.string().regex(GUID_PATTERN, 'expected a GUID (8-4-4-4-12 hexadecimal digits)');
/** `xsd:dateTime`: date, time with seconds, optional fraction and time zone. */
const XSD_DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/;
const XSD_DATE = /^-?\d{4,}-\d{2}-\d{2}(?:Z|[+-]\d{2}:\d{2})?$/;
export const dateTimeSchema = z.string().regex(XSD_DATE_TIME, 'expected a date and time as xsd:dateTime (e.g. 2024-05-01T12:00:00Z)');
/** The schema's `RGBType`. */
export const colorSchema = z.string().regex(/^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/, 'expected a colour as #rrggbb or #rgb');

export const qdaUserSchema = z.object({
  id,
  guid: guid.optional(),
  name: z.string().optional(),
});
export type QdaUser = z.infer<typeof qdaUserSchema>;

/** The schema's `typeOfVariableType`. */
export const VARIABLE_TYPES = ['Text', 'Boolean', 'Integer', 'Float', 'Date', 'DateTime'] as const;
export type QdaVariableType = (typeof VARIABLE_TYPES)[number];

export const qdaVariableSchema = z.object({
  id,
  guid: guid.optional(),
  name: z.string(),
  type: z.enum(VARIABLE_TYPES),
  description: z.string().optional(),
});
export type QdaVariable = z.infer<typeof qdaVariableSchema>;

/**
 * A variable's value on a source or a case. Its JavaScript type follows the variable's type:
 * Text → string; Boolean → boolean; Integer → safe integer; Float → finite number; Date →
 * `YYYY-MM-DD` string; DateTime → xsd:dateTime string.
 */
export const qdaVariableValueSchema = z.object({
  variableId: id,
  value: z.union([z.string(), z.number(), z.boolean()]),
});
export type QdaVariableValue = z.infer<typeof qdaVariableValueSchema>;

export const qdaNoteSchema = z.object({
  id,
  guid: guid.optional(),
  name: z.string().optional(),
  /** The note's text (`PlainTextContent`). */
  text: z.string(),
  description: z.string().optional(),
  createdBy: id.optional(),
  createdAt: dateTimeSchema.optional(),
});
export type QdaNote = z.infer<typeof qdaNoteSchema>;

/** A code as REFI-QDA has it (output type of `qdaCodeSchema`). */
export interface QdaCode {
  id: string;
  guid?: string | undefined;
  name: string;
  description?: string | undefined;
  color?: string | undefined;
  /** False for a folder of codes that is not itself applied to data. */
  isCodable: boolean;
  noteIds: string[];
  children: QdaCode[];
}
/** What `qdaCodeSchema` accepts (defaults filled in). */
export interface QdaCodeInput {
  id: string;
  guid?: string | undefined;
  name: string;
  description?: string | undefined;
  color?: string | undefined;
  isCodable?: boolean | undefined;
  noteIds?: string[] | undefined;
  children?: QdaCodeInput[] | undefined;
}

export const qdaCodeSchema: z.ZodType<QdaCode, QdaCodeInput> = z.object({
  id,
  guid: guid.optional(),
  name: z.string().min(1, 'a code needs a name'),
  description: z.string().optional(),
  color: colorSchema.optional(),
  isCodable: z.boolean().default(true),
  noteIds: z.array(id).default([]),
  children: z.array(z.lazy(() => qdaCodeSchema)).default([]),
});

/** One code applied to a selection or a whole source. */
export const qdaCodingSchema = z.object({
  codeId: id,
  guid: guid.optional(),
  createdBy: id.optional(),
  createdAt: dateTimeSchema.optional(),
  noteIds: z.array(id).default([]),
});
export type QdaCoding = z.infer<typeof qdaCodingSchema>;

/** A selection of a source's text: `[start, end)` in UTF-16 code units of the source's `text`. */
export const qdaSelectionSchema = z.object({
  id,
  guid: guid.optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  createdBy: id.optional(),
  createdAt: dateTimeSchema.optional(),
  codings: z.array(qdaCodingSchema).default([]),
  noteIds: z.array(id).default([]),
});
export type QdaSelection = z.infer<typeof qdaSelectionSchema>;

export const qdaTextSourceSchema = z.object({
  id,
  guid: guid.optional(),
  name: z.string(),
  /** The readable text; selections' offsets are offsets into it. */
  text: z.string(),
  description: z.string().optional(),
  createdBy: id.optional(),
  createdAt: dateTimeSchema.optional(),
  modifiedAt: dateTimeSchema.optional(),
  selections: z.array(qdaSelectionSchema).default([]),
  /** Codes applied to the whole source. */
  codings: z.array(qdaCodingSchema).default([]),
  noteIds: z.array(id).default([]),
  variables: z.array(qdaVariableValueSchema).default([]),
});
export type QdaTextSource = z.infer<typeof qdaTextSourceSchema>;

export const qdaCaseSchema = z.object({
  id,
  guid: guid.optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  codeIds: z.array(id).default([]),
  variables: z.array(qdaVariableValueSchema).default([]),
  sourceIds: z.array(id).default([]),
  selectionIds: z.array(id).default([]),
});
export type QdaCase = z.infer<typeof qdaCaseSchema>;

const projectFields = z.object({
  name: z.string().min(1, 'a project needs a name'),
  /** The exporting software (the `origin` attribute). */
  origin: z.string().optional(),
  description: z.string().optional(),
  createdBy: id.optional(),
  createdAt: dateTimeSchema.optional(),
  modifiedBy: id.optional(),
  modifiedAt: dateTimeSchema.optional(),
  users: z.array(qdaUserSchema).default([]),
  variables: z.array(qdaVariableSchema).default([]),
  codes: z.array(qdaCodeSchema).default([]),
  sources: z.array(qdaTextSourceSchema).default([]),
  notes: z.array(qdaNoteSchema).default([]),
  cases: z.array(qdaCaseSchema).default([]),
  /** Notes on the project as a whole. */
  noteIds: z.array(id).default([]),
});

/** Every code of a tree, depth first, with its path of indexes (for messages). */
export function* walkCodes(codes: readonly QdaCode[], path: (string | number)[] = ['codes']): Generator<{ code: QdaCode; path: (string | number)[] }> {
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    yield { code, path: [...path, i] };
    yield* walkCodes(code.children, [...path, i, 'children']);
  }
}

/** Whether `value` fits a variable of `type`; undefined when it does, else what was expected. */
export function variableValueProblem(type: QdaVariableType, value: string | number | boolean): string | undefined {
  switch (type) {
    case 'Text':
      return typeof value === 'string' ? undefined : 'a string';
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : 'a boolean';
    case 'Integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? undefined : 'a safe integer';
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'a finite number';
    case 'Date':
      return typeof value === 'string' && XSD_DATE.test(value) ? undefined : 'a date as YYYY-MM-DD';
    case 'DateTime':
      return typeof value === 'string' && XSD_DATE_TIME.test(value) ? undefined : 'a date and time as xsd:dateTime';
  }
}

type Project = z.infer<typeof projectFields>;

function checkProject(p: Project, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
  const unique = <T extends { id: string }>(kind: string, items: Iterable<{ item: T; path: (string | number)[] }>): Map<string, T> => {
    const seen = new Map<string, T>();
    for (const { item, path } of items) {
      if (seen.has(item.id)) issue([...path, 'id'], `duplicate ${kind} id "${item.id}"`);
      else seen.set(item.id, item);
    }
    return seen;
  };
  const indexed = <T>(list: readonly T[], key: string): { item: T; path: (string | number)[] }[] => list.map((item, i) => ({ item, path: [key, i] }));

  const users = unique('user', indexed(p.users, 'users'));
  const variables = unique('variable', indexed(p.variables, 'variables'));
  const notes = unique('note', indexed(p.notes, 'notes'));
  const codes = unique('code', [...walkCodes(p.codes)].map(({ code, path }) => ({ item: code, path })));
  const sources = unique('source', indexed(p.sources, 'sources'));
  const selections = unique(
    'selection',
    p.sources.flatMap((s, i) => s.selections.map((item, k) => ({ item, path: ['sources', i, 'selections', k] }))),
  );
  unique('case', indexed(p.cases, 'cases'));

  const user = (u: string | undefined, path: (string | number)[]): void => {
    if (u !== undefined && !users.has(u)) issue(path, `unknown user "${u}"`);
  };
  const noteRefs = (ids: readonly string[], path: (string | number)[]): void =>
    ids.forEach((n, i) => {
      if (!notes.has(n)) issue([...path, i], `unknown note "${n}"`);
    });
  const codings = (list: readonly QdaCoding[], path: (string | number)[]): void => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const code = codes.get(c.codeId);
      if (!code) issue([...path, i, 'codeId'], `unknown code "${c.codeId}"`);
      else if (!code.isCodable) issue([...path, i, 'codeId'], `code "${code.name}" is not codable (isCodable is false)`);
      if (seen.has(c.codeId)) issue([...path, i, 'codeId'], `code "${c.codeId}" is applied twice`);
      seen.add(c.codeId);
      user(c.createdBy, [...path, i, 'createdBy']);
      noteRefs(c.noteIds, [...path, i, 'noteIds']);
    });
  };
  const values = (list: readonly QdaVariableValue[], path: (string | number)[]): void =>
    list.forEach((v, i) => {
      const variable = variables.get(v.variableId);
      if (!variable) return issue([...path, i, 'variableId'], `unknown variable "${v.variableId}"`);
      const problem = variableValueProblem(variable.type, v.value);
      if (problem) issue([...path, i, 'value'], `variable "${variable.name}" is of type ${variable.type}: expected ${problem}`);
    });

  user(p.createdBy, ['createdBy']);
  user(p.modifiedBy, ['modifiedBy']);
  noteRefs(p.noteIds, ['noteIds']);
  p.notes.forEach((n, i) => user(n.createdBy, ['notes', i, 'createdBy']));
  for (const { code, path } of walkCodes(p.codes)) noteRefs(code.noteIds, [...path, 'noteIds']);
  p.sources.forEach((s, i) => {
    const at = ['sources', i];
    user(s.createdBy, [...at, 'createdBy']);
    codings(s.codings, [...at, 'codings']);
    noteRefs(s.noteIds, [...at, 'noteIds']);
    values(s.variables, [...at, 'variables']);
    s.selections.forEach((sel, k) => {
      const sp = [...at, 'selections', k];
      if (sel.end <= sel.start) issue([...sp, 'end'], `selection "${sel.id}": end (${sel.end}) must be greater than start (${sel.start})`);
      if (sel.end > s.text.length) issue([...sp, 'end'], `selection "${sel.id}": end (${sel.end}) is past the end of the source's text (${s.text.length})`);
      for (const edge of ['start', 'end'] as const) {
        if (splitsSurrogatePair(s.text, sel[edge])) issue([...sp, edge], `selection "${sel.id}": ${edge} (${sel[edge]}) falls inside a surrogate pair`);
      }
      user(sel.createdBy, [...sp, 'createdBy']);
      codings(sel.codings, [...sp, 'codings']);
      noteRefs(sel.noteIds, [...sp, 'noteIds']);
    });
  });
  p.cases.forEach((c, i) => {
    const at = ['cases', i];
    c.codeIds.forEach((x, k) => {
      if (!codes.has(x)) issue([...at, 'codeIds', k], `unknown code "${x}"`);
    });
    c.sourceIds.forEach((x, k) => {
      if (!sources.has(x)) issue([...at, 'sourceIds', k], `unknown source "${x}"`);
    });
    c.selectionIds.forEach((x, k) => {
      if (!selections.has(x)) issue([...at, 'selectionIds', k], `unknown selection "${x}"`);
    });
    values(c.variables, [...at, 'variables']);
  });
}

/**
 * A whole project. Beyond each field's shape it checks that ids are unique per kind (selections
 * across all sources), every reference resolves (users, codes, notes, variables, sources,
 * selections), codings use codable codes at most once per selection, variable values fit their
 * variable's type, and every selection lies inside its source's text without splitting a
 * surrogate pair.
 */
export const qdaProjectSchema = projectFields.superRefine(checkProject);
export type QdaProject = z.infer<typeof qdaProjectSchema>;
export type QdaProjectInput = z.input<typeof qdaProjectSchema>;
