/**
 * Test and bench instrumentation: with `MARKER_RESEARCH_LOOP_STATS=<file>` in
 * the environment, the extension host's event-loop delay is sampled
 * (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution) and every second one
 * JSON line `{ t, maxMs, p99Ms, meanMs }` for that second is appended to the
 * file. Off (and free) otherwise.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type * as vscode from 'vscode';

export const LOOP_STATS_ENV = 'MARKER_RESEARCH_LOOP_STATS';

export function startEventLoopStats(log: vscode.LogOutputChannel): vscode.Disposable | undefined {
  const file = process.env[LOOP_STATS_ENV];
  if (!file) return undefined;
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const timer = setInterval(() => {
    const line = { t: Date.now(), maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6 };
    h.reset();
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
    },
  };
}
