/**
 * Topics compared across items: two markers share a topic when their own topic fields fold to the
 * same key — case, accents, character width and traditional/simplified Chinese script do not
 * matter (`Batería` = `bateria`, `電池` = `电池`), nor punctuation and spacing (`e-bikes` =
 * `e bikes`). Words are not stemmed: `battery` and `batteries` stay two topics.
 */
import { foldText } from '../../shared/textFold';

/**
 * The key of a topic: folded ({@link foldText}), punctuation and symbols read as spaces, spaces
 * collapsed and trimmed, and no space left between two Chinese characters. '' for a topic of
 * nothing but spaces and punctuation.
 *
 * @example
 * topicKey(' Batería  eléctrica ') === 'bateria electrica'
 * topicKey('電池') === topicKey('电池')
 */
export function topicKey(topic: string): string {
  return foldText(topic)
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim()
    .replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, '');
}

/** Code-point order of two keys (the same on every machine, unlike a locale's). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How a topic is shown: the spelling most markers use (trimmed, spaces collapsed); on a tie, the first in code-point order (whatever order the markers came in). */
export class TopicSpellings {
  private readonly seen = new Map<string, Map<string, number>>();

  add(key: string, topic: string): void {
    const spelling = topic.replace(/\s+/gu, ' ').trim();
    let m = this.seen.get(key);
    if (!m) this.seen.set(key, (m = new Map()));
    m.set(spelling, (m.get(spelling) ?? 0) + 1);
  }

  /** Every spelling of `key`, most used first (code-point order on a tie); empty for a key never added. */
  variants(key: string): string[] {
    const m = this.seen.get(key);
    if (!m) return [];
    return [...m.entries()].sort((a, b) => b[1] - a[1] || compareKeys(a[0], b[0])).map(([s]) => s);
  }

  label(key: string): string {
    return this.variants(key)[0] ?? '';
  }
}
