/**
 * The entity index's name table (`EntityIndex.names`): every known name lists each item it is in
 * once, in the items' order, and a role speaker lists its items — also when an item gives the same
 * name through several of its sources (a speaker that is also named in the text and introduces
 * themself, an author who is named too). Generated per-item entities, checked against the items'
 * own lists.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { ENTITY_INDEX_VERSION, EntityIndex, itemEntitiesSchema, type ItemEntities } from '../../src/core/ask/entityIndex';
import { rng } from '../support/testing';

test('each name lists its items once, in order, whatever sources an item gives it through', async () => {
  const r = rng(4242);
  const pool = ['Maria Lopez', 'David Chen', 'Host', 'Ana', 'Pablo Ruiz', 'Speaker 1', 'Guest'];
  const cjk = ['王伟', '李娜', '主持人'];
  const items: Record<string, ItemEntities> = {};
  const expected = new Map<string, string[]>();
  const note = (kind: string, name: string, id: string): void => {
    const k = `${kind}\u0000${name}`;
    const list = expected.get(k) ?? [];
    if (list[list.length - 1] !== id) list.push(id);
    expected.set(k, list);
  };
  for (let i = 0; i < 400; i++) {
    const id = `item-${String(i).padStart(3, '0')}`;
    const pick = (xs: string[], n: number): string[] => (xs.length === 0 ? [] : [...new Set(Array.from({ length: n }, () => xs[Math.floor(r() * xs.length)]!))]);
    const speakers = pick(pool, 1 + Math.floor(r() * 3));
    const names = pick(pool, Math.floor(r() * 4));
    const authors = pick(pool, Math.floor(r() * 3));
    const intros = pick(names, Math.floor(r() * 2)).map((n): [string, string] => [n, speakers[0]!]);
    const cjkNames = pick(cjk, Math.floor(r() * 2)).map((n): [string, number] => [n, 2]);
    items[id] = {
      hash: `h${i}`,
      title: `Episode ${i}`,
      speakers: speakers.map((s) => [s, 3]),
      roleLabels: speakers.filter((s) => s === 'Host' || s === 'Speaker 1').map((s): [string, 'role' | 'generic'] => [s, s === 'Host' ? 'role' : 'generic']),
      authors: authors.map((a) => [a, 1]),
      names: names.map((n) => [n, 2]),
      cjkNames,
      introductions: intros,
      chapters: [],
      timed: true,
    };
    for (const s of speakers) if (s !== 'Host' && s !== 'Speaker 1') note('speaker', s, id);
    for (const a of authors) note('author', a, id);
    for (const n of [...names, ...intros.map(([n]) => n), ...cjkNames.map(([n]) => n)]) note('name', n, id);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'mr-entity-names-'));
  try {
    await mkdir(path.join(dir, '.marker-research', 'index'), { recursive: true });
    await writeFile(path.join(dir, '.marker-research', 'index', 'entities.json'), JSON.stringify({ version: ENTITY_INDEX_VERSION, items }));
    for (const [id, e] of Object.entries(items)) { const p = itemEntitiesSchema.safeParse(e); if (!p.success) throw new Error(`${id}: ${JSON.stringify(p.error.issues)}`); }
    const index = await EntityIndex.load(dir);
    assert.ok(index, "the generated entities load");
    const known = [...index.names().values()].flat();
    let checked = 0;
    for (const k of known) {
      assert.equal(new Set(k.itemIds).size, k.itemIds.length, `${k.kind} ${k.name}: an item listed twice: ${k.itemIds.join(', ')}`);
      assert.deepEqual(k.itemIds, [...k.itemIds].sort(), `${k.kind} ${k.name}: items in order`);
      if (k.speakerItems) assert.equal(new Set(k.speakerItems).size, k.speakerItems.length);
      const want = expected.get(`${k.kind}\u0000${k.name}`);
      if (want) {
        assert.deepEqual(k.itemIds, want, `${k.kind} ${k.name}`);
        checked++;
      } else {
        // A role or anonymous id: one entry per item.
        assert.equal(k.kind, 'speaker');
        assert.deepEqual(k.itemIds, k.speakerItems);
        assert.equal(k.itemIds.length, 1);
      }
    }
    assert.ok(checked >= 12, `${checked} names checked`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
