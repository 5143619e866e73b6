/** The text of an original file at a range the engine resolved (a hit's or a citation's place). */
import { readFile } from 'node:fs/promises';
import type { SpanPlace } from '../../src/shared/lspProtocol';

/** The text of `place.range` in the file at `place.path` (zero-based lines and columns). */
export async function rangeText(place: Pick<SpanPlace, 'path' | 'range'>): Promise<string> {
  const lines = (await readFile(place.path, 'utf8')).split('\n');
  const r = place.range;
  if (r.startLine === r.endLine) return lines[r.startLine]!.slice(r.startColumn, r.endColumn);
  return [lines[r.startLine]!.slice(r.startColumn), ...lines.slice(r.startLine + 1, r.endLine), lines[r.endLine]!.slice(0, r.endColumn)].join('\n');
}
