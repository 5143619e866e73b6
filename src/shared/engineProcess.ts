/**
 * How the engine's process is started (the extension's language client, and the benchmarks that
 * measure the engine's work in a process of its own).
 *
 * A young generation of 64 MB: answering a question parses its hits' items and makes short-lived
 * objects by the million; with V8's default semi-space the scavenger ran a third of Ask's CPU time
 * on the 100 M-word synthetic corpus. Measured over 20 Ask questions there (the same process,
 * `node --max-semi-space-size=64` against none, load ~8): CPU 3.98–4.01 s → 3.25 s, garbage
 * collection 1.30–1.38 s → 0.76 s; the price is up to ~190 MB more resident memory at the peak.
 */
export const ENGINE_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=64'];
