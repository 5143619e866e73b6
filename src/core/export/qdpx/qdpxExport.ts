/**
 * Exports a project as a `.qdpx` (REFI-QDA 1.5): a ZIP of `project.qde` (`projectXml.ts`) and
 * one UTF-8 text file per source under `Sources/`, named by the source's GUID.
 */
import { encodePlainText } from './plainTextFile';
import { writeProjectXml } from './projectXml';
import { QdaGuids } from './qdaGuids';
import { qdaProjectSchema, type QdaProject, type QdaProjectInput } from './qdaModel';
import { PROJECT_FILE, plainTextEntry } from './qdpxPaths';
import { packZip, type ZipEntry } from './qdpxZip';

export interface QdpxExportOptions {
  /** Mixed into every derived GUID (e.g. the corpus's id), so two projects' same ids differ. */
  guidSeed?: string;
}

export interface QdpxExport {
  /** The `.qdpx` file. */
  bytes: Uint8Array;
  /** Its `project.qde`. */
  projectXml: string;
  /** The project as exported (defaults filled in). */
  project: QdaProject;
  /** The GUID of each exported entity. */
  guids: QdaGuids;
}

/** ZIP dates run from 1980 to 2099. */
function zipDate(iso: string | undefined): Date | undefined {
  if (iso === undefined) return undefined;
  const d = new Date(iso);
  const y = d.getUTCFullYear();
  return Number.isNaN(d.getTime()) || y < 1981 || y > 2098 ? undefined : d;
}

/**
 * The `.qdpx` of `input`. The same input gives the same bytes (GUIDs derived from ids, entries
 * dated by the project's `modifiedAt` or `createdAt`).
 * @throws ZodError when `input` is not a valid project (see `qdaProjectSchema`); Error when two entities share a GUID.
 */
export function exportQdpx(input: QdaProjectInput, options: QdpxExportOptions = {}): QdpxExport {
  const project = qdaProjectSchema.parse(input);
  const guids = new QdaGuids(project, options.guidSeed);
  const projectXml = writeProjectXml(project, guids);
  const entries: ZipEntry[] = [{ path: PROJECT_FILE, data: new TextEncoder().encode(projectXml) }];
  for (const s of project.sources) entries.push({ path: plainTextEntry(guids.of('source', s.id)), data: encodePlainText(s.text) });
  const bytes = packZip(entries, zipDate(project.modifiedAt ?? project.createdAt));
  return { bytes, projectXml, project, guids };
}
