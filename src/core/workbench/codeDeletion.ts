/**
 * Deleting a code touches both workbench files: the code leaves the codebook (its children move up
 * to its parent) and its coded segments leave codings.json. The codebook is changed first: a
 * failure between the two leaves segments of a code that is gone, which the Codes view lists
 * under "unknown code" (`codeQueries.ts`) rather than losing them.
 */
import { removeCodeIn, updateCodebook } from './codebookStore';
import { removeSegmentsOfCodes } from './codingStore';
import type { Code } from './schema';

/** Deletes a code; the code, the children moved up, and how many segments were removed. */
export async function deleteCode(root: string, id: string): Promise<{ code: Code; reparented: string[]; segmentsRemoved: number }> {
  const { code, reparented } = await updateCodebook(root, (b) => removeCodeIn(b, id));
  const segmentsRemoved = await removeSegmentsOfCodes(root, [id]);
  return { code, reparented, segmentsRemoved };
}
