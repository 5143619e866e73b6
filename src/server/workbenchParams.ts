/**
 * The params of the workbench requests (notebook and codes, src/shared/lspProtocol.ts), checked
 * with zod before a handler uses them (the target's schema is shared with the extension:
 * src/shared/workbenchTarget.ts): a malformed request is refused with `bad-request`, naming
 * the fields at fault. The schemas are the source of truth; their inferred types must fit the
 * protocol's (`SchemasFitProtocol` below fails to compile when the two drift apart).
 */
import * as path from 'node:path';
import { z } from 'zod';
import type { ApplyCodeParams, CodeEditParams, ExportNotebookParams, NotebookEditParams, PinParams, SegmentEditParams, WorkbenchNote, WorkbenchTarget } from '../shared/workbenchProtocol';
import { workbenchTargetSchema } from '../shared/workbenchTarget';
import { parseParams } from './requestParams';

const id = z.string().min(1).max(1000);
const absoluteFile = z.string().min(1).max(4096).refine((f) => path.isAbsolute(f), 'an absolute path');
/** Text the researcher types (a title, a note, a memo, a code's name or description). */
const typed = (max: number) => z.string().max(max);
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

const noteSchema = z.object({ kind: z.literal('note'), title: typed(500).trim().min(1, 'a note needs a title'), note: typed(100_000) });

const pinSchema = z.object({ target: z.union([workbenchTargetSchema, noteSchema]) });

const notebookEditSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('remove'), id }),
  z.object({ op: z.literal('update'), id, title: typed(500).trim().min(1).optional(), note: typed(100_000).nullable().optional() }),
]);

const exportNotebookSchema = z.object({ file: absoluteFile.refine((f) => /\.(md|markdown|html?)$/i.test(f), 'a .md or .html file') });

const codeName = typed(200).trim().min(1, 'a code needs a name');
const codeEditSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('create'), name: codeName, colour: colour.optional(), description: typed(5_000).optional(), parentId: id.optional() }),
  z.object({ op: z.literal('rename'), id, name: codeName }),
  z.object({ op: z.literal('recolour'), id, colour }),
  z.object({ op: z.literal('describe'), id, description: typed(5_000) }),
  z.object({ op: z.literal('memo'), id, text: typed(100_000).nullable() }),
  z.object({ op: z.literal('delete'), id }),
]);

const applyCodeSchema = z.object({ codeId: id, target: workbenchTargetSchema });

const segmentEditSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('remove'), id }),
  z.object({ op: z.literal('memo'), id, text: typed(100_000).nullable() }),
  z.object({ op: z.literal('recode'), id, codeId: id }),
]);

const itemSchema = z.object({ itemId: id });

/** `A` when it fits `B` (else a compile error): the schemas' types fit the protocol's. */
type Fits<A extends B, B> = A;
export type ParsedTarget = z.infer<typeof workbenchTargetSchema>;
export type SchemasFitProtocol = [
  Fits<ParsedTarget, WorkbenchTarget>,
  Fits<z.infer<typeof noteSchema>, WorkbenchNote>,
  Fits<z.infer<typeof pinSchema>, PinParams>,
  Fits<z.infer<typeof notebookEditSchema>, NotebookEditParams>,
  Fits<z.infer<typeof exportNotebookSchema>, ExportNotebookParams>,
  Fits<z.infer<typeof codeEditSchema>, CodeEditParams>,
  Fits<z.infer<typeof applyCodeSchema>, ApplyCodeParams>,
  Fits<z.infer<typeof segmentEditSchema>, SegmentEditParams>,
];

export const parsePin = (raw: unknown, method: string): PinParams => parseParams(pinSchema, raw, method);
export const parseNotebookEdit = (raw: unknown, method: string): NotebookEditParams => parseParams(notebookEditSchema, raw, method);
export const parseExportNotebook = (raw: unknown, method: string): ExportNotebookParams => parseParams(exportNotebookSchema, raw, method);
export const parseCodeEdit = (raw: unknown, method: string): CodeEditParams => parseParams(codeEditSchema, raw, method);
export const parseApplyCode = (raw: unknown, method: string): ApplyCodeParams => parseParams(applyCodeSchema, raw, method);
export const parseSegmentEdit = (raw: unknown, method: string): SegmentEditParams => parseParams(segmentEditSchema, raw, method);
export const parseItemParam = (raw: unknown, method: string): { itemId: string } => parseParams(itemSchema, raw, method);
