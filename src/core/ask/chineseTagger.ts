/**
 * Chinese word segmentation with part-of-speech tags (jieba, via the
 * `jieba-wasm` package), loaded on first use: proper-noun tags (`nr` person,
 * `nrt` transliterated name, `ns` place, `nt` organisation, `nz` other proper
 * noun) propose the entities of a Chinese question. Names the entity index
 * learned from the corpus are added to the dictionary first, so "陈启蒙"
 * stays one word.
 */
export interface TaggedWord {
  word: string;
  tag: string;
}

interface Jieba {
  tag(sentence: string, hmm?: boolean | null): TaggedWord[];
  add_word(word: string, freq?: number | null, tag?: string | null): number;
}

let jieba: Jieba | undefined;
const added = new Set<string>();

function load(): Jieba {
  // Loaded on first use (the dictionary costs ~0.3 s); bundled by esbuild, which copies the wasm file beside each bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  jieba ??= require('jieba-wasm') as Jieba;
  return jieba;
}

/** Adds names to the tagger's dictionary as person names (once each). */
export function addNames(names: Iterable<string>): void {
  const j = load();
  for (const n of names) {
    if (added.has(n) || n.length < 2 || n.length > 8) continue;
    added.add(n);
    j.add_word(n, 1000, 'nr');
  }
}

/** Words of `text` with their tags. */
export function tagChinese(text: string): TaggedWord[] {
  return load().tag(text, true);
}
