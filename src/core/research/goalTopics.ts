/**
 * What offline research goals are made of: the topics that are distinctive for some items of the
 * corpus (frequent in their markers, rare in the others' — never a stopword such as "creo",
 * "bien", "people" or "然后"), the markers that support them, and goal sentences in the corpus's
 * language (English, Spanish or Chinese) that name the topics and the items they cover.
 */
import type { CorpusItem } from '../corpus/types';
import { detectLanguageEsEnZh } from '../llm/langDetect';
import type { ItemMarkers, Marker } from '../markers/schema';
import { foldWord, isStopwordTopic } from '../text/stopwords';
import type { OverviewInput } from './overview';

/** The languages goals are written in. */
export type GoalLanguage = 'en' | 'es' | 'zh';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Items sampled (one vote each) to decide the language of the goals. */
const LANGUAGE_SAMPLE = 30;

/**
 * The language of the corpus, one vote per item (title and first marker texts, or the start of the
 * transcript): the majority of Chinese, Spanish and English; ties go to English.
 */
export function goalLanguage(inputs: readonly OverviewInput[]): GoalLanguage {
  const votes: Record<GoalLanguage, number> = { en: 0, es: 0, zh: 0 };
  for (const { item, markers } of inputs.slice(0, LANGUAGE_SAMPLE)) {
    const texts = markers ? markerList(markers).slice(0, 8).map((x) => x.marker.text) : [(item.transcript?.text ?? item.comments?.text ?? '').slice(0, 1500)];
    votes[detectLanguageEsEnZh(`${item.title} ${texts.join(' ')}`)]++;
  }
  if (votes.zh > votes.en && votes.zh >= votes.es) return 'zh';
  return votes.es > votes.en ? 'es' : 'en';
}

/** Every marker of an item with the part it comes from. */
function markerList(m: ItemMarkers): { marker: Marker; part: 'transcript' | 'comments' }[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  return [
    ...(t ? [...t.key_facts, ...t.key_opinions, ...t.key_datapoints].map((marker) => ({ marker, part: 'transcript' as const })) : []),
    ...(c ? [...c.key_facts_from_comments, ...c.key_opinions_from_comments, ...c.key_datapoints_from_comments, ...c.top_engagement_markers].map((marker) => ({ marker, part: 'comments' as const })) : []),
  ];
}

/** The key topics are compared by: folded (case, accents, width), spaces collapsed. */
export function topicKey(topic: string): string {
  const t = topic.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return CJK.test(t) ? t.toLowerCase() : foldWord(t);
}

/** Words of a folded text (Latin words; CJK text is matched as a substring). */
function wordsOf(folded: string): string[] {
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A group of distinctive topics, the items they are distinctive for, and the markers that support them. */
export interface TopicCluster {
  /** Topic labels (the most frequent surface form of each), best first; at most three. */
  labels: string[];
  itemIds: string[];
  /** Supporting markers, best first: the ones whose topic is one of the labels, then ones whose text names one. */
  markerIds: string[];
  /** Share of the supporting markers that come from comments (0–1); above 0.6 the goal asks what commenters say. */
  commentShare: number;
  /** Items of the corpus whose markers mention the first topic at all (its document frequency). */
  df: number;
  /** Distinctiveness: support in these items × inverse document frequency over the corpus. */
  score: number;
}

interface Candidate {
  key: string;
  forms: Map<string, number>;
  weight: Map<string, number>;
}

/** Candidates considered for document frequencies (the strongest by raw support). */
const MAX_CANDIDATES = 400;
/** Supporting markers kept per cluster. */
const MAX_MARKERS = 12;

/**
 * The topics distinctive for some items, grouped (topics of the same items make one cluster),
 * best first. Topics come from the markers: an item's `topic_areas` (weight 2), comment themes
 * (1.5) and each marker's `topic` (1). Stopword topics ({@link isStopwordTopic}) are never
 * candidates; a topic every item mentions (three items or more) is not distinctive.
 *
 * Score: √support × ln((n + 1) / df) × (1 + ½ ln |items|) — support in its items, rarity in the
 * corpus (df: items whose marker texts, topics or title name it), and a little for breadth.
 */
export function distinctiveTopics(inputs: readonly OverviewInput[], lang: GoalLanguage, maxClusters = 4): TopicCluster[] {
  const withMarkers = inputs.filter((x): x is OverviewInput & { markers: ItemMarkers } => !!x.markers);
  const n = inputs.length;
  if (!withMarkers.length || maxClusters <= 0) return [];
  const candidates = new Map<string, Candidate>();
  const add = (itemId: string, topic: string, w: number): void => {
    const label = topic.normalize('NFKC').replace(/\s+/g, ' ').trim();
    if (!label || label.length > 60 || isStopwordTopic(label, lang)) return;
    const key = topicKey(label);
    const c = candidates.get(key) ?? { key, forms: new Map(), weight: new Map() };
    c.forms.set(label, (c.forms.get(label) ?? 0) + 1);
    c.weight.set(itemId, (c.weight.get(itemId) ?? 0) + w);
    candidates.set(key, c);
  };
  const texts = new Map<string, { folded: string; words: Set<string> }>();
  const lists = new Map<string, ReturnType<typeof markerList>>();
  for (const { item, markers } of withMarkers) {
    const list = markerList(markers);
    lists.set(item.id, list);
    for (const t of markers.transcript_summary?.topic_areas ?? []) add(item.id, t, 2);
    for (const t of markers.comments_summary?.major_themes ?? []) add(item.id, t, 1.5);
    for (const { marker } of list) add(item.id, marker.topic, 1);
  }
  for (const { item, markers } of inputs) {
    const parts = [item.title, ...(markers ? markerList(markers).flatMap(({ marker }) => [marker.text, marker.topic]) : []), ...(markers?.transcript_summary?.topic_areas ?? []), ...(markers?.comments_summary?.major_themes ?? [])];
    const folded = parts.map(topicKey).join('\n');
    texts.set(item.id, { folded, words: new Set(wordsOf(folded)) });
  }
  const support = (c: Candidate): number => [...c.weight.values()].reduce((a, b) => a + b, 0);
  const strongest = [...candidates.values()].sort((a, b) => support(b) - support(a) || (a.key < b.key ? -1 : 1)).slice(0, MAX_CANDIDATES);
  const scored = strongest
    .map((c) => {
      const cjk = CJK.test(c.key);
      const ws = wordsOf(c.key);
      let df = 0;
      for (const t of texts.values()) if (cjk ? t.folded.includes(c.key) : ws.every((w) => t.words.has(w))) df++;
      df = Math.max(df, c.weight.size);
      const items = c.weight.size;
      const score = Math.sqrt(support(c)) * Math.log((n + 1) / df) * (1 + 0.5 * Math.log(items));
      return { c, df, score, items };
    })
    .filter((x) => !(n >= 3 && x.df >= n) && !(n >= 5 && x.df > 0.8 * n) && x.score > 0)
    .sort((a, b) => b.score - a.score || (a.c.key < b.c.key ? -1 : 1));

  type Draft = { keys: string[]; labels: string[]; items: Set<string>; df: number; score: number };
  const drafts: Draft[] = [];
  const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
    let inter = 0;
    for (const x of a) if (b.has(x)) inter++;
    return inter / (a.size + b.size - inter);
  };
  const overlaps = (a: string, b: string): boolean => {
    if (CJK.test(a) || CJK.test(b)) return a.includes(b) || b.includes(a);
    return wordsOf(a).some((x) => wordsOf(b).some((y) => sameStem(x, y)));
  };
  const label = (c: Candidate): string => [...c.forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  for (const { c, df, score } of scored) {
    const items = new Set(c.weight.keys());
    // A topic that repeats words of a stronger one ("nicolás" after "pequeño nicolás") adds nothing.
    if (drafts.some((d) => d.keys.some((k) => overlaps(k, c.key)))) continue;
    const same = drafts.find((d) => jaccard(d.items, items) >= 0.6);
    if (same) {
      if (same.labels.length < 3) {
        same.keys.push(c.key);
        same.labels.push(label(c));
        for (const id of items) same.items.add(id);
      }
      continue;
    }
    if (drafts.length >= maxClusters) continue;
    drafts.push({ keys: [c.key], labels: [label(c)], items, df, score });
  }

  // A goal is about every item its topics come up in (what its text says it covers), not only the items whose markers are about them.
  const mentions = (key: string, t: { folded: string; words: Set<string> }): boolean => (CJK.test(key) ? t.folded.includes(key) : wordsOf(key).every((w) => t.words.has(w)));
  return drafts.flatMap((d) => {
    const order = inputs.map((x) => x.item.id).filter((id) => d.items.has(id) || d.keys.some((k) => mentions(k, texts.get(id)!)));
    const supporting: { marker: Marker; part: 'transcript' | 'comments'; rank: number }[] = [];
    for (const id of order) {
      for (const x of lists.get(id) ?? []) {
        const k = topicKey(x.marker.topic);
        const text = topicKey(x.marker.text);
        const rank = d.keys.includes(k) ? 0 : d.keys.some((key) => (CJK.test(key) ? text.includes(key) : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(key)}(?![\\p{L}\\p{N}])`, 'u').test(text))) ? 1 : -1;
        if (rank >= 0) supporting.push({ ...x, rank });
      }
    }
    supporting.sort((a, b) => a.rank - b.rank || b.marker.confidence - a.marker.confidence);
    const kept = supporting.slice(0, MAX_MARKERS);
    // A goal stands on markers: topics that only a theme list names (no marker supports them) make none.
    if (!kept.length) return [];
    const fromComments = supporting.filter((x) => x.part === 'comments').length / supporting.length;
    const labels = d.labels.map((l) => displayForm(l, supporting.map((x) => x.marker.text)));
    return [{ labels, itemIds: order, markerIds: kept.map((x) => x.marker.id), commentShare: fromComments, df: order.length, score: d.score }];
  });
}

/** Two words of one stem: one starts with the other ("pelea" / "pelear", "school" / "schools", "canada" / "canadians"). */
function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  let k = 0;
  while (k < short.length && short[k] === long[k]) k++;
  return k >= 4 && k >= short.length - 1;
}

/**
 * The label as the markers write it: topics are lower-cased keyphrases, so "ilia" is shown as
 * "Ilia" and "lmfao" as "LMFAO" when the marker texts mostly write them so.
 */
function displayForm(label: string, texts: readonly string[]): string {
  if (CJK.test(label) || label !== label.toLowerCase()) return label;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(label)}(?![\\p{L}\\p{N}])`, 'giu');
  const forms = new Map<string, number>();
  for (const t of texts) for (const m of t.matchAll(re)) forms.set(m[0], (forms.get(m[0]) ?? 0) + 1);
  const best = [...forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  // A sentence-initial capital is not a name: the form wins only when it is the usual one.
  return best && best[1] >= 2 && best[0].toLowerCase() === label.toLowerCase() ? best[0] : label;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---- wording ----------------------------------------------------------------------------------

/** What the items of a corpus are, for the goal sentences. */
export type ItemNoun = 'meeting' | 'video' | 'item';

/** Meetings when most titles say so, videos when most items have video metadata (a YouTube or bilibili source, a video id), else items. */
export function itemNoun(items: readonly CorpusItem[]): ItemNoun {
  if (!items.length) return 'item';
  const half = items.length / 2;
  if (items.filter((it) => /\bmeeting\b|会议|reuni[oó]n/iu.test(it.title)).length > half) return 'meeting';
  const video = (it: CorpusItem): boolean => typeof it.meta['video_id'] === 'string' || /youtu\.?be|bilibili|vimeo/iu.test(`${it.meta.source ?? ''} ${it.meta.url ?? ''}`);
  return items.filter(video).length > half ? 'video' : 'item';
}

const NOUNS: Record<GoalLanguage, Record<ItemNoun, [string, string]>> = {
  en: { meeting: ['meeting', 'meetings'], video: ['video', 'videos'], item: ['item', 'items'] },
  es: { meeting: ['reunión', 'reuniones'], video: ['vídeo', 'vídeos'], item: ['contenido', 'contenidos'] },
  zh: { meeting: ['场会议', '场会议'], video: ['个视频', '个视频'], item: ['个内容项', '个内容项'] },
};

/** "3 videos", "1 reunión", "3 个视频". */
export function countNoun(lang: GoalLanguage, noun: ItemNoun, n: number): string {
  const [one, many] = NOUNS[lang][noun];
  return lang === 'zh' ? `${n} ${one}` : `${n} ${n === 1 ? one : many}`;
}

const PICTOGRAPHS = /\p{Extended_Pictographic}|\u{FE0F}|\u{200D}|[\u{1F1E6}-\u{1F1FF}]/gu;

/**
 * A title short enough to name an item inside a sentence: emoji and a trailing parenthesis that
 * holds an id dropped; a title longer than `max` is cut to the part before a subtitle separator
 * (":", "|", " - ", "—") when that part says enough, else at a word (keeping a trailing id such
 * as "education_18").
 *
 * @example
 * shortTitle('Cena Millonaria con Pep Gómez: Secretos de un Emprendedor de Éxito | Podcast 🍝') // 'Cena Millonaria con Pep Gómez'
 * shortTitle('Katy Perry - Roar')                          // 'Katy Perry - Roar'
 * shortTitle('VCSum meeting 102 (bilibili av415021211)')   // 'VCSum meeting 102'
 */
export function shortTitle(title: string, max = 44): string {
  let t = title.replace(PICTOGRAPHS, '').replace(/\s+/g, ' ').trim();
  // A trailing parenthesis that holds an id ("… (bilibili av415021211)") says nothing to a reader.
  const bare = t.replace(/\s*[(（][^()（）]*(?=[^\s()（）]*\d)[^\s()（）]{6,}[)）]$/u, '').trim();
  if (bare !== t && [...bare].length >= 8) t = bare;
  if ([...t].length <= max) return t;
  const head = t.split(/\s*[:|｜：—–]\s*|\s+-\s+/u)[0]?.trim() ?? '';
  if ([...t].length > max && [...head].length >= (CJK.test(head) ? 4 : 8)) t = head;
  const chars = [...t];
  if (chars.length <= max) return t;
  if (CJK.test(t)) return `${chars.slice(0, max).join('')}…`;
  // An id at the end ("… meeting education_18") tells items apart: it stays.
  const last = /\s(\S*[\d_]\S*)$/u.exec(t)?.[1];
  const room = last && last.length < max / 2 ? max - last.length - 2 : max;
  const cut = t.slice(0, room);
  const space = cut.lastIndexOf(' ');
  const kept = (space > room / 2 ? cut.slice(0, space) : cut).replace(/[\s,;.:!¡¿?-]+$/u, '');
  return last && room < max ? `${kept}… ${last}` : `${kept}…`;
}

/** "A, B and C" / "A, B y C" / "A、B、C". */
export function listText(lang: GoalLanguage, parts: readonly string[]): string {
  if (lang === 'zh') return parts.join('、');
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} ${lang === 'es' ? 'y' : 'and'} ${parts[parts.length - 1]!}`;
}

/** The items a goal covers, named: one by its title, several by count and (up to three) short titles. */
export function scopeText(lang: GoalLanguage, noun: ItemNoun, titles: readonly string[], maxTitles = 3): string {
  const short = titles.map((t) => shortTitle(t));
  if (short.length === 1) return lang === 'zh' ? `《${short[0]!}》` : lang === 'es' ? `«${short[0]!}»` : `"${short[0]!}"`;
  const shown = sharedPrefix(short.slice(0, maxTitles));
  const more = short.length - Math.min(short.length, maxTitles);
  if (lang === 'zh') return `${countNoun(lang, noun, short.length)}（${shown.join('、')}${more ? ' 等' : ''}）`;
  const list = shown.join('; ') + (more ? (lang === 'es' ? ` y ${more} más` : ` and ${more} more`) : '');
  return `${countNoun(lang, noun, short.length)}: ${list}`;
}

/**
 * Titles that start alike are named once: ["Committee meeting covid_6", "Committee meeting covid_8"]
 * → ["Committee meeting covid_6", "covid_8"] (two words in common at least; a CJK title is left whole).
 */
function sharedPrefix(titles: readonly string[]): string[] {
  if (titles.length < 2 || titles.some((t) => CJK.test(t))) return [...titles];
  const split = titles.map((t) => t.split(' '));
  let k = 0;
  while (split.every((w) => w.length > k + 1 && w[k] === split[0]![k])) k++;
  return k >= 2 ? titles.map((t, i) => (i === 0 ? t : split[i]!.slice(k).join(' '))) : [...titles];
}

/** The overview goal: every item, with the commenters' side only when there are comments. */
export function overviewGoalText(lang: GoalLanguage, noun: ItemNoun, titles: readonly string[], hasComments: boolean): { title: string; rationale: string } {
  const n = titles.length;
  const single = n === 1 ? scopeText(lang, noun, titles) : undefined;
  if (lang === 'zh') {
    const all = single ?? `全部 ${countNoun(lang, noun, n)}`;
    return { title: `${all}的主要事实、观点和数据是什么？${hasComments ? '评论者如何回应？' : ''}`, rationale: `覆盖${all}（抽取式，无模型）。` };
  }
  if (lang === 'es') {
    const art = noun === 'meeting' ? 'las' : 'los';
    const all = single ?? `${art} ${countNoun(lang, noun, n)}`;
    return { title: `¿Cuáles son los principales hechos, opiniones y datos de ${all}${hasComments ? ' y cómo responden los comentaristas' : ''}?`, rationale: `Cubre ${all} (extractivo, sin modelo).` };
  }
  const all = single ?? `all ${countNoun(lang, noun, n)}`;
  return { title: `What are the main facts, opinions and figures in ${all}${hasComments ? ', and how do commenters respond' : ''}?`, rationale: `Covers ${all} (extractive, no model).` };
}

/** A topic goal: what the items say about the topics, or what commenters say when the support is mostly comments. */
export function topicGoalText(lang: GoalLanguage, noun: ItemNoun, cluster: Pick<TopicCluster, 'labels' | 'markerIds' | 'commentShare' | 'df'>, titles: readonly string[], corpusItems: number): { title: string; rationale: string } {
  const scope = scopeText(lang, noun, titles);
  const comments = cluster.commentShare > 0.6;
  const m = cluster.markerIds.length;
  const k = titles.length;
  if (lang === 'zh') {
    const topics = `“${listText(lang, cluster.labels)}”`;
    const rare = cluster.df < corpusItems ? `；该话题只出现在 ${corpusItems} ${NOUNS.zh[noun][0]}中的 ${cluster.df} ${NOUNS.zh[noun][0].slice(0, 1)}` : '';
    return {
      title: comments ? `${scope}的评论者如何讨论${topics}？` : `${scope}中关于${topics}有哪些事实、观点和数据？`,
      rationale: `${countNoun(lang, noun, k)}中有 ${m} 个标记涉及${topics}${rare}（抽取式，无模型）。`,
    };
  }
  const topics = listText(lang, cluster.labels);
  if (lang === 'es') {
    const rare = cluster.df < corpusItems ? `; el tema aparece en ${cluster.df} de ${countNoun(lang, noun, corpusItems)}` : '';
    return {
      title: comments ? `¿Qué opinan los comentaristas sobre ${topics} en ${scope}?` : `¿Qué se dice sobre ${topics} en ${scope}?`,
      rationale: `${m} marcador${m === 1 ? '' : 'es'} en ${countNoun(lang, noun, k)} sobre ${topics}${rare} (extractivo, sin modelo).`,
    };
  }
  const rare = cluster.df < corpusItems ? `; the topic comes up in ${cluster.df} of ${countNoun(lang, noun, corpusItems)}` : '';
  return {
    title: comments ? `What do commenters say about ${topics} in ${scope}?` : `What is said about ${topics} in ${scope}?`,
    rationale: `${m} marker${m === 1 ? '' : 's'} in ${countNoun(lang, noun, k)} on ${topics}${rare} (extractive, no model).`,
  };
}
