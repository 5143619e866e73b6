/**
 * What a speaker label is (issue 21 "role labels belong to their item"): a
 * person's NAME ("Kirsty Williams AM", "Hon. Andrew Scheer (Leader of the
 * Opposition)", "陈启蒙", "王老师") — the same person wherever it occurs — or a
 * ROLE ("Project Manager", "The Chair", "Presentadora", "主持人") or a GENERIC
 * id ("speaker_3", "SPEAKER 01", "PhD C", "ME013", "说话人1", "Hablante 2") —
 * a different person in each item.
 *
 * Decided by grammar over the small closed classes of roleLexicon.ts, not by
 * a list of labels seen: letter and number codes after a noun; role heads with
 * their modifiers before them ("Industrial Designer") and complements after
 * of/de ("Jefe de Proyecto"); a title before a name ("Professor Smith",
 * "Presidente Sánchez", "李主任"); apposition and parentheses ("The Acting
 * Chair (Mrs. Carol Hughes)" is Carol Hughes); the item's own capitalisation
 * (a word its text writes in lower case is a common word, not a name); and
 * for Chinese, surnames and the jieba tagger's person tags.
 */
import { tagChinese } from './chineseTagger';
import { CJK_COMPOUND_SURNAMES, CJK_SURNAMES } from './cjkSurnames';
import {
  ARTICLES, GENERIC_LABELS, GENERIC_NOUNS, HONORIFICS, isRoleHead, POST_NOMINALS, PREPOSITIONS, ROLE_MODIFIERS, ZH_GENERIC_NOUNS, ZH_ROLE_HEADS,
} from './roleLexicon';

/** `name`: one person across items; `role` and `generic`: a different person in each item. */
export type SpeakerLabelKind = 'name' | 'role' | 'generic';

export interface SpeakerLabelClass {
  kind: SpeakerLabelKind;
  /** For a name: the person's name as the label writes it, titles and roles dropped ("Carol Hughes", "王小明", "王老师"). */
  name?: string;
}

/** What the item says besides the label itself. */
export interface LabelEvidence {
  /** The other speaker labels of the same item: "Grad A" beside "Grad F" is a lettered code scheme. */
  siblings?: readonly string[];
  /** How the item's text writes a word (lower case): `common` mostly in lower case, `proper` capitalised mid-sentence; undefined when unknown. */
  wordCase?: (lowerWord: string) => 'common' | 'proper' | undefined;
}

let stopwords: ReadonlySet<string> | undefined;
/** English and Spanish function words (stopwords-iso, loaded on first use): never a name on their own ("May", "Will" stay names beside another word). */
function isStopword(lower: string): boolean {
  if (!stopwords) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const iso = require('stopwords-iso') as Record<string, readonly string[]>;
    stopwords = new Set([...(iso['en'] ?? []), ...(iso['es'] ?? [])]);
  }
  return stopwords.has(lower);
}

/** A code token: a capital letter, a number, "#3", or up to three letters and a number ("ME013", "S1", "Spk2"). */
const CODE = /^(?:\p{Lu}|\d+|#\d+|[\p{L}]{1,3}[-_]?\d{1,4}|[Ａ-Ｚ]|[０-９]+)$/u;
/** Han numerals and cyclic signs used as codes ("嘉宾甲", "发言人三"). */
const ZH_CODE = /^(?:[0-9０-９]+|[A-Za-zＡ-Ｚａ-ｚ]|[甲乙丙丁戊己庚辛壬癸]|[一二三四五六七八九十]{1,3})[号號]?$/u;
const HAN = /\p{Script=Han}/u;

/**
 * Classifies a speaker label.
 *
 * @example
 * classifySpeakerLabel('Project Manager')                       // → { kind: 'role' }
 * classifySpeakerLabel('PhD C')                                 // → { kind: 'generic' }
 * classifySpeakerLabel('speaker_3')                             // → { kind: 'generic' }
 * classifySpeakerLabel('The Acting Chair (Mrs. Carol Hughes)')  // → { kind: 'name', name: 'Carol Hughes' }
 * classifySpeakerLabel('主持人王小明')                            // → { kind: 'name', name: '王小明' }
 */
export function classifySpeakerLabel(label: string, evidence: LabelEvidence = {}): SpeakerLabelClass {
  // Without evidence the answer depends on the label alone: remembered (questions classify the labels in scope each time).
  if (!evidence.siblings && !evidence.wordCase) {
    let c = memo.get(label);
    if (!c) {
      c = classifyLabel(label, evidence);
      if (memo.size >= MEMO_SIZE) memo.clear();
      memo.set(label, c);
    }
    return c;
  }
  return classifyLabel(label, evidence);
}

const MEMO_SIZE = 20_000;
const memo = new Map<string, SpeakerLabelClass>();

function classifyLabel(label: string, evidence: LabelEvidence): SpeakerLabelClass {
  const text = label.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  if (!text) return { kind: 'generic' };
  const { outer, groups } = splitParentheses(text);
  const parts = outer.split(/\s*(?:[,;:|/–—]|\s-\s)\s*/u).filter((p) => /[\p{L}\p{N}]/u.test(p));
  const kinds = parts.map((p) => classifyPart(p, evidence, text));
  const named = kinds.find((k) => k.kind === 'name');
  if (named) return named;
  // "The Chair (Hon. Anthony Rota (Nipissing…, Lib.))": a parenthesis naming a person (no "Place, Party" list) makes the label theirs.
  for (const g of groups) {
    if (splitParentheses(g).outer.includes(',')) continue;
    const c = classifySpeakerLabel(g, { ...(evidence.wordCase ? { wordCase: evidence.wordCase } : {}) });
    if (c.kind === 'name') return c;
  }
  if (!kinds.length) return { kind: 'generic' };
  return kinds.some((k) => k.kind === 'generic') ? { kind: 'generic' } : { kind: 'role' };
}

/** True for a role or generic label: a different person in each item. */
export function isPerItemLabel(label: string, evidence: LabelEvidence = {}): boolean {
  return classifySpeakerLabel(label, evidence).kind !== 'name';
}

/** The text outside parentheses and the contents of the top-level parenthesised groups (nested ones kept inside). */
function splitParentheses(text: string): { outer: string; groups: string[] } {
  let depth = 0;
  let outer = '';
  let cur = '';
  const groups: string[] = [];
  for (const ch of text) {
    if (ch === '(' || ch === '（' || ch === '[') {
      if (depth > 0) cur += ch;
      depth++;
    } else if ((ch === ')' || ch === '）' || ch === ']') && depth > 0) {
      depth--;
      if (depth === 0) {
        groups.push(cur.trim());
        cur = '';
      } else cur += ch;
    } else if (depth > 0) cur += ch;
    else outer += ch;
  }
  if (cur.trim()) groups.push(cur.trim());
  return { outer: outer.replace(/\s+/gu, ' ').trim(), groups: groups.filter(Boolean) };
}

type TokenClass = 'code' | 'article' | 'honorific' | 'post' | 'prep' | 'head' | 'modifier' | 'stop' | 'common' | 'initial' | 'cand';

function classifyPart(part: string, evidence: LabelEvidence, whole: string): SpeakerLabelClass {
  const lowerPart = part.toLowerCase();
  if (GENERIC_LABELS.has(lowerPart)) return { kind: 'generic' };
  if (HAN.test(part)) return classifyChinese(part.replace(/\s+/gu, ''));
  const tokens = part.split(/[\s_]+/u).filter(Boolean);
  // "VO", "INT", "JD": a lone abbreviation or initials in capitals names nobody the corpus can tell apart.
  if (tokens.length === 1 && /^\p{Lu}{1,3}\.?$/u.test(tokens[0]!) && !isRoleHead(tokens[0]!.replace(/\.$/u, '').toLowerCase())) return { kind: 'generic' };
  // An all-capitals label ("JOHN SMITH", "HOST") says nothing by its case: read it as if title-cased.
  const shouting = tokens.some((t) => t.replace(/[^\p{L}]/gu, '').length > 3) && part === part.toUpperCase();
  const classes = tokens.map((t, i) => tokenClass(t, i, tokens, shouting));
  // A title or post-nominal marks a person already; bare capitalised words are checked against the item's own writing.
  if (evidence.wordCase && !classes.includes('honorific') && !classes.includes('post')) {
    classes.forEach((c, i) => {
      if (c === 'cand' && evidence.wordCase!(tokens[i]!.replace(/[.,]+$/u, '').toLowerCase()) === 'common') classes[i] = 'common';
    });
  }
  // "speaker_3", "Hablante 2", "P1", "Dr. A", "PhD C", "Grad F": a noun (or nothing) before a code.
  const last = classes.length - 1;
  if (classes[last] === 'code') {
    const prefix = classes.slice(0, last);
    if (!prefix.includes('cand')) return { kind: 'generic' };
    if (tokens.length >= 2 && GENERIC_NOUNS.has(tokens.slice(0, last).join(' ').toLowerCase())) return { kind: 'generic' };
    // "Foo A" beside "Foo C" in the same item: a lettered scheme, whatever the noun.
    const stem = tokens.slice(0, last).join(' ');
    const siblings = (evidence.siblings ?? []).filter((s) => s !== whole && s.normalize('NFKC').trim().startsWith(`${stem} `) && CODE.test(s.trim().slice(stem.length).trim()));
    if (siblings.length) return { kind: 'generic' };
  }
  // A head's complement ("Minister of Finance", "Jefe de Proyecto", "Leader of the Opposition") belongs to the role.
  const firstHead = classes.indexOf('head');
  const complement = new Set<number>();
  if (firstHead >= 0) {
    const prep = classes.findIndex((c, i) => i > firstHead && c === 'prep');
    if (prep > 0) for (let i = prep; i < tokens.length; i++) complement.add(i);
  }
  const cands = classes.map((c, i) => (c === 'cand' && !complement.has(i) ? i : -1)).filter((i) => i >= 0);
  if (!cands.length) {
    // "Will", "May", "Young": one capitalised word, a function word elsewhere, is a first name or surname as a label.
    if (tokens.length === 1 && classes[0] === 'stop' && /^\p{Lu}\p{Ll}/u.test(tokens[0]!)) return { kind: 'name', name: tokens[0]! };
    const roleWords = classes.some((c, i) => !complement.has(i) && (c === 'head' || c === 'modifier' || c === 'common' || c === 'stop'));
    return { kind: roleWords ? 'role' : 'generic' };
  }
  // English roles are head-final: capitalised words before the last head, with no title, are modifiers ("Project Manager", "Account Executive").
  const lastHead = classes.lastIndexOf('head');
  if (lastHead >= 0 && cands.every((i) => i < lastHead) && !classes.includes('honorific') && !complement.has(lastHead)) return { kind: 'role' };
  let a = Math.min(...cands);
  while (a > 0 && classes[a - 1] === 'initial') a--;
  const name = tokens.slice(a).filter((_, j) => classes[a + j] !== 'post' && !complement.has(a + j)).join(' ');
  return { kind: 'name', name };
}

function tokenClass(token: string, i: number, tokens: readonly string[], shouting: boolean): TokenClass {
  const bare = token.replace(/[.,]+$/u, '');
  const lower = bare.toLowerCase();
  if (!shouting && CODE.test(token)) return 'code';
  // "speaker07", "Guest2", "Host1": a noun of ids or a role head glued to its number.
  const glued = /^(\p{L}+)[-_#]?(\d{1,4})$/u.exec(token);
  if (glued && (GENERIC_NOUNS.has(glued[1]!.toLowerCase()) || isRoleHead(glued[1]!.toLowerCase()))) return 'code';
  if (shouting && (/^\d+$/u.test(token) || /^\p{Lu}$/u.test(token) || /^\p{L}{1,3}\d{1,4}$/u.test(token))) return 'code';
  if (i === 0 && ARTICLES.has(lower) && tokens.length > 1) return 'article';
  if (HONORIFICS.has(lower) && i < tokens.length - 1) return 'honorific';
  if (POST_NOMINALS.has(lower) && i > 0 && i === tokens.length - 1 && /^\p{Lu}/u.test(bare)) return 'post';
  if (PREPOSITIONS.has(lower) && i > 0) return 'prep';
  if (isRoleHead(lower)) return 'head';
  if (ROLE_MODIFIERS.has(lower)) return 'modifier';
  if (/^\p{Lu}\.$/u.test(token)) return 'initial';
  if (isStopword(lower)) return 'stop';
  if (!/^\p{Lu}/u.test(bare) && !shouting) return 'common';
  if (!/\p{L}/u.test(bare)) return 'stop';
  return 'cand';
}

/** A Chinese label: generic id, role (heads, modifiers the tagger knows as common words), or a name (surname, person tag). */
function classifyChinese(label: string): SpeakerLabelClass {
  // "说话人1", "发言人 2", "嘉宾A", "1号", "甲".
  let rest = label;
  const noun = ZH_GENERIC_NOUNS.find((n) => rest.startsWith(n));
  if (noun) rest = rest.slice(noun.length).replace(/^[\s_-]+/u, '');
  if (ZH_CODE.test(rest) || /^第?[0-9０-９一二三四五六七八九十]+[号號]?(?:发言人|發言人|嘉宾|嘉賓|选手|選手|说话人|說話人)?$/u.test(label)) return { kind: 'generic' };
  if (GENERIC_LABELS.has(label)) return { kind: 'generic' };
  // Strip a role head at the start ("主持人王小明") and at the end ("产品经理", "王老师").
  let r = label;
  let headBefore = false;
  let headAfter = false;
  const pre = ZH_ROLE_HEADS.find((h) => r.startsWith(h) && r.length > h.length && h.length >= 2);
  if (pre) {
    r = r.slice(pre.length);
    headBefore = true;
  }
  const post = ZH_ROLE_HEADS.find((h) => r.endsWith(h));
  if (post) {
    r = r.slice(0, r.length - post.length);
    headAfter = true;
  }
  if (!r) return { kind: 'role' };
  // "学生甲", "网友A", "观众2": a role with a code.
  if (headBefore && ZH_CODE.test(r)) return { kind: 'generic' };
  // "王老师", "李主任", "欧阳总", "老王": a surname with a title is one person.
  if (isSurname(r) || (/^[老小阿]/u.test(r) && isSurname(r.slice(1)))) return { kind: 'name', name: headBefore ? r : label };
  if (!/^\p{Script=Han}+$/u.test(r)) return { kind: headBefore || headAfter ? 'role' : 'name', ...(headBefore || headAfter ? {} : { name: label }) };
  const name = headBefore ? r : label;
  const tagged = tagChinese(r);
  const surnameLed = r.length >= 2 && r.length <= 4 && (CJK_SURNAMES.has(r[0]!) || CJK_COMPOUND_SURNAMES.has(r.slice(0, 2)));
  // Before a head ("项目经理", "王小明经理") the rest is a name only when the tagger does not read it as a common word (项目 is one).
  if (surnameLed && (!headAfter || tagged[0]?.word.length === 1 || CJK_COMPOUND_SURNAMES.has(tagged[0]?.word ?? '') || /^nr/u.test(tagged[0]?.tag ?? ''))) return { kind: 'name', name };
  if (tagged.some((t) => /^nr/u.test(t.tag) || (t.tag === 'x' && HAN.test(t.word)))) return { kind: 'name', name };
  return { kind: 'role' };
}

function isSurname(s: string): boolean {
  return (s.length === 1 && CJK_SURNAMES.has(s)) || (s.length === 2 && CJK_COMPOUND_SURNAMES.has(s));
}

/** Generic nouns of the three languages written before a number in a question ("speaker 3", "说话人3", "hablante 3", "发言人 2"). */
const GENERIC_MENTION = new RegExp(
  `(?<![\\p{L}])(?:${[...GENERIC_NOUNS].filter((n) => n.length >= 4).join('|')})[\\s_#-]*(\\d{1,3})(?!\\d)|(?:${ZH_GENERIC_NOUNS.filter((n) => n.length >= 2).join('|')})\\s*[_-]?\\s*([0-9０-９]{1,3})`,
  'giu',
);

/** The number of a generic label ("speaker_3" → 3, "SPEAKER 03" → 3, "说话人1" → 1, "S2" → 2); undefined for other labels. */
export function genericNumber(label: string): number | undefined {
  if (classifySpeakerLabel(label).kind !== 'generic') return undefined;
  const m = /([0-9０-９]{1,4})\s*[号號]?$/u.exec(label.normalize('NFKC').trim());
  return m ? Number(m[1]) : undefined;
}

/** Generic speaker ids a question writes ("what did speaker 3 say", "说话人3的观点"), with their number and where. */
export function genericMentions(text: string): { n: number; range: [number, number] }[] {
  const out: { n: number; range: [number, number] }[] = [];
  for (const m of text.normalize('NFKC').matchAll(GENERIC_MENTION)) out.push({ n: Number(m[1] ?? m[2]), range: [m.index!, m.index! + m[0].length] });
  return out;
}

/**
 * How a text writes each word, for {@link LabelEvidence.wordCase}: a word
 * written in lower case at least twice and more often than capitalised
 * mid-sentence is common; one capitalised mid-sentence at least as often is
 * proper. Text without sentence punctuation or capitals (auto-captions) tells
 * nothing: every word is unknown.
 */
export function wordCaseOf(texts: Iterable<string>, maxChars = 150_000): (lowerWord: string) => 'common' | 'proper' | undefined {
  const lower = new Map<string, number>();
  const upper = new Map<string, number>();
  let chars = 0;
  let words = 0;
  let ends = 0;
  let caps = 0;
  for (const text of texts) {
    if (chars >= maxChars) break;
    const t = text.slice(0, maxChars - chars);
    chars += t.length;
    ends += (t.match(/[.!?](?:\s|$)/gu) ?? []).length;
    for (const m of t.matchAll(/\p{L}[\p{L}\p{M}'’-]*/gu)) {
      words++;
      const w = m[0];
      const lw = w.toLowerCase();
      if (w[0] === w[0]!.toLowerCase()) {
        lower.set(lw, (lower.get(lw) ?? 0) + 1);
        continue;
      }
      caps++;
      const before = t.slice(Math.max(0, m.index! - 3), m.index!);
      if (m.index! > 0 && !/[.!?¿¡"“:]\s*$/u.test(before)) upper.set(lw, (upper.get(lw) ?? 0) + 1);
    }
  }
  const reliable = words > 0 && ends / words >= 0.02 && caps / words >= 0.005;
  if (!reliable) return () => undefined;
  return (w) => {
    const l = lower.get(w) ?? 0;
    const u = upper.get(w) ?? 0;
    if (l >= 2 && l > u) return 'common';
    if (u >= 1 && u >= l) return 'proper';
    return undefined;
  };
}
