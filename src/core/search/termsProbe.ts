/**
 * Whether a text holds one of some search terms (tokens, as `tokenize` makes them), told without
 * tokenizing most texts that do not: every token of a text is a substring of its NFKC lower-cased
 * form but for the light stemmer's "-ies" → "-y" ("studies" → "study"), whose stem without its "y"
 * is one. A text in which no term's such part (its probe) occurs holds none of the terms; the
 * others are tokenized to be sure. The Ask strategies that look for a question's terms in
 * hundreds of windows and turns per question read them so.
 *
 * @example
 * const probe = new TermsProbe(new Set(['regul', 'study']));
 * probe.in('They studied the regulations')  // tokenized: true ("regulation" → … the tokens decide)
 * probe.in('The weather was fine')           // false, not tokenized
 */
import { tokenize } from './tokenize';

/** The part of token `t` that every text yielding it holds, NFKC lower-cased: `t` itself, or its stem before the "y" of "-ies". */
export function tokenProbe(t: string): string {
  return /^[a-z]+y$/.test(t) ? t.slice(0, -1) : t;
}

export class TermsProbe {
  private readonly probes: string[];

  constructor(readonly terms: ReadonlySet<string>) {
    this.probes = [...new Set([...terms].map(tokenProbe))];
  }

  /** Whether one of the terms is among `tokenize(text)`: exact; the text is tokenized only when a probe occurs in it. */
  in(text: string): boolean {
    return this.mayBeIn(text) && tokenize(text).some((t) => this.terms.has(t));
  }

  /** Whether a text may hold one of the terms (false: it holds none; true: tokenize to know). */
  mayBeIn(text: string): boolean {
    if (!this.terms.size) return false;
    const norm = text.normalize('NFKC').toLowerCase();
    return this.probes.some((p) => norm.includes(p));
  }
}
