/** Checking the params of a request against their schema: a malformed request is refused with `bad-request`, naming what is wrong. */
import * as l10n from '@vscode/l10n';
import type { z } from 'zod';
import type { ModelAccess } from '../shared/lspProtocol';
import { settingsSchema } from '../shared/settings';
import { EngineError } from './engineState';

/** `params` as `schema` says, or an `EngineError('bad-request')` naming the fields at fault. */
export function parseParams<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const r = schema.safeParse(params);
  if (r.success) return r.data;
  const where = r.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
  throw new EngineError('bad-request', `${method}: malformed request (${where})`);
}

/** The model access of a request: the settings (defaults for what is missing; bad values are `bad-settings`), the key only when one is given. */
export function modelAccessOf(params: { settings?: unknown; apiKey?: string }): ModelAccess {
  const s = settingsSchema.safeParse(params.settings ?? {});
  if (!s.success) throw new EngineError('bad-settings', l10n.t('the settings are invalid: {0}: {1}. Check the "markerResearch.*" settings.', s.error.issues[0]?.path.join('.') ?? '', s.error.issues[0]?.message ?? ''));
  return { settings: s.data, apiKey: params.apiKey || undefined };
}
