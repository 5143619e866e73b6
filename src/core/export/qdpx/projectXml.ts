/**
 * Writes `project.qde`: the REFI-QDA project XML (namespace `urn:QDA-XML:project:1.0`, UTF-8),
 * in the element order the schema (`Project.xsd`, QDA-XML 1.0 of 18 March 2019) requires. Empty
 * collections are left out (the schema wants at least one element in each).
 *
 * Every text goes through `escapeXml`; every position is converted from the model's UTF-16 code
 * units to the code points REFI-QDA counts. `endPosition` is exclusive (end − start = the number of
 * characters): §10.2 speaks of "the first and the last character", but the specification's own
 * ATLAS.ti example (Annex A.2) names a selection after its 56-character quote and gives it
 * startPosition 139, endPosition 195. Sources point at their text file with
 * `plainTextPath="internal://<guid>.txt"` (the file itself is written by `qdpxExport.ts`).
 */
import { CodePointIndex } from './codePoints';
import { plainTextPath } from './qdpxPaths';
import type { QdaGuids } from './qdaGuids';
import type { QdaCode, QdaCoding, QdaProject, QdaTextSource, QdaVariable, QdaVariableValue } from './qdaModel';
import { escapeXml } from './xmlEscape';
import { xsdDecimal } from './xsdValues';

export const QDA_NAMESPACE = 'urn:QDA-XML:project:1.0';
/** What `origin` says when the project does not. */
export const DEFAULT_ORIGIN = 'Marker Research';

type Attrs = Record<string, string | number | boolean | undefined>;

/** A tiny indenting writer: every attribute value and text is escaped here, nowhere else. */
class XmlOut {
  private readonly lines: string[] = ['<?xml version="1.0" encoding="utf-8"?>'];
  private depth = 0;

  private open(name: string, attrs: Attrs): string {
    let s = `${'  '.repeat(this.depth)}<${name}`;
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) s += ` ${k}="${escapeXml(String(v))}"`;
    return s;
  }

  /** An element without content. */
  empty(name: string, attrs: Attrs = {}): void {
    this.lines.push(`${this.open(name, attrs)}/>`);
  }

  /** An element whose content is `text`. */
  text(name: string, text: string, attrs: Attrs = {}): void {
    this.lines.push(`${this.open(name, attrs)}>${escapeXml(text)}</${name}>`);
  }

  /** An element with child elements written by `body` (empty when it writes none). */
  element(name: string, attrs: Attrs, body: () => void): void {
    const at = this.lines.length;
    this.lines.push(`${this.open(name, attrs)}>`);
    this.depth++;
    body();
    this.depth--;
    if (this.lines.length === at + 1) this.lines[at] = `${this.lines[at]!.slice(0, -1)}/>`;
    else this.lines.push(`${'  '.repeat(this.depth)}</${name}>`);
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

const VALUE_ELEMENT: Record<QdaVariable['type'], string> = {
  Text: 'TextValue',
  Boolean: 'BooleanValue',
  Integer: 'IntegerValue',
  Float: 'FloatValue',
  Date: 'DateValue',
  DateTime: 'DateTimeValue',
};

/** `project.qde` for `project` (already parsed by `qdaProjectSchema`), with the GUIDs of `guids`. */
export function writeProjectXml(project: QdaProject, guids: QdaGuids): string {
  const out = new XmlOut();
  const user = (id: string | undefined): string | undefined => (id === undefined ? undefined : guids.of('user', id));
  const variables = new Map(project.variables.map((v) => [v.id, v]));

  const noteRefs = (ids: readonly string[]): void => ids.forEach((n) => out.empty('NoteRef', { targetGUID: guids.of('note', n) }));
  const description = (d: string | undefined): void => {
    if (d !== undefined) out.text('Description', d);
  };
  const codings = (owner: 'source' | 'selection', ownerId: string, list: readonly QdaCoding[]): void =>
    list.forEach((c) =>
      out.element('Coding', { guid: guids.coding(owner, ownerId, c.codeId), creatingUser: user(c.createdBy), creationDateTime: c.createdAt }, () => {
        out.empty('CodeRef', { targetGUID: guids.of('code', c.codeId) });
        noteRefs(c.noteIds);
      }),
    );
  const variableValues = (list: readonly QdaVariableValue[]): void =>
    list.forEach((v) => {
      const variable = variables.get(v.variableId)!;
      out.element('VariableValue', {}, () => {
        out.empty('VariableRef', { targetGUID: guids.of('variable', v.variableId) });
        const value = typeof v.value === 'number' ? xsdDecimal(v.value) : String(v.value);
        out.text(VALUE_ELEMENT[variable.type], value);
      });
    });
  const code = (c: QdaCode): void =>
    out.element('Code', { guid: guids.of('code', c.id), name: c.name, isCodable: c.isCodable, color: c.color }, () => {
      description(c.description);
      noteRefs(c.noteIds);
      c.children.forEach(code);
    });
  const source = (s: QdaTextSource): void => {
    const sourceGuid = guids.of('source', s.id);
    const attrs = {
      guid: sourceGuid,
      name: s.name,
      plainTextPath: plainTextPath(sourceGuid),
      creatingUser: user(s.createdBy),
      creationDateTime: s.createdAt,
      modifiedDateTime: s.modifiedAt,
    };
    const index = new CodePointIndex(s.text);
    out.element('TextSource', attrs, () => {
      description(s.description);
      for (const sel of s.selections) {
        const selAttrs = {
          guid: guids.of('selection', sel.id),
          name: sel.name,
          startPosition: index.toCodePoint(sel.start),
          endPosition: index.toCodePoint(sel.end),
          creatingUser: user(sel.createdBy),
          creationDateTime: sel.createdAt,
        };
        out.element('PlainTextSelection', selAttrs, () => {
          description(sel.description);
          codings('selection', sel.id, sel.codings);
          noteRefs(sel.noteIds);
        });
      }
      codings('source', s.id, s.codings);
      noteRefs(s.noteIds);
      variableValues(s.variables);
    });
  };

  const projectAttrs = {
    xmlns: QDA_NAMESPACE,
    name: project.name,
    origin: project.origin ?? DEFAULT_ORIGIN,
    creatingUserGUID: user(project.createdBy),
    creationDateTime: project.createdAt,
    modifyingUserGUID: user(project.modifiedBy),
    modifiedDateTime: project.modifiedAt,
  };
  out.element('Project', projectAttrs, () => {
    if (project.users.length)
      out.element('Users', {}, () => project.users.forEach((u) => out.empty('User', { guid: guids.of('user', u.id), name: u.name })));
    if (project.codes.length) out.element('CodeBook', {}, () => out.element('Codes', {}, () => project.codes.forEach(code)));
    if (project.variables.length)
      out.element('Variables', {}, () =>
        project.variables.forEach((v) =>
          out.element('Variable', { guid: guids.of('variable', v.id), name: v.name, typeOfVariable: v.type }, () => description(v.description)),
        ),
      );
    if (project.cases.length)
      out.element('Cases', {}, () =>
        project.cases.forEach((c) =>
          out.element('Case', { guid: guids.of('case', c.id), name: c.name }, () => {
            description(c.description);
            c.codeIds.forEach((x) => out.empty('CodeRef', { targetGUID: guids.of('code', x) }));
            variableValues(c.variables);
            c.sourceIds.forEach((x) => out.empty('SourceRef', { targetGUID: guids.of('source', x) }));
            c.selectionIds.forEach((x) => out.empty('SelectionRef', { targetGUID: guids.of('selection', x) }));
          }),
        ),
      );
    if (project.sources.length) out.element('Sources', {}, () => project.sources.forEach(source));
    if (project.notes.length)
      out.element('Notes', {}, () =>
        project.notes.forEach((n) =>
          out.element('Note', { guid: guids.of('note', n.id), name: n.name, creatingUser: user(n.createdBy), creationDateTime: n.createdAt }, () => {
            description(n.description);
            out.text('PlainTextContent', n.text);
          }),
        ),
      );
    description(project.description);
    noteRefs(project.noteIds);
  });
  return out.toString();
}
