/**
 * How the understood line shows a question's translated terms: each source term once, with its
 * translations in the corpus's other language — `信念 → "faith", "belief"; 网络 → "network"`.
 * Plain text: every destination escapes it as it escapes the rest of the line (the CLI's terminal
 * stream, the webviews' text nodes).
 */
import type { ParsedQuery } from '../query';

/**
 * The translated terms of `q` in one phrase, or undefined when it has none.
 *
 * @example translatedTermsLine(q) // '信念 → "faith", "belief"; 网络 → "network"'
 */
export function translatedTermsLine(q: Pick<ParsedQuery, 'translatedKeywords'>): string | undefined {
  const by = new Map<string, string[]>();
  for (const t of q.translatedKeywords ?? []) by.set(t.from, [...(by.get(t.from) ?? []), t.term]);
  if (!by.size) return undefined;
  return [...by].map(([from, terms]) => `${from} → ${terms.map((t) => `"${t}"`).join(', ')}`).join('; ');
}
