/**
 * The codebook of a corpus (`.marker-research/codebook.json`): the researcher's codes — name,
 * description, colour, optional parent, memo — validated on read (an invalid file is an error
 * naming the file and the field, never replaced), changed under the file's lock and written
 * atomically. The edits are pure functions of a codebook ({@link addCode} …) wrapped by the store
 * functions ({@link createCode} …), which read the file, apply one, and write it.
 */
import { withFileLock } from '../storage/fileLock';
import { writeFileAtomic } from '../storage/atomic';
import { newId, nowIso, type WorkbenchDeps } from './deps';
import { fieldPath, parseJsonFile } from './fileErrors';
import { codebookFile, readTextIfExists, shownName } from './files';
import { CODEBOOK_VERSION, codebookSchema, colourSchema, nameKey, type Code, type Codebook } from './schema';

export { codebookFile };

/** Colours given to new codes in turn (distinct on light and dark themes). */
export const CODE_PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#469990', '#808000', '#000075', '#a9a9a9'] as const;

export function emptyCodebook(): Codebook {
  return { version: CODEBOOK_VERSION, codes: [] };
}

/** A codebook edit that cannot be made (an unknown code, a duplicate name, a cycle of parents). */
export class CodebookEditError extends Error {
  readonly code = 'ECODEBOOKEDIT';
  constructor(message: string) {
    super(message);
    this.name = 'CodebookEditError';
  }
}

/** The codebook in a file's text. @throws WorkbenchFileError naming `file` and the field (or line) that is wrong. */
export function parseCodebook(text: string, file: string): Codebook {
  return parseJsonFile(text, file, codebookSchema);
}

/** The codebook's text as written. */
export function codebookText(book: Codebook): string {
  return `${JSON.stringify(book, null, 1)}\n`;
}

/** The corpus's codebook; an empty one when there is no file. @throws WorkbenchFileError when the file does not validate. */
export async function readCodebook(root: string): Promise<Codebook> {
  const file = codebookFile(root);
  const text = await readTextIfExists(file);
  return text === undefined ? emptyCodebook() : parseCodebook(text, shownName(root, file));
}

/** A codebook checked after an edit: the schema's rules (unique ids and names, known parents, no cycles) as an edit error. */
function checked(book: Codebook): Codebook {
  const r = codebookSchema.safeParse(book);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new CodebookEditError(`${fieldPath(issue.path)}: ${issue.message}`);
}

function find(book: Codebook, id: string): number {
  const k = book.codes.findIndex((c) => c.id === id);
  if (k < 0) throw new CodebookEditError(`no code with id "${id}" in the codebook`);
  return k;
}

/** The first palette colour no code has yet (then round the palette again). */
export function nextColour(book: Codebook): string {
  const used = new Set(book.codes.map((c) => c.colour.toLowerCase()));
  return CODE_PALETTE.find((c) => !used.has(c)) ?? CODE_PALETTE[book.codes.length % CODE_PALETTE.length]!;
}

/** What a new code is made of. */
export interface NewCode {
  name: string;
  description?: string;
  colour?: string;
  parentId?: string;
}

// ---- pure edits ---------------------------------------------------------------------------------

export function addCode(book: Codebook, input: NewCode, deps: WorkbenchDeps = {}): { book: Codebook; code: Code } {
  const code: Code = {
    id: newId(deps),
    name: input.name.trim(),
    ...(input.description?.trim() ? { description: input.description.trim() } : {}),
    colour: colourSchema.parse(input.colour ?? nextColour(book)).toLowerCase(),
    ...(input.parentId ? { parentId: input.parentId } : {}),
    createdAt: nowIso(deps),
  };
  return { book: checked({ ...book, codes: [...book.codes, code] }), code };
}

function edit(book: Codebook, id: string, fn: (c: Code) => Code): { book: Codebook; code: Code } {
  const k = find(book, id);
  const code = fn(book.codes[k]!);
  const codes = [...book.codes];
  codes[k] = code;
  return { book: checked({ ...book, codes }), code };
}

export function renameCodeIn(book: Codebook, id: string, name: string): { book: Codebook; code: Code } {
  return edit(book, id, (c) => ({ ...c, name: name.trim() }));
}

export function recolourCodeIn(book: Codebook, id: string, colour: string): { book: Codebook; code: Code } {
  const r = colourSchema.safeParse(colour);
  if (!r.success) throw new CodebookEditError(`colour: expected a colour as #rrggbb (got ${JSON.stringify(colour)})`);
  return edit(book, id, (c) => ({ ...c, colour: r.data.toLowerCase() }));
}

export function describeCodeIn(book: Codebook, id: string, description: string): { book: Codebook; code: Code } {
  return edit(book, id, (c) => {
    const { description: _d, ...rest } = c;
    return description.trim() ? { ...rest, description: description.trim() } : rest;
  });
}

/** Sets (or with null removes) a code's memo. */
export function setCodeMemoIn(book: Codebook, id: string, text: string | null, deps: WorkbenchDeps = {}): { book: Codebook; code: Code } {
  return edit(book, id, (c) => {
    const { memo: _m, ...rest } = c;
    return text?.trim() ? { ...rest, memo: { text, updatedAt: nowIso(deps) } } : rest;
  });
}

/** Moves a code under another (null: to the top level). */
export function moveCodeIn(book: Codebook, id: string, parentId: string | null): { book: Codebook; code: Code } {
  if (parentId !== null) find(book, parentId);
  return edit(book, id, (c) => {
    const { parentId: _p, ...rest } = c;
    return parentId === null ? rest : { ...rest, parentId };
  });
}

/** Removes a code; its children move up to its parent. */
export function removeCodeIn(book: Codebook, id: string): { book: Codebook; code: Code; reparented: string[] } {
  const code = book.codes[find(book, id)]!;
  const reparented: string[] = [];
  const codes = book.codes
    .filter((c) => c.id !== id)
    .map((c) => {
      if (c.parentId !== id) return c;
      reparented.push(c.id);
      const { parentId: _p, ...rest } = c;
      return code.parentId ? { ...rest, parentId: code.parentId } : rest;
    });
  return { book: checked({ ...book, codes }), code, reparented };
}

/** Codes whose name is `name` (case, width and spacing ignored). */
export function codesNamed(book: Codebook, name: string): Code[] {
  const key = nameKey(name);
  return book.codes.filter((c) => nameKey(c.name) === key);
}

/** A code and every code under it, at any depth. */
export function descendantsOf(book: Codebook, id: string): Set<string> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of book.codes)
      if (c.parentId !== undefined && out.has(c.parentId) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
  }
  return out;
}

// ---- the store ----------------------------------------------------------------------------------

/** Applies `fn` to the codebook on disk under its lock and writes the result. */
export async function updateCodebook<T extends { book: Codebook }>(root: string, fn: (book: Codebook) => T): Promise<T> {
  const file = codebookFile(root);
  return withFileLock(file, async () => {
    const text = await readTextIfExists(file);
    const book = text === undefined ? emptyCodebook() : parseCodebook(text, shownName(root, file));
    const out = fn(book);
    await writeFileAtomic(file, codebookText(out.book));
    return out;
  });
}

export async function createCode(root: string, input: NewCode, deps: WorkbenchDeps = {}): Promise<Code> {
  return (await updateCodebook(root, (b) => addCode(b, input, deps))).code;
}

export async function renameCode(root: string, id: string, name: string): Promise<Code> {
  return (await updateCodebook(root, (b) => renameCodeIn(b, id, name))).code;
}

export async function recolourCode(root: string, id: string, colour: string): Promise<Code> {
  return (await updateCodebook(root, (b) => recolourCodeIn(b, id, colour))).code;
}

export async function describeCode(root: string, id: string, description: string): Promise<Code> {
  return (await updateCodebook(root, (b) => describeCodeIn(b, id, description))).code;
}

export async function setCodeMemo(root: string, id: string, text: string | null, deps: WorkbenchDeps = {}): Promise<Code> {
  return (await updateCodebook(root, (b) => setCodeMemoIn(b, id, text, deps))).code;
}

export async function moveCode(root: string, id: string, parentId: string | null): Promise<Code> {
  return (await updateCodebook(root, (b) => moveCodeIn(b, id, parentId))).code;
}
