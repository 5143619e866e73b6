/**
 * The extractive engine's comments pass: facts, opinions, data, themes,
 * sentiment and engagement of one item's comments. Spam (see ./spam) is
 * detected first and kept out of all of them; the ids of what was excluded
 * are stored in the summary (`spam`).
 */
import type { CommentRecord, CorpusItem } from '../corpus/types';
import { dedupeMarkers, evidenceFor, makeMarker } from './build';
import { NOT_A_PHRASE_END, NOT_A_THEME } from './commentLexicons';
import { fullCoverage, hasNumber, isOpinion, isQuestion, markersPerKind, pick, scoreSentences, toMarkers, weightsOf } from './extractiveShared';
import { topicCandidates, topicLanguage, topTopics, type TopicLang, type TopicStats } from './keyphrases';
import type { CommentsSummary, Coverage } from './schema';
import { polarity, sentimentOf } from './sentiment';
import { partSentences, type Sentence } from './sentences';
import { stripLinks, SUSPECT_THRESHOLD, type SpamDecision } from './spam';
import { itemSpam } from './spamFree';
import { contentLang, isContentFree } from '../text/contentFree';
import { countWork } from './workMeter';

export { polarity, sentimentOf } from './sentiment';

export interface CommentsPassOptions {
  /**
   * The item's spam as decided over the whole corpus (`corpusSpam(corpus).get(item.id)`, `spamFree.ts`),
   * so templates repeated across items count. Without it: the item's decision as part of its corpus when one was
   * made (`itemSpam`), else its comments judged alone.
   */
  spam?: SpamDecision;
  /** False: spam is detected and reported but not excluded (how the pass behaved before the detector). Default true. */
  excludeSpam?: boolean;
}

// ---- themes --------------------------------------------------------------------------------

/** True when a candidate can label a theme: a noun-like word or phrase, not praise, filler, number, link piece or clause. */
export function isThemeLabel(candidate: string): boolean {
  return themeLabel(candidate, polarity);
}

/** {@link isThemeLabel} with the polarity of a word given (a cache of it, when many candidates are judged). */
function themeLabel(candidate: string, polarityOf: (word: string) => number): boolean {
  const words = candidate.split(' ');
  if (words.some((w) => NOT_A_THEME.has(w) || polarityOf(w) !== 0 || /^\d[\d.,]*$/.test(w) || /^(?:https?|www|com|net|org|html?|php)$/.test(w))) return false;
  if (/\d/.test(candidate) && !/\p{L}{3}/u.test(candidate)) return false;
  const last = words[words.length - 1]!;
  if (words.length > 1 && (NOT_A_PHRASE_END.has(last) || /(?:ly|ing|ed)$/.test(last))) return false;
  // Adverbs, past forms ("viewed"), Spanish infinitives and gerunds ("escuchar", "hablando") are no theme.
  if (words.length === 1 && /(?:ly|[^e]ed|[^\W\d_]{3}(?:ar|ir|ando|iendo))$/u.test(last)) return false;
  return true;
}

const THEME_CHARS = 2_000;

/** One spelling for near-identical labels: accents and doubled letters ("Nicolás" ≈ "nicolas", "katty" ≈ "katy"). */
function labelKey(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/(\p{L})\1+/gu, '$1')
    .split(' ')
    .map((w) => (w.length > 4 ? w.replace(/(?:ing|in|ed|es|s|e)$/, '') : w))
    .join(' ');
}

/**
 * Themes of a set of comments: keyphrases shared by several comments, clustered
 * greedily — the strongest phrase (comments holding it × its rarity in the
 * corpus) founds a theme, phrases that mostly occur in the same comments join it,
 * and the next theme is sought among the comments not yet covered. Each theme is
 * labelled by its best phrase (a two-word phrase when it covers half the theme).
 * Candidates are judged in `lang` (default: read from the first comments): never a stopword of
 * it, and never one common to nearly every item of the corpus ({@link TopicStats.common}).
 */
export function commentThemes(texts: readonly string[], stats: TopicStats, k = 6, lang: TopicLang = topicLanguage(texts.slice(0, 200).join('\n'))): string[] {
  // A comment's themes show in its first 2,000 characters; the cap bounds the work on a hostile one.
  // A candidate's verdict (and a word's polarity) is the same in every comment: judged once.
  const polarities = new Map<string, number>();
  const polarityOf = (w: string): number => {
    let p = polarities.get(w);
    if (p === undefined) polarities.set(w, (p = polarity(w)));
    return p;
  };
  const labels = new Map<string, boolean>();
  const isLabel = (c: string): boolean => {
    let ok = labels.get(c);
    if (ok === undefined) labels.set(c, (ok = themeLabel(c, polarityOf)));
    return ok;
  };
  // Never a candidate common to nearly every item of the corpus: it tells this item's comments from no other's.
  const docs = texts.map((t) => new Set(topicCandidates(stripLinks(t.slice(0, THEME_CHARS)), lang).filter((c) => isLabel(c) && !stats.common(c))));
  const minDf = Math.max(2, Math.ceil(texts.length * 0.01));
  // The comments holding each candidate, in order (appended in place: no list is copied).
  const holders = new Map<string, number[]>();
  docs.forEach((d, i) => {
    countWork('themes', d.size);
    for (const c of d) {
      const list = holders.get(c);
      if (list) list.push(i);
      else holders.set(c, [i]);
    }
  });
  const weight = (c: string, df: number): number => df * stats.idf(c) * (c.includes(' ') ? 1.5 : 1);
  const covered = new Set<number>();
  const used = new Set<string>();
  const themes: string[] = [];
  while (themes.length < k) {
    let best: { c: string; w: number } | undefined;
    for (const [c, hs] of holders) {
      if (used.has(c)) continue;
      countWork('themes', hs.length);
      const df = hs.filter((i) => !covered.has(i)).length;
      if (df < minDf) continue;
      const w = weight(c, df);
      if (!best || w > best.w || (w === best.w && c < best.c)) best = { c, w };
    }
    if (!best) break;
    const members = new Set(holders.get(best.c)!.filter((i) => !covered.has(i)));
    // Phrases living mostly in the same comments belong to this theme.
    const joined = [best.c];
    for (const [c, hs] of holders) {
      if (used.has(c) || c === best.c) continue;
      countWork('themes', hs.length);
      const inside = hs.filter((i) => members.has(i)).length;
      if (hs.length >= minDf && inside / hs.length >= 0.6) joined.push(c);
    }
    for (const c of joined) used.add(c);
    // The label: a phrase of two words covering at least half of the theme's comments, else the founding phrase.
    const phrase = joined
      .filter((c) => c.includes(' ') && (c.includes(best.c) || best.c.includes(' ')))
      .map((c) => ({ c, n: holders.get(c)!.filter((i) => members.has(i)).length }))
      .filter((x) => x.n * 2 >= members.size)
      .sort((a, b) => b.n - a.n || (a.c < b.c ? -1 : 1))[0];
    const label = phrase?.c ?? best.c;
    if (!themes.some((t) => t.includes(label) || label.includes(t) || labelKey(t) === labelKey(label))) themes.push(label);
    for (const i of members) covered.add(i);
  }
  // Too few comments to cluster: the keyphrases they share with nobody else fill in (two at most).
  if (themes.length < 2) {
    for (const { topic } of topTopics(docs.flatMap((d) => [...d]), stats, 6)) {
      if (themes.length >= Math.min(k, 2)) break;
      if (!themes.some((t) => t.includes(topic) || topic.includes(t) || labelKey(t) === labelKey(topic))) themes.push(topic);
    }
  }
  return themes;
}

// ---- the pass ---------------------------------------------------------------------------------

/**
 * Comment markers of one item. Spam never becomes a fact, opinion, data point,
 * theme or engagement marker and is left out of the sentiment; the summary's
 * `spam` lists what was excluded.
 */
export function extractComments(item: CorpusItem, stats: TopicStats, options: CommentsPassOptions = {}): { summary: CommentsSummary; coverage: Coverage } | undefined {
  const cp = item.comments;
  if (!cp) return undefined;
  const spam = options.spam ?? itemSpam(item);
  const isSpam = (c: CommentRecord): boolean => options.excludeSpam !== false && spam.ids.has(c.id);
  const spamIds = cp.comments.filter((c) => spam.ids.has(c.id)).map((c) => c.id);
  const kept = cp.comments.filter((c) => !isSpam(c));
  const live = kept.filter((c) => c.text.trim() !== '');
  const byIndex = new Map(cp.comments.map((c) => [c.index, c]));
  const replies = new Map<string, number>();
  for (const c of cp.comments) if (c.parentId) replies.set(c.parentId, (replies.get(c.parentId) ?? 0) + 1);
  const repliesOf = (c: CommentRecord): number => Math.max(replies.get(c.id) ?? 0, c.replyCount ?? 0);
  // Suspect comments (promotion cues below the spam threshold) are never a marker's evidence either.
  const suspect = (c: CommentRecord): boolean => options.excludeSpam !== false && (spam.scores.get(c.id) ?? 0) >= SUSPECT_THRESHOLD;
  const witnesses = live.filter((c) => !suspect(c));
  const sentences = partSentences(cp).filter((s) => {
    const c = byIndex.get(s.unit);
    return !c || (!isSpam(c) && !suspect(c));
  });
  const keptText = live.map((c) => c.text).join('\n');
  const model = weightsOf(keptText, stats, 6);
  const { topics, weights } = model;
  const themes = commentThemes(live.map((c) => c.text), stats, 6, model.lang);
  const n = markersPerKind(cp.wordCount);
  // A comment with promotion cues below the spam threshold (a link, "subscribe" in passing) is a weaker witness.
  const trust = (c: CommentRecord | undefined): number => (c && options.excludeSpam !== false ? Math.max(0.1, 1 - (spam.scores.get(c.id) ?? 0)) : 1);
  const likesBoost = (s: Sentence): number => {
    const c = byIndex.get(s.unit);
    return (1 + Math.log1p(c?.likes ?? 0) + Math.log1p(c ? repliesOf(c) : 0)) * trust(c);
  };
  const scored = scoreSentences(sentences, model, likesBoost);
  // A content-free sentence ("Jajaja", "Sí, claro.", "Great video!") is never a marker: judged once, only when it would be picked.
  const lang = contentLang(keptText);
  const free = new Map<string, boolean>();
  const contentFree = (text: string): boolean => {
    let f = free.get(text);
    if (f === undefined) free.set(text, (f = isContentFree(text, lang, { strict: true })));
    return f;
  };
  const hasContent = (x: { s: Sentence }): boolean => !contentFree(x.s.text);
  let top = 0;
  for (const x of scored) top = Math.max(top, x.score);
  const used = new Set<number>();
  const fallback = themes[0] ?? topics[0] ?? item.title;
  const opinion = new Map(scored.map((x) => [x, isOpinion(x.s.text)]));
  const data = toMarkers(item, 'comments', 'DATA', pick(scored.filter((x) => hasNumber(x.s.text) && !isQuestion(x.s.text)), n, used, hasContent), top, fallback);
  const opinions = toMarkers(item, 'comments', 'OPINION', pick(scored.filter((x) => opinion.get(x) || polarity(x.s.text) !== 0), n, used, hasContent), top, fallback);
  const facts = toMarkers(item, 'comments', 'FACT', pick(scored.filter((x) => !isQuestion(x.s.text) && !opinion.get(x)), n, used, hasContent), top, fallback);

  const sentencesOf = new Map<number, Sentence[]>();
  for (const s of sentences) {
    const list = sentencesOf.get(s.unit);
    if (list) list.push(s);
    else sentencesOf.set(s.unit, [s]);
  }
  // An engagement marker quotes the comment's first sentence with content; a comment with none (a reply "jajaja") is passed over for the next.
  const quoted = new Map<number, Sentence>();
  const quotable = (c: CommentRecord): boolean => {
    if ((c.likes ?? 0) + repliesOf(c) <= 0 || !/\p{L}{3}|\p{Script=Han}{2}/u.test(c.text)) return false;
    const list = sentencesOf.get(c.index) ?? [{ start: c.offset, end: c.offset + c.text.length, text: c.text, unit: c.index }];
    const first = list.find((s) => !contentFree(s.text));
    if (first) quoted.set(c.index, first);
    return !!first;
  };
  const engagementCount = Math.max(2, Math.min(8, Math.round(witnesses.length / 20)));
  const engagementPicks: CommentRecord[] = [];
  for (const c of [...witnesses].sort((a, b) => (b.likes ?? 0) + 2 * repliesOf(b) - ((a.likes ?? 0) + 2 * repliesOf(a)) || a.index - b.index)) {
    if (engagementPicks.length >= engagementCount) break;
    if (quotable(c)) engagementPicks.push(c);
  }
  const engagement = engagementPicks
    .map((c) => {
      const first = quoted.get(c.index)!;
      const ev = evidenceFor(item, 'comments', first.start, first.end, 'extractive');
      const topic = topicCandidates(stripLinks(c.text.slice(0, THEME_CHARS)), model.lang).find((t) => weights.has(t) && model.isTopic(t) && isThemeLabel(t)) ?? fallback;
      return makeMarker(item.id, 'ENGAGEMENT', first.text, topic, 0.6, ev ? [ev] : [], { likes: c.likes ?? 0, replies: repliesOf(c) });
    });

  const summary: CommentsSummary = {
    key_facts_from_comments: dedupeMarkers(facts),
    key_opinions_from_comments: dedupeMarkers(opinions),
    key_datapoints_from_comments: dedupeMarkers(data),
    major_themes: themes,
    sentiment_overview: sentimentOf(live),
    top_engagement_markers: dedupeMarkers(engagement),
    total_comments: cp.comments.length,
    total_markers: 0,
    spam: { count: spamIds.length, comment_ids: spamIds },
  };
  summary.total_markers = summary.key_facts_from_comments.length + summary.key_opinions_from_comments.length + summary.key_datapoints_from_comments.length + summary.top_engagement_markers.length;
  return { summary, coverage: fullCoverage(cp.wordCount) };
}
