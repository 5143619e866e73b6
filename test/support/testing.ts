/** Small helpers shared by tests. */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { Logger } from '../../src/core/util/log';
import { mulberry32 } from '../../src/core/util/seededRandom';

/** Runs the CLI in this process; its exit code and what it wrote to stdout and stderr. */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d: Buffer) => (o += d.toString()));
  err.on('data', (d: Buffer) => (e += d.toString()));
  const code = await main(args, out, err);
  return { code, out: o, err: e };
}

/** Deterministic PRNG (mulberry32): the same seed gives the same sequence. */
export const rng = mulberry32;

/** A logger that keeps every line, `level message`. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}
