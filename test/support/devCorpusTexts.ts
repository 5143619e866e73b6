/**
 * The texts of the shared dev corpora (`../shared/corpora`, or MARKER_RESEARCH_CORPORA) that are
 * present — every comment and every transcript segment, and runs of three segments as the clip
 * strategy reads turns — for tests that compare a fast path with its reference on real text. A
 * clean clone has none (CI): the caller skips.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { loadCorpus } from '../../src/core/corpus/loader';

const ROOT = path.join(__dirname, '..', '..');
const CORPORA = process.env['MARKER_RESEARCH_CORPORA'] || path.join(ROOT, '..', 'shared', 'corpora');
const DEV_CORPORA = ['qmsum-dev', 'vcsum-zh-dev', 'yt-podcast-es-dev', 'yt-spam-en-dev'];

/** The dev corpora's texts, or undefined when none of them is present. */
export async function devCorpusTexts(): Promise<string[] | undefined> {
  const present = DEV_CORPORA.map((c) => path.join(CORPORA, c)).filter((d) => existsSync(d));
  if (!present.length) return undefined;
  const out: string[] = [];
  for (const dir of present) {
    const corpus = await loadCorpus(dir);
    for (const item of corpus.items) {
      for (const c of item.comments?.comments ?? []) out.push(c.text);
      const segs = item.transcript?.segments ?? [];
      for (let i = 0; i < segs.length; i++) {
        out.push(segs[i]!.text);
        if (i % 3 === 0) out.push(segs.slice(i, i + 3).map((s) => s.text).join(' '));
      }
    }
  }
  return out;
}
