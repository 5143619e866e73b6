/**
 * What the workbench stores take from the world — the time and new ids — passed in, so tests
 * and the REFI-QDA export see the same values. Ids are UUIDs (REFI-QDA's GUIDs take them as they are).
 */
import { randomUUID } from 'node:crypto';

export interface WorkbenchDeps {
  /** The time now (default: the clock). */
  now?: () => Date;
  /** A new id (default: a random UUID). */
  newId?: () => string;
}

export function nowIso(deps: WorkbenchDeps = {}): string {
  return (deps.now?.() ?? new Date()).toISOString();
}

export function newId(deps: WorkbenchDeps = {}): string {
  return deps.newId?.() ?? randomUUID();
}
