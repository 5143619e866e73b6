/**
 * A deterministic token estimate for when a server does not report usage (and for sizing
 * windows before a call). Deliberately the same rule as the fake model server's, so tests can
 * compare exactly.
 */

/** CJK ideographs, kana, hangul, CJK punctuation and full-width forms: roughly one token each. */
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/**
 * Estimated tokens of `text`: one per CJK character plus one per four other UTF-16 code units,
 * rounded up.
 *
 * @example
 * ```ts
 * estimateTokens('hello world');   // 3
 * estimateTokens('你好, world');    // 2 + ceil(7 / 4) = 4
 * ```
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/** Estimated prompt tokens of a conversation: the estimate over its concatenated contents. */
export function estimateMessagesTokens(messages: readonly { content: string }[]): number {
  return estimateTokens(messages.map((m) => m.content).join(''));
}
