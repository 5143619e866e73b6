/** A fresh copy of the demo corpus with extractive markers, for tests that run research on it. */
import { cp, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { generateMarkers } from '../../src/core/markers/generate';

export const DEMO_CORPUS = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** Copies the demo corpus to `<work>/<name>` (without any state), loads it and generates its extractive markers. */
export async function freshDemoCorpus(work: string, name: string): Promise<Corpus> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  await cp(DEMO_CORPUS, dir, { recursive: true, filter: (p) => !p.includes('.marker-research') });
  const corpus = await loadCorpus(dir);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  return corpus;
}
