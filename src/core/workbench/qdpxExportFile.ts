/**
 * Writing a corpus's project as a `.qdpx` (REFI-QDA 1.5), for the CLI and the engine alike: the
 * codebook, coded segments and notebook are read from `.marker-research/`, the markers from their
 * files (with `markersAsCodes`), mapped by {@link qdpxProject} and written by `exportQdpx`.
 */
import * as path from 'node:path';
import type { Corpus } from '../corpus/types';
import { readCorpusMarkers } from '../export/exportFiles';
import type { ItemMarkers } from '../markers/schema';
import { exportQdpx } from '../export/qdpx/qdpxExport';
import { writeFileAtomic } from '../storage/atomic';
import { throwIfAborted } from '../util/abort';
import { readCodebook } from './codebookStore';
import { readCodings } from './codingStore';
import { listEntries } from './notebookStore';
import { qdpxProject, type QdpxProjectStats } from './qdpxProject';

export interface QdpxFileOptions {
  markersAsCodes?: boolean;
  /** The corpus's markers when the caller holds them (the engine); read from their files otherwise. */
  markers?: ReadonlyMap<string, ItemMarkers>;
  speakersAsCases?: boolean;
  signal?: AbortSignal;
  /** When the project is exported (tests); default now. */
  now?: string;
}

export interface QdpxFileResult {
  file: string;
  bytes: number;
  stats: QdpxProjectStats;
  warnings: string[];
  /** Milliseconds spent reading the workbench, mapping, writing the zip and the file. */
  ms: { read: number; map: number; pack: number; write: number };
}

/** The default file name of a corpus's project: `<folder>.qdpx`. */
export function defaultQdpxName(root: string): string {
  return `${path.basename(path.resolve(root)) || 'project'}.qdpx`;
}

/**
 * Writes the project of `corpus` to `outFile` (atomically).
 * @throws WorkbenchFileError when codebook.json or codings.json does not validate.
 */
export async function exportQdpxFile(corpus: Corpus, outFile: string, options: QdpxFileOptions = {}): Promise<QdpxFileResult> {
  const t0 = performance.now();
  const [codebook, codings, notebook, markers] = await Promise.all([
    readCodebook(corpus.root),
    readCodings(corpus.root),
    listEntries(corpus.root),
    options.markersAsCodes ? (options.markers ? Promise.resolve(options.markers) : readCorpusMarkers(corpus)) : Promise.resolve(undefined),
  ]);
  throwIfAborted(options.signal);
  const t1 = performance.now();
  const project = qdpxProject(
    { corpus, codebook, codings, notebook, ...(markers ? { markers } : {}) },
    { markersAsCodes: !!options.markersAsCodes, speakersAsCases: options.speakersAsCases !== false, ...(options.now ? { now: options.now } : {}) },
  );
  throwIfAborted(options.signal);
  const t2 = performance.now();
  const out = exportQdpx(project.input, { guidSeed: path.basename(path.resolve(corpus.root)) });
  throwIfAborted(options.signal);
  const t3 = performance.now();
  await writeFileAtomic(outFile, out.bytes);
  const t4 = performance.now();
  return { file: outFile, bytes: out.bytes.length, stats: project.stats, warnings: project.warnings, ms: { read: t1 - t0, map: t2 - t1, pack: t3 - t2, write: t4 - t3 } };
}
