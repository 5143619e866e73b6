/**
 * The marker overview (seed 000, step 1.1): what every phase of research sees first, instead of
 * truncated text. Per item: source, title, word and comment counts, transcript facts / opinions /
 * data / topics, comment facts / opinions / engagement / sentiment / themes — each marker with its
 * id so the model can cite or request it. Items and markers are ranked by relevance to a goal;
 * the overview keeps the `maxItems` most relevant items and says which it left out.
 */
import type { CorpusItem } from '../corpus/types';
import { detectLanguage } from '../llm/langDetect';
import { estimateTokens } from '../llm/tokens';
import type { ItemMarkers, Marker, MarkerKind } from '../markers/schema';
import { spamFreeComments } from '../markers/spamFree';
import { allMarkers } from '../markers/store';
import { tokenize } from '../search/tokenize';
import type { Logger } from '../util/log';

/** An item and its markers (undefined: no markers yet — the overview falls back to an abstract). */
export interface OverviewInput {
  item: CorpusItem;
  markers: ItemMarkers | undefined;
}

/** Options of {@link formatMarkerOverview}. */
export interface OverviewOptions {
  /** Rank items and markers against this text (a goal or a step); without it, by marker count. */
  goal?: string;
  /** At most this many items (the most relevant); the rest are listed as left out. Default 20. */
  maxItems?: number;
  /** Markers shown per kind and item (the most relevant first); the rest are counted. Default 3. */
  markersPerKind?: number;
  /** Labels' language; default: detected from the items. */
  lang?: 'en' | 'zh';
  /** Warnings (an item without markers) go here. */
  log?: Logger;
  /** Show fewer markers per kind (down to one) until the overview fits this many tokens. */
  maxTokens?: number;
  /** This overview is page `k` of `n` of a scope of `total` items shown in pages (each item in one page). */
  page?: { k: number; n: number; total: number };
}

/** The rendered overview and what went into it. */
export interface MarkerOverview {
  text: string;
  /** Items shown, most relevant first. */
  itemIds: string[];
  /** Items left out by the cap. */
  omitted: string[];
  /** Items shown with the fallback abstract. */
  fallback: string[];
  /** Relevance of every item (0 when nothing matched). */
  itemScores: Map<string, number>;
  /** Relevance of every marker by id. */
  markerScores: Map<string, number>;
  tokens: number;
  lang: 'en' | 'zh';
}

const LABELS = {
  en: {
    heading: '**Marker overview of the available content items**',
    count: (n: number, shown: number) => (n === shown ? `${n} content items:` : `${n} content items; showing the ${shown} most relevant:`),
    page: (k: number, n: number, total: number) => `Page ${k} of ${n} of the overview: the scope has ${total} items, shown in ${n} pages; each item is on exactly one page. Work with the items of this page only.`,
    omitted: (ids: string[]) => `Left out as less relevant (${ids.length}): ${ids.join(', ')}`,
    item: (k: number, id: string) => `**Item ${k}: ${id}**`,
    source: 'Source',
    title: 'Title',
    published: 'Published',
    words: 'Words',
    comments: 'Comments',
    transcript: (n: number) => `**Transcript markers** (${n}):`,
    noTranscript: '**Transcript**: none',
    facts: 'Key facts',
    opinions: 'Key opinions',
    data: 'Key data points',
    topics: 'Topics',
    commentsHead: (n: number) => `**Comment markers** (${n} comments):`,
    noComments: '**Comments**: none',
    engagement: 'High-engagement markers',
    sentiment: 'Overall sentiment',
    themes: 'Major themes',
    more: (n: number) => `  … ${n} more (request them with selective_markers)`,
    likes: 'likes',
    abstract: 'No markers yet; abstract (first words)',
  },
  zh: {
    heading: '**可用的内容项标记概览**',
    count: (n: number, shown: number) => (n === shown ? `共 ${n} 个内容项：` : `共 ${n} 个内容项；显示最相关的 ${shown} 个：`),
    page: (k: number, n: number, total: number) => `概览第 ${k}/${n} 页：范围内共 ${total} 个内容项，分 ${n} 页展示，每个内容项只出现在一页中。请只处理本页的内容项。`,
    omitted: (ids: string[]) => `因相关度较低未列出（${ids.length} 个）：${ids.join(', ')}`,
    item: (k: number, id: string) => `**内容项 ${k}: ${id}**`,
    source: '来源',
    title: '标题',
    published: '发布时间',
    words: '字数',
    comments: '评论数',
    transcript: (n: number) => `**转录摘要标记** (${n} 个):`,
    noTranscript: '**转录**: 无',
    facts: '关键事实',
    opinions: '关键观点',
    data: '关键数据点',
    topics: '话题领域',
    commentsHead: (n: number) => `**评论摘要标记** (${n} 条评论):`,
    noComments: '**评论**: 无',
    engagement: '高参与度评论标记',
    sentiment: '总体情感',
    themes: '主要讨论主题',
    more: (n: number) => `  … 另有 ${n} 个（可用 selective_markers 请求）`,
    likes: '点赞',
    abstract: '暂无标记；摘要（开头部分）',
  },
} as const;

/** Inverse document frequencies of tokens over the markers of `inputs` (each marker is a document). */
function markerIdf(inputs: readonly OverviewInput[]): { idf: (t: string) => number; avgLen: number } {
  const df = new Map<string, number>();
  let n = 0;
  let len = 0;
  for (const { markers } of inputs) {
    if (!markers) continue;
    for (const m of allMarkers(markers)) {
      const toks = new Set(tokenize(`${m.text} ${m.topic}`));
      n++;
      len += toks.size;
      for (const t of toks) df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  return { idf: (t) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5)), avgLen: n ? len / n : 1 };
}

/**
 * BM25-style relevance of one marker to the goal's tokens (0 when nothing overlaps).
 *
 * @example
 * scoreMarker(marker, new Set(tokenize('winter range loss')), () => 1, 8);
 */
export function scoreMarker(marker: Pick<Marker, 'text' | 'topic'>, goalTokens: ReadonlySet<string>, idf: (t: string) => number, avgLen: number): number {
  if (!goalTokens.size) return 0;
  const toks = tokenize(`${marker.text} ${marker.topic}`);
  const tf = new Map<string, number>();
  for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
  let s = 0;
  const k1 = 1.2;
  const b = 0.75;
  for (const t of goalTokens) {
    const f = tf.get(t);
    if (!f) continue;
    s += (idf(t) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * toks.length) / Math.max(1, avgLen)));
  }
  return s;
}

/**
 * Relevance of every item and marker of `inputs` to `goal`: a marker's BM25 score; an item's is
 * the sum of its three best markers plus title overlap. Without a goal every score is 0.
 */
export function scoreRelevance(inputs: readonly OverviewInput[], goal: string | undefined): { items: Map<string, number>; markers: Map<string, number> } {
  const goalTokens = new Set(goal ? tokenize(goal) : []);
  const { idf, avgLen } = markerIdf(inputs);
  const items = new Map<string, number>();
  const markers = new Map<string, number>();
  for (const { item, markers: im } of inputs) {
    const scores = (im ? allMarkers(im) : []).map((m) => {
      const s = scoreMarker(m, goalTokens, idf, avgLen);
      markers.set(m.id, s);
      return s;
    });
    scores.sort((a, b) => b - a);
    const titleToks = new Set(tokenize(item.title));
    let title = 0;
    for (const t of goalTokens) if (titleToks.has(t)) title += idf(t);
    items.set(item.id, scores.slice(0, 3).reduce((a, s) => a + s, 0) + 0.5 * title);
  }
  return { items, markers };
}

/** The first ~`words` words of an item (transcript, else its comments without spam, `spamFree.ts`): the fallback abstract. */
export function shortAbstract(item: CorpusItem, words = 60): string {
  const text = (item.transcript?.text ?? spamFreeComments(item)?.text ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return '';
  const out: string[] = [];
  let count = 0;
  // A run of letters/digits is a word; two CJK characters count as one.
  const re = /[\p{Script=Han}]|[^\s\p{Script=Han}]+\s*/gu;
  for (const m of text.matchAll(re)) {
    out.push(m[0]);
    count += /\p{Script=Han}/u.test(m[0]) ? 0.5 : 1;
    if (count >= words) break;
  }
  const s = out.join('').trim();
  return s.length < text.length ? `${s} …` : s;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Longest marker text an overview line shows, in tokens; longer ones end in "…" (the id fetches the whole marker and its evidence). */
export const OVERVIEW_MARKER_TOKENS = 30;

/** The text cut to about `maxTokens` tokens at a character boundary, with a visible "…" when cut. */
export function abbreviate(text: string, maxTokens = OVERVIEW_MARKER_TOKENS): string {
  if (estimateTokens(text) <= maxTokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (estimateTokens(text.slice(0, mid)) <= maxTokens) lo = mid; else hi = mid - 1;
  }
  let cut = text.slice(0, lo);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  if (space > cut.length * 0.6) cut = cut.slice(0, space);
  return `${cut.trimEnd()} …`;
}

/** `• [id] FACT: text` (long texts abbreviated, visibly). */
export function formatMarkerLine(m: Marker, lang: 'en' | 'zh' = 'en'): string {
  const likes = m.kind === 'ENGAGEMENT' && m.likes !== undefined ? ` (${m.likes} ${LABELS[lang].likes})` : '';
  return `  • [${m.id}] ${m.kind}: ${abbreviate(oneLine(m.text))}${likes}`;
}

function group(lines: string[], label: string, list: readonly Marker[], rank: (m: Marker) => number, perKind: number, lang: 'en' | 'zh'): void {
  if (!list.length) return;
  lines.push(`- ${label} (${list.length}):`);
  const sorted = [...list].sort((a, b) => rank(b) - rank(a) || b.confidence - a.confidence);
  for (const m of sorted.slice(0, perKind)) lines.push(formatMarkerLine(m, lang));
  if (sorted.length > perKind) lines.push(LABELS[lang].more(sorted.length - perKind));
}

/** Guesses the language of a set of items from titles and marker texts. */
export function overviewLanguage(inputs: readonly OverviewInput[]): 'en' | 'zh' {
  // One vote per item (Chinese characters are dense: pooled text would let two Chinese items outvote three English ones).
  let zh = 0;
  const sampled = inputs.slice(0, 30);
  for (const { item, markers } of sampled) {
    const text = `${item.title} ${markers ? allMarkers(markers).slice(0, 3).map((m) => m.text).join(' ') : (item.transcript?.text ?? item.comments?.text ?? '').slice(0, 400)}`;
    if (detectLanguage(text) === 'zh') zh++;
  }
  return zh * 2 > sampled.length ? 'zh' : 'en';
}

/**
 * Renders the marker overview of `inputs` in the seed's layout.
 *
 * @example
 * const ov = formatMarkerOverview(items.map((item) => ({ item, markers: byId.get(item.id) })), { goal: 'winter range', maxItems: 20 });
 * ov.text;     // "**Marker overview …**\n\n5 content items:\n\n---\n**Item 1: ev-winter-range** …"
 * ov.omitted;  // items beyond the cap
 */
export function formatMarkerOverview(inputs: readonly OverviewInput[], opts: OverviewOptions = {}): MarkerOverview {
  const lang = opts.lang ?? overviewLanguage(inputs);
  const L = LABELS[lang];
  const maxItems = Math.max(1, opts.maxItems ?? 20);
  const perKind = Math.max(1, opts.markersPerKind ?? 3);
  const { items: itemScores, markers: markerScores } = scoreRelevance(inputs, opts.goal);
  const count = (x: OverviewInput): number => (x.markers ? allMarkers(x.markers).length : 0);
  const ranked = [...inputs].sort((a, b) => (itemScores.get(b.item.id) ?? 0) - (itemScores.get(a.item.id) ?? 0) || count(b) - count(a) || (a.item.id < b.item.id ? -1 : 1));
  const shown = ranked.slice(0, maxItems);
  const omitted = ranked.slice(maxItems).map((x) => x.item.id);
  const rank = (m: Marker): number => markerScores.get(m.id) ?? 0;
  const lines: string[] = [L.heading, '', ...(opts.page ? [L.page(opts.page.k, opts.page.n, opts.page.total), ''] : []), L.count(inputs.length, shown.length)];
  if (omitted.length) lines.push(L.omitted(omitted));
  const fallback: string[] = [];
  shown.forEach(({ item, markers }, i) => {
    lines.push('', '---', L.item(i + 1, item.id));
    const head = [`${L.source}: ${oneLine(String(item.meta.source ?? '-'))}`, `${L.title}: ${oneLine(item.title)}`];
    if (typeof item.meta.published_at === 'string') head.push(`${L.published}: ${item.meta.published_at}`);
    lines.push(head.join(' | '));
    lines.push(`${L.words}: ${item.wordCount} | ${L.comments}: ${item.comments?.comments.length ?? 0}`);
    if (!markers) {
      fallback.push(item.id);
      opts.log?.warn(`research: ${item.id} has no markers; the overview shows a short abstract instead`);
      lines.push(`${L.abstract}: ${shortAbstract(item)}`);
      return;
    }
    // A short item gets fewer markers per kind: one per full 3,000 words, at least one, at most `perKind`.
    const itemPerKind = Math.min(perKind, Math.max(1, Math.floor(item.wordCount / 3000)));
    const t = markers.transcript_summary;
    if (t) {
      lines.push('', L.transcript(t.total_markers));
      group(lines, L.facts, t.key_facts, rank, itemPerKind, lang);
      group(lines, L.opinions, t.key_opinions, rank, itemPerKind, lang);
      group(lines, L.data, t.key_datapoints, rank, itemPerKind, lang);
      if (t.topic_areas.length) lines.push(`- ${L.topics}: ${t.topic_areas.join(', ')}`);
    } else if (item.transcript) lines.push('', L.noTranscript);
    const c = markers.comments_summary;
    if (c) {
      lines.push('', L.commentsHead(c.total_comments));
      group(lines, L.facts, c.key_facts_from_comments, rank, itemPerKind, lang);
      group(lines, L.opinions, c.key_opinions_from_comments, rank, itemPerKind, lang);
      group(lines, L.data, c.key_datapoints_from_comments, rank, itemPerKind, lang);
      group(lines, L.engagement, c.top_engagement_markers, rank, itemPerKind, lang);
      lines.push(`- ${L.sentiment}: ${c.sentiment_overview}`);
      if (c.major_themes.length) lines.push(`- ${L.themes}: ${c.major_themes.join(', ')}`);
    } else if (item.comments) lines.push('', L.noComments);
  });
  const text = lines.join('\n');
  if (opts.maxTokens !== undefined && perKind > 1 && estimateTokens(text) > opts.maxTokens) return formatMarkerOverview(inputs, { ...opts, markersPerKind: perKind - 1, log: undefined });
  return { text, itemIds: shown.map((x) => x.item.id), omitted, fallback, itemScores, markerScores, tokens: estimateTokens(text), lang };
}

/** Kinds a `selective_markers` request names, mapped to marker kinds (accepts seed names like `key_facts`). */
export function markerKindOf(name: string): MarkerKind | undefined {
  const n = name.toUpperCase();
  if (n === 'FACT' || n === 'KEY_FACTS' || n === 'FACTS') return 'FACT';
  if (n === 'OPINION' || n === 'KEY_OPINIONS' || n === 'OPINIONS') return 'OPINION';
  if (n === 'DATA' || n === 'KEY_DATAPOINTS' || n === 'DATAPOINTS') return 'DATA';
  if (n === 'ENGAGEMENT' || n === 'TOP_ENGAGEMENT_MARKERS') return 'ENGAGEMENT';
  return undefined;
}
