/**
 * The learned model's features ({@link spamFeatures}) without their text: the
 * same features, made in the same order from the same reading of the comment,
 * each named by the number its key stands for ({@link featureKey} is this
 * FNV-1a hash in base 36), hashed as its characters come (a word's character
 * n-grams continue one hash per starting place) rather than built as a string
 * and hashed after. What the model needs of them: the distinct hashes in the
 * order they first come (its log-odds add up in that order) and how many
 * distinct features there are (each feature's value is 1/√n). Two features
 * whose hashes are equal are told apart by comparing what they are made of, so
 * the count is that of distinct texts, as in {@link spamFeatures}.
 *
 * Used for every comment the detector reads (./spamModel); {@link spamFeatures}
 * stays the definition, which training reads and the tests compare with.
 */
import { CHAR_NGRAMS, featureWords } from './spamFeatures';
import { CJK, hostOf, type SpamReading } from './spamText';

const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

/** FNV-1a continued from `h` over `s`'s UTF-16 code units (not yet made unsigned). */
function fnvOn(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
}

/** The number a feature's key ({@link featureKey}) is the base-36 form of. */
export function featureHash(feature: string): number {
  return fnvOn(OFFSET, feature) >>> 0;
}

const WORD = fnvOn(OFFSET, 'w:');
const BIGRAM = fnvOn(OFFSET, 'b:');
const GRAM = fnvOn(OFFSET, 'c:');
const UNDERSCORE = 95;
const SPACE = 32;
const LEN = Array.from({ length: 7 }, (_, k) => featureHash(`m:len${k}`));
const MAX_GRAM = Math.max(...CHAR_NGRAMS);

// What a feature is made of, to tell two features with one hash apart (its kind, and `a`, `b`, `c`):
/** A whole feature text (links, shapes): `a` indexes the texts. */
const FIXED = 0;
/** `w:` + word `a`. */
const WORD_OF = 1;
/** `b:` + word `a` + ' ' + word `a + 1`. */
const BIGRAM_OF = 2;
/** `c:` + `b` characters of word `a` padded with `_`, from place `c`. */
const GRAM_OF = 3;

/** The distinct features of the last comment hashed (valid until the next call). */
export interface HashedFeatures {
  /** Distinct hashes, first `count` entries, in the order they first came. */
  readonly hashes: Uint32Array;
  readonly count: number;
  /** Distinct features (texts): `count` plus the features whose hash an earlier, different feature had. */
  readonly features: number;
}

/**
 * Hashes a comment's features. One instance is reused from comment to comment
 * (its tables grow to the largest comment seen); not re-entrant.
 */
export class FeatureHasher {
  #slots = new Int32Array(1024);
  #slotHash = new Uint32Array(1024);
  /** Per slot: the generation it was filled in (a slot of an earlier comment is empty). */
  #slotGen = new Uint32Array(1024);
  /** 32 − log2 of the slots: a hash's first slot is the top bits of its product with the golden ratio. */
  #shift = 22;
  #gen = 0;
  #used = 0;
  // Features seen, by what they are made of; `next` links features with the same hash.
  #kind = new Uint8Array(1024);
  #a = new Int32Array(1024);
  #b = new Int32Array(1024);
  #c = new Int32Array(1024);
  #next = new Int32Array(1024);
  #made = 0;
  #hashes = new Uint32Array(1024);
  #count = 0;
  #fixed: string[] = [];
  #words: string[] = [];
  #grams = new Int32Array(0);

  /** The features of a comment read by {@link readForSpam}, as {@link spamFeatures} makes them. */
  hash(r: SpamReading): HashedFeatures {
    this.#begin();
    for (const link of r.links) {
      this.#fixedFeature('m:link');
      const labels = hostOf(link).split('.').filter(Boolean);
      if (labels.length >= 2) {
        this.#fixedFeature(`t:${labels[labels.length - 1]}`);
        this.#fixedFeature(`h:${labels[labels.length - 2]}`);
      }
      if (/[?&=]/.test(link)) this.#fixedFeature('m:link-query');
    }
    const words = featureWords(r.words, r.cjk);
    this.#words = words;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const again = !this.#add(fnvOn(WORD, w) >>> 0, WORD_OF, i, 0, 0);
      if (i + 1 < words.length) this.#add(fnvOn(Math.imul(fnvOn(BIGRAM, w) ^ SPACE, PRIME), words[i + 1]!) >>> 0, BIGRAM_OF, i, 0, 0);
      // A word seen before in the comment has had its n-grams counted.
      if (again || (r.cjk && CJK.test(w)) || w === '0') continue;
      this.#wordGrams(i, w);
    }
    const bare = r.bare;
    let letters = 0;
    let upper = 0;
    if (!NON_ASCII.test(bare)) {
      for (let i = 0; i < bare.length; i++) {
        const c = bare.charCodeAt(i) | 0x20;
        if (c >= 97 && c <= 122) {
          letters++;
          if (bare.charCodeAt(i) < 97) upper++;
        }
      }
    } else {
      letters = codePoints(bare.replace(NOT_LETTERS, ''));
      upper = codePoints(bare.replace(NOT_CAPITALS, ''));
    }
    if (letters >= 8 && upper / letters >= 0.6) this.#fixedFeature('m:caps');
    if (/[!?]{3,}/u.test(bare)) this.#fixedFeature('m:punct-run');
    if (r.n.tricks.length) this.#fixedFeature('m:tricks');
    const len = words.length === 0 ? 0 : Math.min(6, Math.ceil(Math.log2(words.length + 1)));
    this.#add(LEN[len]!, FIXED, this.#fixed.push(`m:len${len}`) - 1, 0, 0);
    this.#words = [];
    this.#fixed = [];
    return { hashes: this.#hashes, count: this.#count, features: this.#made };
  }

  /** The character n-grams of word `i`, all of one length before the next length (as {@link spamFeatures} makes them). */
  #wordGrams(i: number, w: string): void {
    const padded = w.length + 2;
    // grams[j * MAX_GRAM + k - 1]: the hash of the k characters from place j, each place's hashes continued one from the other.
    if (this.#grams.length < padded * MAX_GRAM) this.#grams = new Int32Array(padded * MAX_GRAM * 2);
    const grams = this.#grams;
    for (let j = 0; j < padded; j++) {
      let h = GRAM;
      for (let k = 0; k < MAX_GRAM && j + k < padded; k++) {
        const at = j + k;
        h = Math.imul(h ^ (at === 0 || at === padded - 1 ? UNDERSCORE : w.charCodeAt(at - 1)), PRIME);
        grams[j * MAX_GRAM + k] = h;
      }
    }
    for (const k of CHAR_NGRAMS) for (let j = 0; j + k <= padded; j++) this.#add(grams[j * MAX_GRAM + k - 1]! >>> 0, GRAM_OF, i, k, j);
  }

  #fixedFeature(text: string): void {
    this.#add(featureHash(text), FIXED, this.#fixed.push(text) - 1, 0, 0);
  }

  #begin(): void {
    this.#gen = (this.#gen + 1) >>> 0;
    if (this.#gen === 0) {
      this.#slotGen.fill(0);
      this.#gen = 1;
    }
    this.#used = 0;
    this.#made = 0;
    this.#count = 0;
  }

  /** Adds one feature: a new hash is counted and kept in order; a hash seen already counts only when its text is new. Whether its text is new. */
  #add(hash: number, kind: number, a: number, b: number, c: number): boolean {
    if ((this.#used + 1) * 2 > this.#slots.length) this.#growSlots();
    const mask = this.#slots.length - 1;
    let s = Math.imul(hash, 0x9e3779b1) >>> this.#shift;
    while (this.#slotGen[s] === this.#gen) {
      if (this.#slotHash[s] === hash) {
        for (let d = this.#slots[s]!; d >= 0; d = this.#next[d]!) if (this.#same(d, kind, a, b, c)) return false;
        // Another feature with this hash (a collision): counted, and chained to the first for later comparisons.
        this.#slots[s] = this.#record(kind, a, b, c, this.#slots[s]!);
        return true;
      }
      s = (s + 1) & mask;
    }
    this.#slotGen[s] = this.#gen;
    this.#slotHash[s] = hash;
    this.#slots[s] = this.#record(kind, a, b, c, -1);
    this.#used++;
    if (this.#count === this.#hashes.length) {
      const grown = new Uint32Array(this.#hashes.length * 2);
      grown.set(this.#hashes);
      this.#hashes = grown;
    }
    this.#hashes[this.#count++] = hash;
    return true;
  }

  /** Records a feature made (its parts, the feature after it with the same hash): its index. */
  #record(kind: number, a: number, b: number, c: number, next: number): number {
    if (this.#made === this.#kind.length) {
      const n = this.#made * 2;
      this.#kind = grow8(this.#kind, n);
      this.#a = grow32(this.#a, n);
      this.#b = grow32(this.#b, n);
      this.#c = grow32(this.#c, n);
      this.#next = grow32(this.#next, n);
    }
    const d = this.#made++;
    this.#kind[d] = kind;
    this.#a[d] = a;
    this.#b[d] = b;
    this.#c[d] = c;
    this.#next[d] = next;
    return d;
  }

  /** Whether feature `d` has the same text as the feature made of (kind, a, b, c). */
  #same(d: number, kind: number, a: number, b: number, c: number): boolean {
    if (this.#kind[d] !== kind) return false;
    const da = this.#a[d]!;
    const words = this.#words;
    if (kind === FIXED) return this.#fixed[da] === this.#fixed[a];
    if (kind === WORD_OF) return words[da] === words[a];
    if (kind === BIGRAM_OF) return words[da] === words[a] && words[da + 1] === words[a + 1];
    if (this.#b[d] !== b) return false;
    const x = words[da]!;
    const y = words[a]!;
    const dc = this.#c[d]!;
    for (let t = 0; t < b; t++) if (paddedCode(x, dc + t) !== paddedCode(y, c + t)) return false;
    return true;
  }

  #growSlots(): void {
    const n = this.#slots.length * 2;
    const slots = new Int32Array(n);
    const slotHash = new Uint32Array(n);
    const slotGen = new Uint32Array(n);
    const mask = n - 1;
    this.#shift--;
    for (let s = 0; s < this.#slots.length; s++) {
      if (this.#slotGen[s] !== this.#gen) continue;
      let t = Math.imul(this.#slotHash[s]!, 0x9e3779b1) >>> this.#shift;
      while (slotGen[t] === this.#gen) t = (t + 1) & mask;
      slotGen[t] = this.#gen;
      slotHash[t] = this.#slotHash[s]!;
      slots[t] = this.#slots[s]!;
    }
    this.#slots = slots;
    this.#slotHash = slotHash;
    this.#slotGen = slotGen;
  }
}

/** A character beyond ASCII: a text without any has a-z and A-Z for letters (\p{L}), A-Z for capitals (\p{Lu}). */
const NON_ASCII = /[\u0080-\uffff]/;
const NOT_LETTERS = /\P{L}+/gu;
const NOT_CAPITALS = /\P{Lu}+/gu;

/** The code points of a string of letters (each a code point of its own or a surrogate pair): what `match(/\p{L}/gu)` would count of them. */
function codePoints(letters: string): number {
  let n = letters.length;
  for (let i = 0; i < letters.length; i++) if ((letters.charCodeAt(i) & 0xfc00) === 0xd800) n--;
  return n;
}

/** The code unit at place `p` of `_word_`. */
function paddedCode(w: string, p: number): number {
  return p === 0 || p === w.length + 1 ? UNDERSCORE : w.charCodeAt(p - 1);
}

function grow8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  b.set(a);
  return b;
}

function grow32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
