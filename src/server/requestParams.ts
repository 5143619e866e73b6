/** Checking the params of a request against their schema: a malformed request is refused with `bad-request`, naming what is wrong. */
import type { z } from 'zod';
import { EngineError } from './engineState';

/** `params` as `schema` says, or an `EngineError('bad-request')` naming the fields at fault. */
export function parseParams<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const r = schema.safeParse(params);
  if (r.success) return r.data;
  const where = r.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
  throw new EngineError('bad-request', `${method}: malformed request (${where})`);
}
