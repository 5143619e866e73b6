/**
 * A report's step headings, short: the step's facet and its topic, not the whole goal again.
 * An offline plan's step goal is a facet label before the run's goal ("Facts and figures: What
 * did the team think about distributing the corpus?"); its heading is the label and the goal's
 * topic ("Facts and figures: distributing the corpus"), about eight words at most. The topic is
 * the stretch of the question from its first to its last content word, or its content words alone
 * when that stretch is long.
 */
import { countWords } from '../text/words';
import { questionTerms, surfaceWords } from './stepQuestion';
import { tokenize } from '../search/tokenize';

/** Words a heading aims at (the label included); a part suffix "(part 2 of 3: 20 items)" may add to it. */
export const HEADING_WORDS = 8;
/** Words of a topic stretch at most before it is cut to its content words. */
const TOPIC_WORDS = 6;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The topic of a question in its own words: from its first to its last content word
 * ("distributing the corpus"), or, when that runs past six words, its content words alone; empty
 * when it names no topic ("What are the main facts?").
 *
 * @example
 * topicPhrase('What did the team think about distributing the corpus?')  // 'distributing the corpus'
 * topicPhrase('区块链的有关概念')                                          // '区块链的有关概念'
 */
export function topicPhrase(question: string): string {
  const roles = questionTerms(question);
  if (!roles.size) return '';
  if (CJK.test(question)) {
    // Chinese: the characters the terms (character bigrams) are written with, from the first to the last ("仓库屋顶的太阳能板");
    // when that is long, the longest runs of them ("产品外观设计、市场调研结果"), runs of three characters or more first.
    const covered = new Array<boolean>(question.length).fill(false);
    for (const t of roles.keys()) {
      if (!CJK.test(t)) continue;
      for (let at = question.indexOf(t); at >= 0; at = question.indexOf(t, at + 1)) for (let i = at; i < at + t.length; i++) covered[i] = true;
    }
    // "遥控器的价格": a 的 between two of them joins them.
    for (let i = 1; i + 1 < question.length; i++) if (question[i] === '的' && covered[i - 1] && covered[i + 1]) covered[i] = true;
    const runs: { at: number; text: string }[] = [];
    for (let i = 0; i < question.length; i++) {
      if (!covered[i]) continue;
      let j = i;
      while (j < question.length && covered[j]) j++;
      runs.push({ at: i, text: question.slice(i, j) });
      i = j;
    }
    if (runs.length) {
      const stretch = question.slice(runs[0]!.at, runs[runs.length - 1]!.at + runs[runs.length - 1]!.text.length).trim();
      if (countWords(stretch) <= TOPIC_WORDS) return stretch;
      const long = runs.filter((r) => [...r.text].length >= 3);
      const kept: typeof runs = [];
      for (const r of [...(long.length ? long : runs)].sort((x, y) => y.text.length - x.text.length || x.at - y.at)) {
        if (countWords([...kept, r].map((x) => x.text).join('')) <= TOPIC_WORDS) kept.push(r);
      }
      if (kept.length) return kept.sort((x, y) => x.at - y.at).map((x) => x.text).join('、');
    }
  }
  const words = surfaceWords(question);
  const content = words.filter((w) => tokenize(w.word).some((t) => roles.has(t)));
  if (!content.length) return '';
  const first = content[0]!;
  const last = content[content.length - 1]!;
  const stretch = question.slice(first.index, last.index + last.word.length).replace(/\s+/g, ' ').trim();
  if (countWords(stretch) <= TOPIC_WORDS) return stretch;
  const cjk = CJK.test(stretch);
  const kept: string[] = [];
  for (const w of content) if (!kept.includes(w.word) && countWords([...kept, w.word].join(cjk ? '' : ' ')) <= TOPIC_WORDS) kept.push(w.word);
  return kept.join(cjk ? '' : ' ');
}

/** `text` cut to `n` words (whole words; CJK two characters a word), with "…" when cut. */
function clipWords(text: string, n: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (countWords(flat) <= n) return flat;
  let out = '';
  for (const w of surfaceWords(flat)) {
    const next = flat.slice(0, w.index + w.word.length);
    if (countWords(next) > n) break;
    out = next;
  }
  return `${(out || flat.slice(0, 24)).replace(/[\s,.;:，。；：、]+$/u, '')}…`;
}

/** "Label: topic" with the colon of the label's script. */
function join(label: string, topic: string): string {
  const l = label.replace(/[\s:：]+$/u, '');
  if (!topic) return l;
  if (!l) return topic;
  return CJK.test(l) ? `${l}：${topic}` : `${l}: ${topic}`;
}

/**
 * The heading of a step: its facet label and the topic of its question, short.
 *
 * @example
 * stepHeading('Facts and figures: What did the team think about distributing the corpus?', 'What did the team think about distributing the corpus?')
 * // 'Facts and figures: distributing the corpus'
 * stepHeading('Hechos y datos: ¿Qué opinan sobre la pelea? (parte 1 de 2: 20 contenidos)', '¿Qué opinan sobre la pelea?')
 * // 'Hechos y datos: pelea (parte 1 de 2: 20 contenidos)'
 */
export function stepHeading(stepGoal: string, runGoal: string | undefined): string {
  const goal = stepGoal.replace(/\s+/g, ' ').trim();
  const run = runGoal?.replace(/\s+/g, ' ').trim();
  const at = run && run !== goal ? goal.indexOf(run) : -1;
  // The offline plan's "Label: <run goal>[ (part k of n…)]" (the goal at the start, or after a label ending in a colon).
  if (run && at >= 0 && (at === 0 || /[:：]\s*$/u.test(goal.slice(0, at)))) {
    const label = goal.slice(0, at);
    const suffix = goal.slice(at + run.length).trim();
    const topic = topicPhrase(run);
    const head = join(label, topic || (label.trim() ? '' : clipWords(run, HEADING_WORDS)));
    return suffix ? `${head} ${suffix}` : head;
  }
  if (countWords(goal) <= HEADING_WORDS) return goal;
  // "Label: a long question" → the label and the question's topic; else the topic, else the goal cut short.
  const colon = /^([^:：]{1,40})[:：]\s*(.+)$/u.exec(goal);
  if (colon) {
    const topic = topicPhrase(colon[2]!);
    if (topic) return join(colon[1]!, topic);
  }
  const topic = topicPhrase(goal);
  return topic && countWords(topic) <= HEADING_WORDS ? topic : clipWords(goal, HEADING_WORDS);
}
