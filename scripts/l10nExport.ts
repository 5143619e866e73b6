/**
 * `npm run l10n:export`: writes l10n/bundle.l10n.json (every `l10n.t` message of the sources, in
 * source order: scripts/l10nMessages.ts) and says, per display language, which messages its
 * bundle.l10n.<locale>.json lacks and which it holds that nothing uses (the translations are
 * written by hand; test/unit/l10nBundles.test.ts fails until they are complete).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { sourceMessages } from './l10nMessages';

const ROOT = path.join(__dirname, '..');
const LOCALES = ['zh-cn', 'zh-tw', 'es'];

const { messages, problems } = sourceMessages(ROOT);
for (const p of problems) console.error(`not extractable: ${p}`);
const bundle: Record<string, string> = {};
for (const m of messages) bundle[m.key] ??= m.message;
writeFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.json'), `${JSON.stringify(bundle, null, 2)}\n`);
console.log(`l10n/bundle.l10n.json: ${Object.keys(bundle).length} messages`);
for (const locale of LOCALES) {
  const file = path.join(ROOT, 'l10n', `bundle.l10n.${locale}.json`);
  const t = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const missing = Object.keys(bundle).filter((k) => !(k in t));
  const stale = Object.keys(t).filter((k) => !(k in bundle));
  console.log(`bundle.l10n.${locale}.json: ${missing.length} to translate${stale.length ? `, ${stale.length} no longer used` : ''}`);
  for (const k of missing) console.log(`  + ${JSON.stringify(k)}`);
  for (const k of stale) console.log(`  - ${JSON.stringify(k)}`);
}
process.exitCode = problems.length ? 1 : 0;
