/**
 * The GUID of every entity of a project: the one it carries (`guid`, canonicalised) or one derived
 * from its kind and id (`derivedGuid`), optionally under a seed (e.g. the corpus), so that two
 * corpora's code "c1" differ. A GUID used twice is an error: REFI-QDA identifies everything by it.
 */
import { canonicalGuid, derivedGuid } from './guid';
import { walkCodes, type QdaProject } from './qdaModel';

export type QdaKind = 'user' | 'variable' | 'code' | 'source' | 'selection' | 'note' | 'case';

export class QdaGuids {
  private readonly byKind = new Map<QdaKind, Map<string, string>>();
  private readonly codings = new Map<string, string>();
  private readonly used = new Map<string, string>();

  /**
   * @param seed mixed into every derived GUID (default none).
   * @throws Error when two entities would share a GUID.
   */
  constructor(project: QdaProject, private readonly seed = '') {
    const add = (kind: QdaKind, e: { id: string; guid?: string | undefined }): void => {
      const g = e.guid !== undefined ? canonicalGuid(e.guid) : derivedGuid(seed, kind, e.id);
      this.claim(g, `${kind} "${e.id}"`);
      let m = this.byKind.get(kind);
      if (!m) this.byKind.set(kind, (m = new Map()));
      m.set(e.id, g);
    };
    project.users.forEach((u) => add('user', u));
    project.variables.forEach((v) => add('variable', v));
    for (const { code } of walkCodes(project.codes)) add('code', code);
    project.notes.forEach((n) => add('note', n));
    project.cases.forEach((c) => add('case', c));
    for (const s of project.sources) {
      add('source', s);
      for (const sel of s.selections) add('selection', sel);
    }
    for (const s of project.sources) {
      for (const c of s.codings) this.addCoding('source', s.id, c);
      for (const sel of s.selections) for (const c of sel.codings) this.addCoding('selection', sel.id, c);
    }
  }

  private claim(g: string, what: string): void {
    const other = this.used.get(g);
    if (other !== undefined) throw new Error(`GUID ${g} of ${what} is also the GUID of ${other}`);
    this.used.set(g, what);
  }

  private addCoding(owner: 'source' | 'selection', ownerId: string, c: { codeId: string; guid?: string | undefined }): void {
    const g = c.guid !== undefined ? canonicalGuid(c.guid) : derivedGuid(this.seed, 'coding', owner, ownerId, c.codeId);
    this.claim(g, `the coding of ${owner} "${ownerId}" with code "${c.codeId}"`);
    this.codings.set(`${owner}\u0000${ownerId}\u0000${c.codeId}`, g);
  }

  /**
   * The GUID of entity `id` of `kind`.
   * @throws Error for an id the project does not have (the model's references are checked, so a bug).
   */
  of(kind: QdaKind, id: string): string {
    const g = this.byKind.get(kind)?.get(id);
    if (g === undefined) throw new Error(`no ${kind} "${id}" in the project`);
    return g;
  }

  /** The GUID of the coding of a source or selection with a code. */
  coding(owner: 'source' | 'selection', ownerId: string, codeId: string): string {
    const g = this.codings.get(`${owner}\u0000${ownerId}\u0000${codeId}`);
    if (g === undefined) throw new Error(`no coding of ${owner} "${ownerId}" with code "${codeId}"`);
    return g;
  }
}
