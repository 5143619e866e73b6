import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { SETTINGS_SECTION, settingsSchema } from '../../src/shared/settings';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { type: string; default: unknown }> }; commands: { command: string }[]; views: Record<string, { id: string }[]>; viewsContainers: { activitybar: { id: string }[] } };
};

describe('settings', () => {
  test('package.json contributes exactly the settings of the zod schema, with the same defaults', () => {
    const declared = Object.keys(pkg.contributes.configuration.properties).sort();
    const schemaKeys = Object.keys(settingsSchema.shape).map((k) => `${SETTINGS_SECTION}.${k}`).sort();
    assert.deepEqual(declared, schemaKeys);
    const defaults = settingsSchema.parse({});
    for (const [k, v] of Object.entries(defaults)) {
      const prop = pkg.contributes.configuration.properties[`${SETTINGS_SECTION}.${k}`]!;
      assert.deepEqual(prop.default, v, `default of ${k}`);
      assert.equal(prop.type, typeof v, `type of ${k}`);
    }
  });

  test('every command, view and container id starts with markerResearch', () => {
    const ids = [...pkg.contributes.commands.map((c) => c.command), ...Object.values(pkg.contributes.views).flat().map((v) => v.id)];
    for (const id of ids) assert.match(id, /^markerResearch(\.|$)/);
    // Container ids may not hold a dot (VS Code allows letters, digits, '_' and '-').
    for (const id of [...pkg.contributes.viewsContainers.activitybar.map((c) => c.id), ...Object.keys(pkg.contributes.views)]) assert.match(id, /^markerResearch(-[a-z]+)?$/);
  });
});
