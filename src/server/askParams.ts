/**
 * The params of the ask and chat requests, checked (zod) before a handler
 * uses them: a malformed request is refused with `bad-request`, bad settings
 * with `bad-settings`.
 */
import { z } from 'zod';
import type { AskParams, ChatCitationParams, ChatLatestParams, ChatSelection, ChatTurnParams, HitPlaceParams } from '../shared/lspProtocol';
import { modelAccessOf, parseParams } from './requestParams';

const part = z.enum(['transcript', 'comments']);
const offset = z.number().int().nonnegative();
/** Conversation ids are file names: letters, digits, `-` and `_`. */
const conversationId = z.string().min(1).max(100).regex(/^[\w-]+$/u);
/** Run ids are folder names: no separators, no dot-dot. */
const runId = z.string().min(1).max(200).regex(/^[\w.-]+$/u).refine((v) => v !== '.' && v !== '..', 'not a run id');
const question = z.string().max(10_000);

const access = { settings: z.unknown(), apiKey: z.string().optional() };

const askSchema = z.object({ ...access, askId: z.number().int(), question, itemId: z.string().min(1).nullish(), session: z.array(z.string().max(10_000)).max(50).default([]) });
const hitPlaceSchema = z.object({ itemId: z.string().min(1), part, start: offset, end: offset });
const selection = { root: z.string().min(1).nullable().default(null), conversationId: conversationId.nullable().default(null), runId: runId.nullable().default(null) };
const selectionSchema = z.object(selection);
const latestSchema = z.object({ root: selection.root, runId: selection.runId });
const turnSchema = z.object({ ...access, ...selection, askId: z.number().int(), question });
const citationSchema = z.object({ ...selection, number: z.number().int().positive() });

export function parseAsk(raw: unknown, method: string): AskParams {
  const p = parseParams(askSchema, raw, method);
  return { ...p, ...modelAccessOf(p), itemId: p.itemId ?? null };
}

export const parseHitPlace = (raw: unknown, method: string): HitPlaceParams => parseParams(hitPlaceSchema, raw, method);

export const parseSelection = (raw: unknown, method: string): ChatSelection => parseParams(selectionSchema, raw ?? {}, method);

export const parseLatest = (raw: unknown, method: string): ChatLatestParams => parseParams(latestSchema, raw ?? {}, method);

export function parseTurn(raw: unknown, method: string): ChatTurnParams {
  const p = parseParams(turnSchema, raw, method);
  return { ...p, ...modelAccessOf(p) };
}

export const parseCitation = (raw: unknown, method: string): ChatCitationParams => parseParams(citationSchema, raw, method);
