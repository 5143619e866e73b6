/**
 * The pieces of the extractive answer (issue 22): maximal marginal relevance chooses several
 * things rather than one thing several times; the share of talk tells a statement from the talk
 * around it in English, Spanish and Chinese; the budget counts words and CJK characters apart.
 * Generated inputs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerSize } from '../../src/core/ask/answer';
import { cosine, mmrSelect, termVector } from '../../src/core/ask/mmr';
import { spokenShare } from '../../src/core/text/spokenShare';
import { rng } from '../support/testing';

describe('maximal marginal relevance', () => {
  test('clusters of near repeats: one of each cluster is chosen before a second of any, none past the repeat bound', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const clusters = 3 + Math.floor(r() * 4);
      const cands: { id: string; cluster: number; rel: number; v: Map<string, number> }[] = [];
      for (let c = 0; c < clusters; c++) {
        const base = Array.from({ length: 6 }, (_, k) => `c${c}w${k}`);
        // The first cluster is the most relevant by far; its members differ by one token at most.
        for (let m = 0; m < 2 + Math.floor(r() * 4); m++) {
          const toks = m % 2 ? [...base.slice(0, 5), `c${c}x${m}`] : [...base];
          cands.push({ id: `${c}.${m}`, cluster: c, rel: (c === 0 ? 10 : 5 - c * 0.5) + r() * 0.2, v: termVector(toks) });
        }
      }
      for (let i = cands.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [cands[i], cands[j]] = [cands[j]!, cands[i]!];
      }
      const chosen = mmrSelect(cands, { max: clusters, relevance: (c) => c.rel, vector: (c) => c.v, repeat: 0.8 });
      assert.equal(chosen.length, clusters, `seed ${seed}`);
      assert.deepEqual(new Set(chosen.map((c) => c.cluster)).size, clusters, `seed ${seed}: ${chosen.map((c) => c.id).join(' ')}`);
      assert.equal(chosen[0]!.cluster, 0, `seed ${seed}: the most relevant first`);
      const more = mmrSelect(cands, { max: cands.length, relevance: (c) => c.rel, vector: (c) => c.v, repeat: 0.8 });
      for (let i = 0; i < more.length; i++) for (let j = i + 1; j < more.length; j++) assert.ok(cosine(more[i]!.v, more[j]!.v) < 0.8, `seed ${seed}: ${more[i]!.id} and ${more[j]!.id} are repeats`);
    }
  });

  test('fits drops candidates for good, accept passes over one, enough stops; nothing is chosen twice', () => {
    const r = rng(7);
    const cands = Array.from({ length: 60 }, (_, i) => ({ i, size: 1 + Math.floor(r() * 9), rel: r(), v: termVector([`t${i}`, `u${i % 7}`]) }));
    for (const budget of [5, 12, 30]) {
      let used = 0;
      const chosen = mmrSelect(cands, {
        max: 10,
        relevance: (c) => c.rel,
        vector: (c) => c.v,
        fits: (c) => used + c.size <= budget,
        accept: (c) => {
          if (c.i % 5 === 0) return false;
          used += c.size;
          return true;
        },
      });
      assert.ok(chosen.reduce((n, c) => n + c.size, 0) <= budget, `budget ${budget}`);
      assert.ok(chosen.every((c) => c.i % 5 !== 0));
      assert.equal(new Set(chosen.map((c) => c.i)).size, chosen.length);
    }
    const stopped = mmrSelect(cands, { max: 10, relevance: (c) => c.rel, vector: (c) => c.v, enough: (_c, picked) => picked.length >= 3 });
    assert.equal(stopped.length, 3);
  });

  test('prefer: preferred candidates first, however less relevant; the others once none remains; never a dead end', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = rng(seed);
      const n = 10 + Math.floor(r() * 30);
      const marked = 1 + Math.floor(r() * 4);
      const cands = Array.from({ length: n }, (_, i) => ({ i, marked: i < marked, rel: i < marked ? r() * 0.3 : 0.5 + r(), v: termVector([`t${i}`]) }));
      const chosen = mmrSelect(cands, { max: marked + 3, relevance: (c) => c.rel, vector: (c) => c.v, prefer: (c) => c.marked });
      assert.equal(chosen.length, marked + 3, `seed ${seed}`);
      assert.ok(chosen.slice(0, marked).every((c) => c.marked) && chosen.slice(marked).every((c) => !c.marked), `seed ${seed}: ${chosen.map((c) => c.i).join(' ')}`);
      // Preferring what is rejected leaves the others to choose from.
      const rejected = mmrSelect(cands, { max: 3, relevance: (c) => c.rel, vector: (c) => c.v, prefer: (c) => c.marked, accept: (c) => !c.marked });
      assert.equal(rejected.length, 3, `seed ${seed}`);
    }
  });
});

describe('the share of talk', () => {
  const TALK: Record<'en' | 'es' | 'zh', { talk: string[]; statements: string[] }> = {
    en: {
      talk: ['So , yeah , I think we , uh , you know , we should , um', 'Yeah , okay , I mean , I guess so , right ?', 'Well , um , you know what I mean , like , yeah'],
      statements: ['The remote will sell for twenty five Euros in European shops', 'Rubber buttons cost more than plastic ones at the factory', 'The battery lasts three years under normal conditions'],
    },
    es: {
      talk: ['Bueno , pues , o sea , yo creo que , eh , sabes , claro', 'Sí , sí , vale , pues nada , mira , bueno', 'Eh , bueno , tú sabes , como que , pues sí'],
      statements: ['El precio del mando subirá a veinticinco euros en las tiendas', 'Los botones de goma cuestan más que los de plástico', 'La batería dura tres años en condiciones normales'],
    },
    zh: {
      talk: ['嗯然后我们就是说那个对吧', '对对对，就是那个，你知道吧', '呃，我觉得吧，其实就是这样'],
      statements: ['遥控器在欧洲商店的售价为二十五欧元', '橡胶按键比塑料按键的成本更高', '电池在正常条件下可以使用三年'],
    },
  };
  test('talk scores high, statements low, in English, Spanish and Chinese', () => {
    for (const [lang, { talk, statements }] of Object.entries(TALK)) {
      for (const t of talk) assert.ok(spokenShare(t) >= 0.5, `${lang}: «${t}» ${spokenShare(t).toFixed(2)}`);
      for (const s of statements) assert.ok(spokenShare(s) <= 0.15, `${lang}: «${s}» ${spokenShare(s).toFixed(2)}`);
      // A statement wrapped in talk lies between the two.
      for (let i = 0; i < 3; i++) {
        const mixed = lang === 'zh' ? `${talk[i]}${statements[i]}` : `${talk[i]} ${statements[i]}`;
        const m = spokenShare(mixed);
        assert.ok(m > spokenShare(statements[i]!) && m < spokenShare(talk[i]!), `${lang}: «${mixed}» ${m.toFixed(2)}`);
      }
    }
    assert.equal(spokenShare(''), 0);
    assert.equal(spokenShare('{vocalsound} .'), 1);
  });
});

describe('the budget', () => {
  test('words and CJK characters are counted apart, over generated mixes', () => {
    const r = rng(22);
    for (let k = 0; k < 200; k++) {
      const words = Math.floor(r() * 30);
      const han = Math.floor(r() * 60);
      const parts: string[] = [];
      for (let i = 0; i < words; i++) parts.push(['price', 'precio', 'año', "don't", 'v2', '25'][Math.floor(r() * 6)]!);
      const chinese = Array.from({ length: han }, () => '价格电池遥控器'[Math.floor(r() * 7)]).join('');
      const text = `${parts.join(' , ')} ${chinese}。`;
      assert.deepEqual(answerSize(text), { words, cjk: han }, text);
    }
  });
});
