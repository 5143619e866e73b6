/**
 * References to a person in a Chinese question (simplified and traditional):
 * 他/她 (not in 其他, 吉他, 他人, 他国…), 他们/她们/他們/她們 and 两人/两位/二人
 * (plural), 其 as a possessive (not in 其他, 其中, 其实, 尤其, 极其, 与其…), and
 * a demonstrative with a person noun (这位/那位/這位/该/該/此 + 嘉宾, 老师,
 * 发言人…; 这位, 此人, 这个人 alone).
 *
 * 他/她 is an earlier question's person even after a name of the question
 * ("张三对他的方案怎么看？"): Chinese says 自己 for the question's own person.
 */
import type { Reference } from './reference';

const PERSON_NOUNS =
  '嘉宾|嘉賓|老师|老師|先生|女士|专家|專家|教授|发言人|發言人|讲者|講者|主讲人|主講人|演讲者|演講者|博主|主播|作者|同学|同學|朋友|选手|選手|歌手|网红|網紅|' +
  '创始人|創始人|负责人|負責人|经理|經理|主持人|受访者|受訪者|候选人|候選人|议员|議員|部长|部長|主任|学者|學者|老板|老闆|人物|大佬|医生|醫生|律师|律師|记者|記者|男士|小伙子|姑娘|up主|UP主';

const PLURAL = /他们|她们|他們|她們|(?:这|這|那)(?:两|兩)位(?:嘉宾|嘉賓|老师|老師|专家|專家)?|(?:两|兩)(?:人|位)|二人/gu;
const SINGULAR = /[他她]/gu;
/** 他 inside words that are no pronoun: 其他, 吉他, 利他, 排他, 他人, 他国, 他乡, 他方. */
const NOT_HE_BEFORE = /[其吉利排無无]$/u;
const NOT_HE_AFTER = /^[们們人国國乡鄉方]/u;
/** 其 inside words: 其他, 其它, 其中, 其实, 其次, 其余, 其后, 其间, 其一; 尤其, 极其, 与其, 何其, 充其量. */
const NOT_QI_BEFORE = /[尤极極与與何充]$/u;
const NOT_QI_AFTER = /^[他它中实實次余餘后後间間一二]/u;
const DEFINITE = new RegExp(`(?:(?:这|這|那|该|該|此)(?:位|个|個|名)?(?:${PERSON_NOUNS}))|(?:这|這|那)位(?![置于於子])|此人|(?:这|這|那)(?:个|個)人|(?:这|這)(?:家伙|傢伙)`, 'gu');

const zhJoin = (names: readonly string[]): string => names.join('和');

/** The references of a Chinese question, in order. */
export function chineseReferences(question: string): Reference[] {
  const out: Reference[] = [];
  const taken = (r: [number, number]): boolean => out.some((x) => x.range[0] < r[1] && r[0] < x.range[1]);
  const named = (range: [number, number]) => (names: readonly string[]) => ({ range, text: zhJoin(names) });
  for (const m of question.matchAll(PLURAL)) {
    const range: [number, number] = [m.index, m.index + m[0].length];
    // 两人 after a number word is a count ("十两人"), after 第 an ordinal: only at a clause's start or after a verb-like character.
    if (/^(?:两|兩|二)/u.test(m[0]) && /[\d零一二三四五六七八九十百第]$/u.test(question.slice(0, m.index))) continue;
    out.push({ range, number: 'plural', role: 'personal', form: 'pronoun', rewrite: named(range) });
  }
  for (const m of question.matchAll(DEFINITE)) {
    const range: [number, number] = [m.index, m.index + m[0].length];
    // 该 in 应该/應該 and 本该 is "should".
    if (/^[该該]/u.test(m[0]) && /[应應本活]$/u.test(question.slice(0, m.index))) continue;
    if (!taken(range)) out.push({ range, number: 'singular', role: 'personal', form: 'definite', rewrite: named(range) });
  }
  for (const m of question.matchAll(SINGULAR)) {
    const range: [number, number] = [m.index, m.index + 1];
    if (taken(range) || NOT_HE_BEFORE.test(question.slice(0, m.index)) || NOT_HE_AFTER.test(question.slice(m.index + 1))) continue;
    out.push({ range, number: 'singular', role: 'personal', form: 'pronoun', rewrite: named(range) });
  }
  for (const m of question.matchAll(/其/gu)) {
    const range: [number, number] = [m.index, m.index + 1];
    if (NOT_QI_BEFORE.test(question.slice(0, m.index)) || NOT_QI_AFTER.test(question.slice(m.index + 1))) continue;
    out.push({ range, number: 'singular', role: 'possessive', form: 'possessive', rewrite: (names) => ({ range, text: `${zhJoin(names)}的` }) });
  }
  return out.sort((a, b) => a.range[0] - b.range[0]);
}
