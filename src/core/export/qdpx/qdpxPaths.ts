/**
 * Where things are inside a `.qdpx` (REFI-QDA 1.5 §8): `project.qde` at the root, internal
 * sources under `Sources/`, named by a GUID, referred to from the project as `internal://<name>`.
 */

export const PROJECT_FILE = 'project.qde';
export const SOURCES_DIR = 'Sources';
const INTERNAL = 'internal://';

/** The `plainTextPath` of a source's text file. */
export function plainTextPath(sourceGuid: string): string {
  return `${INTERNAL}${sourceGuid}.txt`;
}

/** The zip entry of a source's text file. */
export function plainTextEntry(sourceGuid: string): string {
  return `${SOURCES_DIR}/${sourceGuid}.txt`;
}

/**
 * The zip entry an `internal://` path names, or undefined for another scheme (`relative://`,
 * `absolute://`: files outside the `.qdpx`).
 */
export function internalEntry(path: string): string | undefined {
  if (!path.startsWith(INTERNAL)) return undefined;
  const name = path.slice(INTERNAL.length).replace(/^\/+/, '');
  return name ? `${SOURCES_DIR}/${name}` : undefined;
}
