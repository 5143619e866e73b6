/**
 * Where a span opens: its original file (absolute, inside the corpus folder)
 * and range, resolved in the engine so the extension can open a hit or a
 * citation without the corpus.
 */
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import type { TextRange } from '../core/corpus/types';
import type { SpanPlace } from '../shared/lspProtocol';
import { EngineError } from './engineState';

/** The absolute path of a corpus-relative file; `outside-corpus` for anything outside the corpus folder. */
export function corpusPath(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  const back = path.relative(root, abs);
  if (!back || back.startsWith('..') || path.isAbsolute(back)) throw new EngineError('outside-corpus', l10n.t('evidence path "{0}" is outside the corpus folder.', rel));
  return abs;
}

/** A span and its place in the original file `rel` (relative to `root`). */
export function spanPlace(root: string, span: Pick<SpanPlace, 'itemId' | 'part' | 'start' | 'end'>, rel: string, range: TextRange): SpanPlace {
  const { startLine, startColumn, endLine, endColumn } = range;
  return {
    itemId: span.itemId,
    part: span.part,
    start: span.start,
    end: span.end,
    path: corpusPath(root, rel),
    range: { startLine, startColumn, endLine, endColumn },
    where: `${rel}:${startLine + 1}:${startColumn + 1}`,
  };
}
