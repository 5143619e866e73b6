/**
 * package.json contributions that point elsewhere: every contributed command has a handler in
 * src/extension, and the Getting Started walkthrough's steps have their Markdown, buttons that run
 * real commands, and completion events (issue 12).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const ROOT = path.join(__dirname, '..', '..');
interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents?: string[];
}
/** package.nls.json: the English of every "%key%" of package.json (its texts are read as VS Code shows them in English). */
const nls = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'), (_k, v: unknown) => (typeof v === 'string' && /^%[^%]+%$/.test(v) ? (nls[v.slice(1, -1)] ?? v) : v)) as {
  publisher: string;
  name: string;
  contributes: { commands: { command: string; title: string }[]; walkthroughs?: { id: string; steps: Step[] }[]; views: Record<string, { id: string }[]> };
};
const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
const views = new Set(Object.values(pkg.contributes.views).flat().map((v) => v.id));
const extensionSource = readdirSync(path.join(ROOT, 'src', 'extension'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(path.join(ROOT, 'src', 'extension', f), 'utf8'))
  .join('\n');

/** A command a walkthrough may run: one of ours, a view's focus command, or VS Code's own. */
function runnable(id: string): boolean {
  if (contributed.has(id)) return true;
  if (id.endsWith('.focus') && views.has(id.slice(0, -'.focus'.length))) return true;
  return /^workbench\.action\./.test(id);
}

describe('package.json contributions', () => {
  test('every contributed command has a handler in src/extension', () => {
    for (const id of contributed) assert.ok(extensionSource.includes(`'${id}'`), `no handler registers ${id}`);
  });

  test('the Getting Started walkthrough: five steps, each with its Markdown, a button that runs a real command and a completion event', () => {
    const w = pkg.contributes.walkthroughs?.find((x) => x.id === 'markerResearch.gettingStarted');
    assert.ok(w, 'walkthrough markerResearch.gettingStarted');
    assert.deepEqual(w.steps.map((st) => st.id), ['openCorpus', 'index', 'markers', 'research', 'model']);
    for (const st of w.steps) {
      assert.ok(st.media.markdown && existsSync(path.join(ROOT, st.media.markdown)), `${st.id}: media ${st.media.markdown ?? '(none)'}`);
      const buttons = [...st.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]!);
      assert.ok(buttons.length, `${st.id}: a command button`);
      for (const b of buttons) assert.ok(runnable(b), `${st.id}: button runs unknown command ${b}`);
      assert.ok(st.completionEvents?.length, `${st.id}: completion events`);
      for (const e of st.completionEvents!) {
        assert.match(e, /^(onCommand|onView|onContext|onSettingChanged):\S/, `${st.id}: ${e}`);
        if (e.startsWith('onCommand:')) assert.ok(runnable(e.slice('onCommand:'.length)), `${st.id}: ${e}`);
      }
    }
    const model = w.steps.find((st) => st.id === 'model')!;
    const text = `${model.description} ${readFileSync(path.join(ROOT, model.media.markdown!), 'utf8')}`;
    for (const what of ['markerResearch.provider', 'markerResearch.baseUrl', 'markerResearch.model', 'Set API Key']) assert.ok(text.includes(what), `the model step explains ${what}`);
  });

  test('"Getting Started" opens this walkthrough by its full id', () => {
    const src = readFileSync(path.join(ROOT, 'src', 'extension', 'gettingStarted.ts'), 'utf8');
    assert.ok(src.includes(`EXTENSION_ID = '${pkg.publisher}.${pkg.name}'`), 'the extension id is publisher.name');
    assert.ok(src.includes("WALKTHROUGH_ID = 'markerResearch.gettingStarted'"));
    assert.ok(contributed.has('markerResearch.gettingStarted') && contributed.has('markerResearch.useModel'));
    for (const id of ['markerResearch.exportMarkers', 'markerResearch.exportReport', 'markerResearch.openReportPreview']) assert.ok(contributed.has(id), id);
  });
});
