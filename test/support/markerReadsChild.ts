/**
 * Child process of the handle-limit test (test/integration/markerReadsHandleLimit.test.ts), run
 * under a low `ulimit -n`: loads the corpus at argv[3] and, by argv[2],
 *
 * - `markers`: generates its extractive markers (cached ones reused);
 * - `session`: reads every marker file as a research session does;
 * - `engine`: loads it in the language server's engine, which reads every marker file;
 * - `condensed`: reads every condensation as a research run does;
 *
 * then prints one JSON line of counts.
 */
import { loadCorpus } from '../../src/core/corpus/loader';
import { generateMarkers } from '../../src/core/markers/generate';
import { loadCondensedClaims } from '../../src/core/research/condensedSource';
import { readMarkerMap } from '../../src/core/research/session';
import { CorpusEngine } from '../../src/server/corpusEngine';
import { recordingLogger } from './testing';

async function main(): Promise<void> {
  const [mode, dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: markerReadsChild <markers|session|engine|condensed> <corpus>');
  const corpus = await loadCorpus(dir);
  const log = recordingLogger();
  let out: Record<string, number>;
  if (mode === 'markers') {
    const r = await generateMarkers(corpus, { engine: { kind: 'extractive' }, log });
    out = { generated: r.generated, cached: r.cached, failed: r.failed };
  } else if (mode === 'session') {
    const r = await readMarkerMap(corpus, log);
    out = { read: r.markers.size, unreadable: r.unreadable.length };
  } else if (mode === 'engine') {
    const engine = new CorpusEngine(log, '');
    await engine.load(dir);
    const entries = [...engine.markers().values()];
    out = { read: entries.filter((e) => e.ok).length, unreadable: entries.filter((e) => !e.ok).length };
  } else if (mode === 'condensed') {
    const claims = await loadCondensedClaims(corpus, log);
    out = { read: corpus.items.filter((i) => claims.isFresh(i.id)).length, unreadable: corpus.items.filter((i) => claims.get(i.id)?.status === 'invalid').length };
  } else throw new Error(`unknown mode ${mode}`);
  process.stdout.write(`${JSON.stringify({ items: corpus.items.length, ...out })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
