/**
 * Test and bench instrumentation: with `MARKER_RESEARCH_LOOP_STATS=<file>` in
 * the environment, the extension host's event-loop delay is sampled
 * (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution) and every second one
 * JSON line `{ t, maxMs, p99Ms, meanMs, gcMaxMs, gcKind, heapMb }` for that
 * second is appended to the file: the longest garbage collection of the
 * second and its kind (`major`, `minor`, `incremental`, `weakcb`), and the
 * heap in use — a stall that is a collection shows as one. Off (and free)
 * otherwise.
 */
import { appendFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type * as vscode from 'vscode';

export const LOOP_STATS_ENV = 'MARKER_RESEARCH_LOOP_STATS';

/** The stats file, read once: the environment does not change while the host runs, and events are noted on its busy paths. */
const statsFile = process.env[LOOP_STATS_ENV];

/**
 * Notes an event in the stats file (`{ t, event }`), so a stall can be matched
 * with what the host was doing; nothing when sampling is off.
 */
export function noteLoopEvent(event: string): void {
  if (!statsFile) return;
  try {
    appendFileSync(statsFile, `${JSON.stringify({ t: Date.now(), event })}\n`);
  } catch {
    // instrumentation only
  }
}

export function startEventLoopStats(log: vscode.LogOutputChannel): vscode.Disposable | undefined {
  const file = statsFile;
  if (!file) return undefined;
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let gc = { ms: 0, kind: '' };
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = ((e as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind;
      if (e.duration > gc.ms) gc = { ms: e.duration, kind: kind === undefined ? '' : (kinds[kind] ?? String(kind)) };
    }
  });
  gcs.observe({ entryTypes: ['gc'] });
  const timer = setInterval(() => {
    const line = { t: Date.now(), maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6, gcMaxMs: gc.ms, gcKind: gc.kind, heapMb: Math.round(process.memoryUsage().heapUsed / 1e6) };
    h.reset();
    gc = { ms: 0, kind: '' };
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch (e) {
      log.warn(`event-loop stats: writing ${file} failed: ${(e as Error).message}`);
    }
  }, 1_000);
  log.info(`event-loop stats: sampling the extension host into ${file}`);
  return {
    dispose: () => {
      clearInterval(timer);
      h.disable();
      gcs.disconnect();
    },
  };
}
