import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { CorpusItem } from '../../src/core/corpus/types';
import { renderFullItem } from '../../src/core/markers/fullItem';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** `text` as the renderer indents it: every line by four spaces. */
const indented = (text: string): string => text.replace(/\r\n?/g, '\n').split('\n').map((l) => `    ${l}`).join('\n');

/** Every segment and comment appears, in file order (a forward scan keeps this linear on big items). */
function assertComplete(item: CorpusItem, doc: string): void {
  let at = 0;
  const next = (needle: string, what: string): void => {
    const i = doc.indexOf(needle, at);
    assert.ok(i >= 0, `${item.id}: ${what} missing or out of order`);
    at = i + needle.length;
  };
  for (const s of item.transcript?.segments ?? []) next(`\n${indented(s.text)}\n`, `segment ${s.index}`);
  for (const [i, c] of (item.comments?.comments ?? []).entries()) {
    next(`\n#${i + 1} · `, `header of comment ${c.id}`);
    if (c.author) next(`@${c.author.replace(/^@+/, '')} · `, `author of ${c.id}`);
    next(' · line ', `source line of comment ${c.id}`);
    next(`\n${c.text.trim() ? indented(c.text) : '    (empty)'}\n`, `text of comment ${c.id}`);
  }
}

describe('renderFullItem: the whole item, nothing truncated', () => {
  test('every demo item: title first, counts at the top, every segment and comment', async () => {
    const corpus = await loadCorpus(DEMO);
    for (const item of corpus.items) {
      const doc = renderFullItem(item);
      assert.equal(doc.split('\n')[0], `# ${item.title}`);
      assertComplete(item, doc);
      const top = doc.slice(0, doc.indexOf('## Transcript'));
      assert.match(top, new RegExp(`- item: ${item.id}\\n`));
      if (item.transcript) assert.ok(top.includes(`- transcript: ${item.transcript.segments.length} segment`), item.id);
      if (item.comments) assert.ok(top.includes(`- comments: ${item.comments.comments.length} comment`), item.id);
    }
  });

  test('speakers, times, likes, replies and thread parents are shown', async () => {
    const corpus = await loadCorpus(DEMO);
    const city = corpus.items.find((i) => i.id === 'city-cycling-podcast')!;
    const doc = renderFullItem(city);
    assert.match(doc, /^\[2\] · 0:09\.5 → 0:21 · Daniel · line 9$/m);
    // dates as a reader writes them; the comment id only in the line link's tooltip
    assert.match(doc, /^#1 · @ridewithlena · 214 likes · 1 reply · 2024-03-14 11:02 UTC · line 1$/m);
    assert.match(doc, /^#3 · ↳ reply to #1 · @lena_reply · 31 likes · 0 replies · 2024-03-\d\d \d\d:\d\d UTC · line \d+$/m);
    for (const c of city.comments!.comments) assert.ok(!doc.includes(` · ${c.id} · `), `comment id ${c.id} shown as text`);
    assert.match(doc, /- source: podcast\n/);
    assert.match(doc, /- duration: 512\n/);
    // the last comment (empty text) is the end of the document
    assert.match(doc, /#6 · @quiet_viewer · 0 likes · 0 replies · 2024-03-16 10:00 UTC · line 6\n\n {4}\(empty\)\n$/);
    const zh = renderFullItem(corpus.items.find((i) => i.id === 'ev-winter-range')!);
    assert.match(zh, /· 工程师 · line \d+\n\n {4}\S/);
  });

  describe('untrusted and very large input', () => {
    let dir: string;
    let items: Map<string, CorpusItem>;
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'mr-fullitem-'));
      await mkdir(path.join(dir, 'big'));
      const turns = Array.from({ length: 3000 }, (_, i) => ({ speaker: `S${i % 7}`, text: `Turn ${i} says something about item number ${i * 3}.`, start: i * 4, end: i * 4 + 3.5 }));
      await writeFile(path.join(dir, 'big', 'transcript.json'), JSON.stringify({ turns }));
      const comments = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ comment_id: `k${i}`, author: `user${i}`, text: i === 4999 ? '# not a heading\n<script>alert(1)</script>\n```' : `comment ${i}`, likes: i, parent_id: i % 10 === 9 ? `k${i - 1}` : null }));
      await writeFile(path.join(dir, 'big', 'comments.jsonl'), `${comments.join('\n')}\n`);
      await mkdir(path.join(dir, 'quiet'));
      await writeFile(path.join(dir, 'quiet', 'comments.jsonl'), `${JSON.stringify({ comment_id: 'q1', text: 'only a comment', parent_id: 'gone' })}\n`);
      items = new Map((await loadCorpus(dir)).items.map((i) => [i.id, i]));
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    test('3,000 turns and 5,000 comments: all of them, in order', async () => {
      const big = items.get('big')!;
      const doc = renderFullItem(big);
      assertComplete(big, doc);
      assert.ok(doc.indexOf('Turn 2999 says') > doc.indexOf('Turn 0 says'));
      assert.ok(doc.includes('- comments: 5,000 comments (4,500 top-level, 500 replies)'));
      assert.ok(doc.includes('#5000 · ↳ reply to #4999 · @user4999 · 4,999 likes · 0 replies · line 5000'));
      assert.ok(doc.includes('#10 · ↳ reply to #9 · @user9'));
      assert.ok(doc.includes('#9 · @user8 · 8 likes · 1 reply · line 9'));
    });

    test('comment text is kept verbatim inside an indented block (never read as markup)', async () => {
      const doc = renderFullItem(items.get('big')!);
      assert.ok(doc.endsWith('    # not a heading\n    <script>alert(1)</script>\n    ```\n'));
      assert.ok(!/^# not a heading/m.test(doc));
    });

    test('an item with comments only; a reply whose parent is missing says so', async () => {
      const doc = renderFullItem(items.get('quiet')!);
      assert.ok(doc.includes('- transcript: none'));
      assert.ok(doc.includes('No transcript.'));
      assert.match(doc, /#1 · ↳ reply to a comment not in the file · unknown author · 0 likes · 0 replies · line 1\n\n {4}only a comment\n$/);
    });
  });
});
