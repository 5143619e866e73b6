/**
 * The readable view's details (issue 21): ISO 8601 dates and durations read as a reader writes
 * them (`2024-03-14 13:05 UTC`, `1:43:20`), comment ids only in the tooltip of a comment's
 * `line N` link, and annotations ({disfmarker}, {vocalsound}, [Música], [ __ ], (risas)) found
 * where the document shows them, for the editor to dim or hide — over generated items.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { layoutFullItem } from '../../src/core/markers/fullItem';
import { readableAnnotations } from '../../src/core/markers/readableSpans';
import { formatClock } from '../../src/core/text/clock';
import { readableIsoValue } from '../../src/core/text/isoTime';
import { ReadableLayouts } from '../../src/server/readableLayouts';
import { commentsPart, itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const ANNOTATIONS = ['{disfmarker}', '{vocalsound}', '{gap}', '[Música]', '[Music]', '[ __ ]', '[Aplausos]', '(risas)', '[音乐]', '(laughter)'];
const WORDS = ['so', 'the', 'budget', 'pero', 'el', 'precio', '我们', '预算', 'remote', 'control', 'sube', 'team'];

describe('dates and durations as a reader writes them', () => {
  test('generated ISO 8601 date-times (Z, offsets, none, fractions) and durations', () => {
    const r = rng(8601);
    for (let i = 0; i < 500; i++) {
      const [y, mo, d, h, mi, s] = [1990 + Math.floor(r() * 40), 1 + Math.floor(r() * 12), 1 + Math.floor(r() * 28), Math.floor(r() * 24), Math.floor(r() * 60), Math.floor(r() * 60)];
      const zone = ['Z', 'z', '+02:00', '-0530', '+01', ''][i % 6]!;
      const frac = i % 4 === 0 ? `.${Math.floor(r() * 1000)}` : '';
      const sep = i % 7 === 0 ? ' ' : 'T';
      const iso = `${y}-${pad(mo)}-${pad(d)}${sep}${pad(h)}:${pad(mi)}${i % 5 === 0 ? '' : `:${pad(s)}${frac}`}${zone}`;
      const zoneText = zone === '' ? '' : zone.toUpperCase() === 'Z' ? ' UTC' : ` ${zone}`;
      assert.equal(readableIsoValue(iso), `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}${zoneText}`, iso);
      const [dh, dm, ds] = [Math.floor(r() * 5), Math.floor(r() * 60), Math.floor(r() * 60)];
      const dur = `PT${dh ? `${dh}H` : ''}${dm || !dh ? `${dm}M` : ''}${ds}S`;
      assert.equal(readableIsoValue(dur), formatClock(dh * 3600 + dm * 60 + ds), dur);
    }
    for (const other of ['2024', '14/03/2024', 'PT', 'P1D', 'yesterday', '12:05', '2024-03-14', 'PTxS', 'a 2024-03-14T13:05:00Z']) assert.equal(readableIsoValue(other), undefined, other);
  });
});

describe('comment ids only in the tooltip; dates formatted; annotations found', () => {
  test('generated items: no comment id and no ISO date as text; each comment link\'s tooltip names its id', () => {
    const r = rng(77);
    for (let k = 0; k < 40; k++) {
      const n = 3 + Math.floor(r() * 8);
      const comments = commentsPart(Array.from({ length: n }, (_, i) => `comment ${i} about ${WORDS[i % WORDS.length]}`));
      for (const c of comments.comments) {
        c.id = `Ug${Math.floor(r() * 1e12).toString(36)}x${c.index}`;
        c.author = `@user${c.index}`;
        c.publishedAt = `2023-${pad(1 + Math.floor(r() * 12))}-${pad(1 + Math.floor(r() * 28))}T${pad(Math.floor(r() * 24))}:${pad(Math.floor(r() * 60))}:${pad(Math.floor(r() * 60))}Z`;
        if (c.index > 0 && r() < 0.3) c.parentId = r() < 0.5 ? comments.comments[0]!.id : `gone${k}`;
      }
      const item = itemOf(`item-${k}`, { comments });
      item.meta = { published_at: '2023-03-28T18:05:56Z', duration: 'PT1H43M20S', updated_at: '2023-03-29T08:00:00+01:00' };
      const doc = layoutFullItem(item).text;
      for (const c of comments.comments) assert.ok(!doc.includes(c.id), `item ${k}: comment id ${c.id} shown as text`);
      assert.doesNotMatch(doc, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|PT\d/, `item ${k}`);
      assert.match(doc, /- published_at: 2023-03-28 18:05 UTC\n- duration: 1:43:20\n- updated_at: 2023-03-29 08:00 \+01:00\n/);
      assert.match(doc, /^#1 · @user0 · 0 likes · \d+ repl(y|ies) · 2023-\d\d-\d\d \d\d:\d\d UTC · line 1$/m);
      const layouts = new ReadableLayouts({ onDidLoad: () => ({ dispose: () => undefined }) });
      const { links } = layouts.get(item);
      assert.equal(links.length, n);
      links.forEach((l, i) => {
        assert.ok(l.tooltip.includes(comments.comments[i]!.id), `tooltip "${l.tooltip}" names the comment's id`);
        assert.equal(l.target.part, 'comments');
      });
    }
  });

  test('annotations between words of generated turns: every one where the document shows it, nothing else', () => {
    const r = rng(5);
    for (let k = 0; k < 60; k++) {
      const want: string[] = [];
      const turns = Array.from({ length: 6 + Math.floor(r() * 10) }, () => {
        const parts: string[] = [];
        for (let i = 0; i < 3 + Math.floor(r() * 8); i++) {
          if (r() < 0.25) {
            const a = ANNOTATIONS[Math.floor(r() * ANNOTATIONS.length)]!;
            want.push(a);
            parts.push(a);
          } else parts.push(WORDS[Math.floor(r() * WORDS.length)]!);
        }
        return { text: `${parts.join(' ')} .`, speaker: 'A' };
      });
      const item = itemOf(`t${k}`, { transcript: transcriptPart(turns) });
      const layout = layoutFullItem(item);
      const lines = layout.text.split('\n');
      const got = readableAnnotations(layout).map((a) => lines[a.line]!.slice(a.start, a.end));
      assert.deepEqual(got, want, `item ${k}`);
      // The server sends them with the document.
      const entry = new ReadableLayouts({ onDidLoad: () => ({ dispose: () => undefined }) }).get(item);
      assert.deepEqual(entry.annotations.map((a) => lines[a.line]!.slice(a.startCharacter, a.endCharacter)), want);
    }
  });
});
