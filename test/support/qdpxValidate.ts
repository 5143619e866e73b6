/**
 * Validates a `project.qde` against the REFI-QDA Project schema (test/fixtures/refi-qda/
 * Project-mrt2019.xsd) with xmllint: libxml2 compiled to WebAssembly (npm `xmllint-wasm`, a
 * devDependency, so `npm ci` installs it; nothing to install from the system). When it cannot be
 * loaded the test fails and says so; it never skips.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const XSD_PATH = path.resolve(__dirname, '..', 'fixtures', 'refi-qda', 'Project-mrt2019.xsd');
/** The ATLAS.ti sample export, beside the specification (not redistributed with the project). */
export const ATLAS_SAMPLE = path.join(process.env['MARKER_RESEARCH_REFERENCE'] || path.resolve(__dirname, '..', '..', '..', 'shared', 'reference'), 'refi-qda', 'target-atlas-project.qdpx');

export interface SchemaResult {
  valid: boolean;
  /** xmllint's messages, one per error. */
  errors: string[];
}

type ValidateXml = typeof import('xmllint-wasm').validateXML;
let validate: ValidateXml | undefined;

async function loadValidator(): Promise<ValidateXml> {
  if (validate) return validate;
  try {
    validate = (await import('xmllint-wasm')).validateXML;
  } catch (e) {
    throw new Error(`xmllint-wasm could not be loaded (${(e as Error).message}): run npm ci — it is a devDependency of this project`);
  }
  return validate;
}

/**
 * Validates each of `xmls` (`project.qde` texts) against the REFI-QDA Project schema, in one run
 * of xmllint (loading it costs more than validating); one result per text, in order.
 */
export async function validateProjectXmls(xmls: readonly string[]): Promise<SchemaResult[]> {
  const validateXML = await loadValidator();
  const names = xmls.map((_, i) => `project-${i}.qde`);
  const r = await validateXML({
    xml: xmls.map((contents, i) => ({ fileName: names[i]!, contents })),
    schema: [{ fileName: 'Project.xsd', contents: readFileSync(XSD_PATH, 'utf8') }],
    // large generated projects need more than the default 32 MiB
    maxMemoryPages: 16384,
  });
  const validated = new Set(r.rawOutput.split('\n').flatMap((line) => (line.endsWith(' validates') ? [line.slice(0, -' validates'.length)] : [])));
  return names.map((name) => {
    const errors = r.errors.filter((e) => e.loc?.fileName === name || e.rawMessage.startsWith(`${name} `)).map((e) => e.rawMessage);
    const valid = validated.has(name) && errors.length === 0;
    if (!valid && errors.length === 0) errors.push(`xmllint did not say that ${name} validates:\n${r.rawOutput}`);
    return { valid, errors };
  });
}

/** Validates `xml` (a `project.qde`) against the REFI-QDA Project schema. */
export async function validateProjectXml(xml: string): Promise<SchemaResult> {
  return (await validateProjectXmls([xml]))[0]!;
}
