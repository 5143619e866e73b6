/**
 * Child process of the two-writers test (test/integration/markerWriters.test.ts): writes markers
 * for the items `item-0 … item-<n-1>` of the corpus at argv[2] as engine argv[3], each expecting
 * the file to be absent (as a writer that found no markers before it generated), and prints which
 * writes went through and which were refused as a conflict.
 */
import { MarkerWriteConflictError, writeItemMarkers } from '../../src/core/markers/store';
import { MISSING_VERSION } from '../../src/core/storage/readStateJson';
import { markersRecord } from './markerRecord';

async function main(): Promise<void> {
  const [dir, engine, n] = process.argv.slice(2);
  if (!dir || (engine !== 'extractive' && engine !== 'openai' && engine !== 'ollama') || !n) throw new Error('usage: markerWriterChild <corpus> <engine> <items>');
  const written: string[] = [];
  const conflicts: string[] = [];
  await Promise.all(
    Array.from({ length: Number(n) }, async (_, i) => {
      const id = `item-${i}`;
      try {
        await writeItemMarkers(dir, markersRecord(id, engine, `${engine}-${process.pid}`), { expected: MISSING_VERSION });
        written.push(id);
      } catch (e) {
        if (!(e instanceof MarkerWriteConflictError)) throw e;
        conflicts.push(id);
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ written: written.sort(), conflicts: conflicts.sort() })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
