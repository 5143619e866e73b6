/**
 * What a pin or a code is applied to (see `WorkbenchTarget` in lspProtocol.ts), as a zod schema:
 * the one check of every way a target arrives — a request to the engine, a command's argument
 * (a webview's context menu passes its `data-vscode-context`), a message of a webview.
 */
import { z } from 'zod';

const part = z.enum(['transcript', 'comments']);
const offset = z.number().int().nonnegative();
const id = z.string().min(1).max(1000);
/** Conversation ids are file names: letters, digits, `-` and `_`. */
const conversationId = z.string().min(1).max(100).regex(/^[\w-]+$/u);
const span = { itemId: id, part, start: offset, end: offset };
const nonEmpty = (s: { start: number; end: number }): boolean => s.end > s.start;
/** An absolute path (POSIX or Windows). */
const absolute = z.string().min(1).max(4096).refine((f) => f.startsWith('/') || /^[A-Za-z]:[\\/]/.test(f) || f.startsWith('\\\\'), 'an absolute path');

export const markerTargetSchema = z.object({ kind: z.literal('marker'), itemId: id, markerId: id });
export const hitTargetSchema = z.object({ kind: z.literal('hit'), ...span, question: z.string().max(10_000).optional() }).refine(nonEmpty, { message: 'an empty span', path: ['end'] });
export const answerSentenceTargetSchema = z
  .object({ kind: z.literal('answer-sentence'), ...span, text: z.string().max(20_000), question: z.string().max(10_000) })
  .refine(nonEmpty, { message: 'an empty span', path: ['end'] });

export const workbenchTargetSchema = z.discriminatedUnion('kind', [
  markerTargetSchema,
  hitTargetSchema,
  answerSentenceTargetSchema,
  z.object({ kind: z.literal('chat-answer'), conversationId, turn: z.number().int().positive() }),
  z.object({ kind: z.literal('finding'), reportFile: absolute, line: offset, lineText: z.string().max(100_000) }),
  z.object({
    kind: z.literal('selection'),
    itemId: id,
    range: z.object({ startLine: offset, startCharacter: offset, endLine: offset, endCharacter: offset }),
    documentLength: offset,
  }),
]);

/** What the sidebar's webview may pin or code: a marker, an Ask hit, a sentence of Ask's answer. */
export const sidebarTargetSchema = z.discriminatedUnion('kind', [markerTargetSchema, hitTargetSchema, answerSentenceTargetSchema]);
export type SidebarTarget = z.infer<typeof sidebarTargetSchema>;
