/**
 * Generated inputs for the workbench tests: a small corpus of items in English, Chinese and
 * Spanish (timed transcripts with speakers, comment threads) composed by a seeded generator from
 * sentence parts, rebuilt after edits of its text (so re-anchoring sees an item as it would after
 * re-indexing); random spans of it; markers over it with topics; entries of every kind pinned from
 * them; and random researcher edits of a notebook's text.
 */
import type { CorpusItem, PartKind } from '../../src/core/corpus/types';
import type { ItemMarkers, Marker, MarkerKind } from '../../src/core/markers/schema';
import { partText } from '../../src/core/workbench/pins';
import { answerSentenceEntry, chatAnswerEntry, findingEntry, hitEntry, markerEntry, noteEntry, pinSpan, selectionEntry, type NewEntry } from '../../src/core/workbench/pins';
import type { PinnedSpan } from '../../src/core/workbench/schema';
import { commentsPart, itemOf, transcriptPart, type Turn } from './parts';
import { rng } from './testing';

export type WorkbenchLang = 'en' | 'zh' | 'es';
export const WORKBENCH_LANGS: readonly WorkbenchLang[] = ['en', 'zh', 'es'];

const SUBJECTS: Record<WorkbenchLang, readonly string[]> = {
  en: ['The bike lane', 'Our battery', 'The new policy', 'The city council', 'Remote work', 'The river park'],
  zh: ['自行车道', '我们的电池', '新政策', '市议会', '远程办公', '河边公园'],
  es: ['El carril bici', 'Nuestra batería', 'La nueva política', 'El ayuntamiento', 'El teletrabajo', 'El parque del río'],
};
const PREDICATES: Record<WorkbenchLang, readonly string[]> = {
  en: ['cut injuries by', 'saves', 'costs', 'needs', 'adds', 'replaces'],
  zh: ['减少了', '节省了', '花费了', '需要', '增加了', '替代了'],
  es: ['redujo las lesiones en', 'ahorra', 'cuesta', 'necesita', 'añade', 'sustituye'],
};
const UNITS: Record<WorkbenchLang, readonly string[]> = {
  en: ['percent', 'dollars a month', 'hours a week', 'cars a day'],
  zh: ['个百分点', '元每月', '小时每周', '辆车每天'],
  es: ['por ciento', 'euros al mes', 'horas a la semana', 'coches al día'],
};
const OPINIONS: Record<WorkbenchLang, readonly string[]> = {
  en: ['I think it is a mistake.', 'Honestly, I love how simple it is.', 'In my opinion the design is too expensive.'],
  zh: ['我觉得这是个错误。', '说实话，我很喜欢它的简单。', '在我看来，这个设计太贵了。'],
  es: ['Creo que es un error.', 'Sinceramente, me encanta lo sencillo que es.', 'En mi opinión el diseño es demasiado caro.'],
};
const SPEAKERS: Record<WorkbenchLang, readonly string[]> = {
  en: ['Daniel', 'Laura', 'Kevin'],
  zh: ['张三', '李四', '王五'],
  es: ['Marta', 'Pedro', 'Lucía'],
};
/** Topics of the generated markers (per language, so suggestions count across items). */
export const MARKER_TOPICS: Record<WorkbenchLang, readonly string[]> = {
  en: ['bike lanes', 'battery range', 'budget', 'safety'],
  zh: ['自行车道', '电池续航', '预算', '安全'],
  es: ['carriles bici', 'autonomía', 'presupuesto', 'seguridad'],
};

export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function sentence(r: () => number, lang: WorkbenchLang, n: number): string {
  if (r() < 0.3) return pick(r, OPINIONS[lang]);
  const s = `${pick(r, SUBJECTS[lang])}${lang === 'zh' ? '' : ' '}${pick(r, PREDICATES[lang])}${lang === 'zh' ? '' : ' '}${n}${lang === 'zh' ? '' : ' '}${pick(r, UNITS[lang])}`;
  return lang === 'zh' ? `${s}。` : `${s}.`;
}

/** What an item is made of; edit it and {@link buildItem} again to re-index. */
export interface ItemSpec {
  id: string;
  title: string;
  lang: WorkbenchLang;
  turns: { text: string; speaker: string; start: number; end: number }[];
  comments: string[];
}

export function buildItem(spec: ItemSpec): CorpusItem {
  const parts: Parameters<typeof itemOf>[1] = {};
  if (spec.turns.length) parts.transcript = transcriptPart(spec.turns as Turn[], `${spec.id}/transcript.json`);
  if (spec.comments.length) parts.comments = commentsPart(spec.comments, `${spec.id}/comments.jsonl`);
  const item = itemOf(spec.id, parts);
  item.title = spec.title;
  return item;
}

/** `perLang` items per language, each with 4–9 turns and 2–6 comments; numbers in sentences are unique per item. */
export function workbenchSpecs(seed: number, perLang = 2): ItemSpec[] {
  const r = rng(seed);
  const out: ItemSpec[] = [];
  for (const lang of WORKBENCH_LANGS) {
    for (let k = 0; k < perLang; k++) {
      let n = 10 + k * 1000;
      const turns = Array.from({ length: 4 + Math.floor(r() * 6) }, (_, i) => ({
        speaker: pick(r, SPEAKERS[lang]),
        text: Array.from({ length: 1 + Math.floor(r() * 3) }, () => sentence(r, lang, n++)).join(lang === 'zh' ? '' : ' '),
        start: i * 9,
        end: i * 9 + 8,
      }));
      const comments = Array.from({ length: 2 + Math.floor(r() * 5) }, () => sentence(r, lang, n++));
      const title = { en: `City talk ${k + 1}`, zh: `城市对话 ${k + 1}`, es: `Charla urbana ${k + 1}` }[lang];
      out.push({ id: `${lang}-item-${k + 1}`, title, lang, turns, comments });
    }
  }
  return out;
}

export function buildItems(specs: readonly ItemSpec[]): CorpusItem[] {
  return specs.map(buildItem);
}

/** A random span of whole characters inside one turn or comment of an item (ends on non-space), pinned. */
export function randomSpan(r: () => number, item: CorpusItem, part?: PartKind): PinnedSpan {
  for (;;) {
    const p: PartKind = part ?? (r() < 0.7 ? 'transcript' : 'comments');
    const units = p === 'transcript' ? item.transcript?.segments : item.comments?.comments;
    if (!units?.length) continue;
    const u = pick(r, units);
    const a = Math.floor(r() * Math.max(1, u.text.length - 6));
    const len = 4 + Math.floor(r() * Math.min(40, u.text.length - a));
    const span = pinSpan(item, p, u.offset + a, u.offset + Math.min(u.text.length, a + len));
    if (span && span.quote.length >= 4) return span;
  }
}

/** A marker of `kind` and `topic` whose evidence is `spans`. */
export function markerOf(itemId: string, n: number, kind: MarkerKind, topic: string, spans: readonly PinnedSpan[]): Marker {
  return {
    id: `${itemId}:${kind[0]}:${n}`,
    kind,
    text: spans[0]?.quote ?? topic,
    topic,
    confidence: 0.8,
    evidence: spans.map((s) => ({ quote: s.quote, part: s.part, start: s.start, end: s.end, source: s.source, match: 'extractive' as const })),
    grounded: spans.length > 0,
  };
}

/** A marker file of an item with `markers` (all under the transcript summary's lists, by kind). */
export function markerFileOf(item: CorpusItem, markers: readonly Marker[]): ItemMarkers {
  const of = (k: MarkerKind): Marker[] => markers.filter((m) => m.kind === k);
  return {
    item_id: item.id,
    title: item.title,
    content_hash: item.contentHash,
    engine: 'extractive',
    model: null,
    prompt_version: null,
    cache_key: `key-${item.id}`,
    generated_at: '2024-01-01T00:00:00.000Z',
    transcript_summary: { key_facts: of('FACT'), key_opinions: of('OPINION'), key_datapoints: of('DATA'), topic_areas: [], word_count: 1, total_markers: markers.length },
    comments_summary: of('ENGAGEMENT').length
      ? { key_facts_from_comments: [], key_opinions_from_comments: [], key_datapoints_from_comments: [], major_themes: [], sentiment_overview: 'mixed', top_engagement_markers: of('ENGAGEMENT'), total_comments: 1, total_markers: of('ENGAGEMENT').length }
      : null,
    coverage: { transcript: null, comments: null },
    usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  };
}

/** Random markers over the items: kinds and topics drawn per item from its language's topics. */
export function generatedMarkers(seed: number, items: readonly CorpusItem[], specs: readonly ItemSpec[], perItem: [number, number] = [2, 8]): Map<string, Marker[]> {
  const r = rng(seed);
  const out = new Map<string, Marker[]>();
  items.forEach((item, i) => {
    const lang = specs[i]!.lang;
    const n = perItem[0] + Math.floor(r() * (perItem[1] - perItem[0] + 1));
    out.set(
      item.id,
      Array.from({ length: n }, (_, k) => {
        const kind = pick(r, ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'] as const);
        const topic = pick(r, MARKER_TOPICS[lang]);
        // Topics as a model writes them: sometimes capitalised or spaced differently.
        const shown = r() < 0.2 ? `  ${topic.toUpperCase()} ` : topic;
        return markerOf(item.id, k, kind, shown, [randomSpan(r, item, kind === 'ENGAGEMENT' ? 'comments' : 'transcript')]);
      }),
    );
  });
  return out;
}

/** `count` new entries of every kind (in turn) pinned over the items. */
export function pinnedEntries(seed: number, items: readonly CorpusItem[], count: number): NewEntry[] {
  const r = rng(seed);
  const out: NewEntry[] = [];
  const kinds = ['marker', 'ask-hit', 'answer-sentence', 'chat-answer', 'finding', 'selection', 'note'] as const;
  for (let k = 0; k < count; k++) {
    const item = pick(r, items);
    const spans = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomSpan(r, item));
    const s = spans[0]!;
    const kind = kinds[k % kinds.length]!;
    const words = pick(r, [...OPINIONS.en, ...OPINIONS.zh, ...OPINIONS.es]);
    let e: NewEntry | undefined;
    if (kind === 'marker') e = markerEntry(item, item.id, markerOf(item.id, k, pick(r, ['FACT', 'OPINION', 'DATA'] as const), pick(r, MARKER_TOPICS.zh), spans));
    else if (kind === 'ask-hit') e = hitEntry(item, s.part, s.start, s.end, { question: '¿Qué dijo Marta?' });
    else if (kind === 'selection') e = selectionEntry(item, s.part, s.start, s.end);
    else if (kind === 'answer-sentence') e = answerSentenceEntry('What did Daniel say about the bike lane?', words, spans);
    else if (kind === 'chat-answer') e = chatAnswerEntry('电池怎么样？', `${words}\n\n- ${s.quote} [1]\n- ${words}`, spans, `chat-${k}`);
    else if (kind === 'finding') e = findingEntry(`run-${k}`, `f${k}`, words, spans);
    else e = noteEntry(pick(r, ['Idea', '想法', 'Idea para el capítulo']), `${words}\n\n> a quote of my own\n\n1. first\n2. second`);
    if (e && r() < 0.4 && kind !== 'note') e = { ...e, note: pick(r, ['Check this against the minutes.', '和会议记录核对。', 'Comparar con el acta.']) };
    out.push(e!);
  }
  return out;
}

/** The text of `spec`'s part after `fn` changes its units' texts; the item rebuilt. */
export function editedSpec(spec: ItemSpec, fn: (texts: string[], part: PartKind) => string[], part: PartKind): ItemSpec {
  if (part === 'transcript') {
    const texts = fn(spec.turns.map((t) => t.text), part);
    return { ...spec, turns: spec.turns.map((t, i) => ({ ...t, text: texts[i]! })) };
  }
  return { ...spec, comments: fn([...spec.comments], part) };
}

/** The unit index and offset within it of a span (it lies inside one unit). */
export function unitOf(item: CorpusItem, span: PinnedSpan): { unit: number; at: number } {
  const units = span.part === 'transcript' ? item.transcript!.segments : item.comments!.comments;
  const unit = units.findIndex((u) => span.start >= u.offset && span.end <= u.offset + u.text.length);
  return { unit, at: span.start - units[unit]!.offset };
}

export { partText };
