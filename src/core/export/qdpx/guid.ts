/**
 * GUIDs for a REFI-QDA project. Every element of a `project.qde` is identified by a GUID (the
 * schema's `GUIDType`: 8-4-4-4-12 hexadecimal digits, optionally in braces). Ours are derived from
 * the exported thing's own id (RFC 4122 version 5: SHA-1 of a fixed namespace and a name), so the
 * same code, source or segment has the same GUID in every export of the same project, and an
 * importing tool can recognise it when a project is exported again.
 */
import { createHash } from 'node:crypto';

/** The schema's `GUIDType` pattern, anchored. */
export const GUID_PATTERN = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\})$/;

/** Marker Research's namespace for version-5 GUIDs (a constant; changing it changes every exported GUID). */
const NAMESPACE = Uint8Array.from(Buffer.from('6f1d5a8e3c2b4e7a9b0c1d2e3f405162', 'hex'));

/** True when `s` is a GUID as the schema accepts it (with or without braces, any case). */
export function isGuid(s: string): boolean {
  return GUID_PATTERN.test(s);
}

/**
 * A GUID in its canonical form: lower case, without braces. GUIDs are compared in this form
 * (REFI-QDA tools write them in either case, ATLAS.ti upper, others lower or braced).
 * @throws Error when `s` is not a GUID.
 */
export function canonicalGuid(s: string): string {
  const t = s.trim();
  if (!isGuid(t)) throw new Error(`not a GUID: ${JSON.stringify(s)}`);
  return t.replace(/[{}]/g, '').toLowerCase();
}

/**
 * The version-5 GUID of `parts` (joined with NUL, so `['a', 'b:c']` and `['a:b', 'c']` differ),
 * in canonical form.
 */
export function derivedGuid(...parts: string[]): string {
  const h = createHash('sha1').update(NAMESPACE).update(parts.join('\u0000'), 'utf8').digest();
  const b = h.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50; // version 5
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const x = b.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
