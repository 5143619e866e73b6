/**
 * The researcher's project as a REFI-QDA project (issue 24, "Export Project (REFI-QDA)"): the
 * corpus, the codebook, the coded segments and the notebook mapped onto the input model of
 * `exportQdpx` (`src/core/export/qdpx/qdaModel.ts`). Pure: the caller reads the files.
 *
 * - **Sources**: each item is a text source whose text is its readable view ({@link layoutFullItem}:
 *   title, metadata, every turn or caption paragraph, every comment), so a selection's offsets are
 *   offsets into what the researcher reads in the editor. A span of a part's normalised text maps to
 *   the readable ranges of {@link readableRanges}; its selection runs from the first range's start to
 *   the last range's end (a span across turns takes in the headers between them). Variables: the
 *   item's id, date, speakers and words.
 * - **Codes**: the codebook as a tree (parents from `parentId`), each code's memo a note; with
 *   `markersAsCodes`, the markers too: a folder "Marker kinds" (FACT, OPINION, DATA, ENGAGEMENT)
 *   and a folder "Marker topics" (one code per folded topic, spelled as most markers spell it).
 * - **Selections**: coded segments, markers' evidence (with `markersAsCodes`; the marker's claim a
 *   note), notebook entries' spans (the entry's note on them) and speakers' turns. Spans are placed
 *   on the corpus as it is now by their quote (`reanchor.ts`, in memory: nothing is written); a span
 *   that cannot be placed is left out and said in `warnings`. Everything at the same place of the
 *   same item is one selection with one coding per code.
 * - **Notes**: notebook entries (their words, quotes and the researcher's note), code and segment
 *   memos, markers' claims.
 * - **Cases**: speakers. A speaker label that names a person ("Daniel", "王小明") is one case
 *   across items; a role or an anonymous id ("Project Manager", "speaker_3") is a different person
 *   in each item, so a case per item (`classifySpeakerLabel`). A case lists the items the speaker
 *   speaks in and their turns as selections.
 */
import * as path from 'node:path';
import { classifySpeakerLabel, wordCaseOf } from '../ask/speakerLabels';
import { itemDate } from '../across/itemDate';
import { TopicSpellings, topicKey } from '../across/topicKey';
import type { CorpusItem, PartKind } from '../corpus/types';
import { dateTimeSchema, type QdaCodeInput, type QdaProjectInput } from '../export/qdpx/qdaModel';
import { layoutFullItem, type ReadableItem } from '../markers/fullItem';
import { readableRanges } from '../markers/readableSpans';
import { MARKER_KINDS, type ItemMarkers, type Marker } from '../markers/schema';
import { allMarkers } from '../markers/store';
import { pinnedFromEvidence } from './pins';
import { reanchorSpans } from './reanchor';
import { nameKey, type Codebook, type Codings, type NotebookEntry, type PinnedSpan } from './schema';

/** What the project is made of. */
export interface QdpxProjectSource {
  /** The corpus's root (its folder name names the project) and items, in corpus order. */
  corpus: { root: string; items: readonly CorpusItem[] };
  codebook: Codebook;
  codings: Codings;
  /** The notebook's entries, in notebook order. */
  notebook: readonly NotebookEntry[];
  /** The markers of the items that have them (used with `markersAsCodes`). */
  markers?: ReadonlyMap<string, ItemMarkers>;
}

export interface QdpxProjectOptions {
  /** Markers as codes by kind and topic, their evidence as coded selections. Default false. */
  markersAsCodes?: boolean;
  /** Speakers as cases with their turns as selections. Default true. */
  speakersAsCases?: boolean;
  /** The project's name; default the corpus folder's name. */
  name?: string;
  /** The exporting software (`origin`). */
  origin?: string;
  /** When the project is exported (xsd:dateTime); default now. */
  now?: string;
}

/** What went into the project, counted. */
export interface QdpxProjectStats {
  sources: number;
  codes: number;
  /** Coded segments exported / left out (not placeable on the corpus as it is). */
  segments: number;
  segmentsLeftOut: number;
  /** Markers whose evidence became coded selections (with `markersAsCodes`). */
  markers: number;
  notebookEntries: number;
  notes: number;
  selections: number;
  cases: number;
}

export interface QdpxProject {
  input: QdaProjectInput;
  stats: QdpxProjectStats;
  /** What was left out, and why, one line each. */
  warnings: string[];
  /** Where each coded segment went: its source (item id) and selection id; absent for one left out. */
  segmentSelections: ReadonlyMap<string, { sourceId: string; selectionId: string; start: number; end: number }>;
}

/** Ids the project gives its codes, so that a reader can tell where each came from. */
export const qdpxIds = {
  code: (codeId: string): string => `code:${codeId}`,
  kindsFolder: 'marker-kinds',
  topicsFolder: 'marker-topics',
  kind: (kind: string): string => `marker-kind:${kind}`,
  topic: (key: string): string => `marker-topic:${key}`,
  selection: (itemId: string, start: number, end: number): string => `sel:${itemId}:${start}-${end}`,
} as const;

const USER_ID = 'marker-research';
/** A name for a selection: the first words of its text, on one line. */
const SELECTION_NAME_CHARS = 60;

/** Offsets of the start of every line of `text` (lines split at `\n`: the readable document joins its lines so). */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** One item's readable text and how to place its spans in it. */
class ReadableSource {
  readonly layout: ReadableItem;
  private readonly starts: number[];

  constructor(readonly item: CorpusItem) {
    this.layout = layoutFullItem(item);
    this.starts = lineStarts(this.layout.text);
  }

  get text(): string {
    return this.layout.text;
  }

  /** `[start, end)` of the readable text a span of `part` covers; undefined when it has no place there. */
  place(part: PartKind, start: number, end: number): { start: number; end: number } | undefined {
    const ranges = readableRanges(this.layout, part, start, end);
    if (!ranges.length) return undefined;
    const first = ranges[0]!;
    const last = ranges[ranges.length - 1]!;
    const a = this.starts[first.startLine]! + first.startColumn;
    const z = this.starts[last.endLine]! + last.endColumn;
    return z > a ? { start: a, end: z } : undefined;
  }
}

/** A selection being built: its place, codes and notes. */
interface SelectionDraft {
  id: string;
  start: number;
  end: number;
  codings: Map<string, { codeId: string; createdAt?: string; noteIds: string[] }>;
  noteIds: Set<string>;
}

/** An xsd:dateTime, or undefined for a value that is not one. */
function dateTime(s: string | undefined): string | undefined {
  return s !== undefined && dateTimeSchema.safeParse(s).success ? s : undefined;
}

const oneLine = (s: string): string => s.replace(/\s+/gu, ' ').trim();

function clip(s: string, max: number): string {
  const t = oneLine(s);
  const chars = Array.from(t);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : t;
}

/** The codebook as a tree of codes (children after their parent, in codebook order); a code whose parent is unknown sits at the top. */
function codebookTree(book: Codebook, memoNote: (codeId: string) => string | undefined): QdaCodeInput[] {
  const nodes = new Map<string, QdaCodeInput & { children: QdaCodeInput[] }>();
  for (const c of book.codes) {
    const note = memoNote(c.id);
    nodes.set(c.id, {
      id: qdpxIds.code(c.id),
      name: c.name,
      ...(c.description ? { description: c.description } : {}),
      color: c.colour,
      isCodable: true,
      noteIds: note ? [note] : [],
      children: [],
    });
  }
  const top: QdaCodeInput[] = [];
  for (const c of book.codes) {
    const node = nodes.get(c.id)!;
    const parent = c.parentId !== undefined ? nodes.get(c.parentId) : undefined;
    (parent ? parent.children : top).push(node);
  }
  return top;
}

/** The text of a notebook entry's note: its words, each span's quote and item, the researcher's note. */
function entryNoteText(e: NotebookEntry, titles: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  if (e.text?.trim()) parts.push(e.text.trim());
  for (const s of e.spans) parts.push(`“${oneLine(s.quote)}” (${titles.get(s.itemId) ?? s.itemTitle ?? s.itemId}${s.lost ? '; not found in the corpus as it is now' : ''})`);
  if (e.note?.trim()) parts.push(e.note.trim());
  return parts.join('\n\n') || e.title;
}

/**
 * The REFI-QDA project of a corpus and its workbench (see the module's comment).
 *
 * @example
 * const p = qdpxProject({ corpus, codebook, codings, notebook: entries, markers }, { markersAsCodes: true });
 * const out = exportQdpx(p.input, { guidSeed: path.basename(corpus.root) });
 */
export function qdpxProject(src: QdpxProjectSource, options: QdpxProjectOptions = {}): QdpxProject {
  const now = dateTime(options.now) ?? new Date().toISOString();
  const warnings: string[] = [];
  const items = src.corpus.items;
  const byId = new Map(items.map((it) => [it.id, it]));
  const titles = new Map(items.map((it) => [it.id, it.title]));
  const readable = new Map<string, ReadableSource>();
  const readableOf = (itemId: string): ReadableSource | undefined => {
    let r = readable.get(itemId);
    if (!r) {
      const item = byId.get(itemId);
      if (!item) return undefined;
      readable.set(itemId, (r = new ReadableSource(item)));
    }
    return r;
  };
  const notes: NonNullable<QdaProjectInput['notes']> = [];
  const addNote = (id: string, name: string, text: string, createdAt?: string): string => {
    notes.push({ id, name: clip(name, 200) || id, text, createdBy: USER_ID, ...(dateTime(createdAt) ? { createdAt: dateTime(createdAt)! } : {}) });
    return id;
  };
  /** Selections per item, by place. */
  const selections = new Map<string, Map<string, SelectionDraft>>();
  const selectionAt = (itemId: string, part: PartKind, start: number, end: number): SelectionDraft | undefined => {
    const r = readableOf(itemId);
    const at = r?.place(part, start, end);
    if (!r || !at) return undefined;
    let list = selections.get(itemId);
    if (!list) selections.set(itemId, (list = new Map()));
    const key = `${at.start}:${at.end}`;
    let sel = list.get(key);
    if (!sel) list.set(key, (sel = { id: qdpxIds.selection(itemId, at.start, at.end), start: at.start, end: at.end, codings: new Map(), noteIds: new Set() }));
    return sel;
  };
  const code = (sel: SelectionDraft, codeId: string, createdAt?: string, noteId?: string): void => {
    let c = sel.codings.get(codeId);
    if (!c) sel.codings.set(codeId, (c = { codeId, ...(dateTime(createdAt) ? { createdAt: dateTime(createdAt)! } : {}), noteIds: [] }));
    if (noteId && !c.noteIds.includes(noteId)) c.noteIds.push(noteId);
  };
  /** Spans placed on the corpus as it is now (by quote); lost ones undefined. */
  const placeSpans = (spans: readonly PinnedSpan[]): (PinnedSpan | undefined)[] =>
    reanchorSpans(spans, byId, now).results.map((r) => (r.outcome === 'lost' ? undefined : r.span));

  // ---- codes: the codebook
  const codeMemoNotes = new Map<string, string>();
  for (const c of src.codebook.codes) {
    if (c.memo?.text.trim()) codeMemoNotes.set(c.id, addNote(`memo:code:${c.id}`, `Memo: ${c.name}`, c.memo.text, c.memo.updatedAt));
  }
  const codes: QdaCodeInput[] = codebookTree(src.codebook, (id) => codeMemoNotes.get(id));
  const known = new Set(src.codebook.codes.map((c) => c.id));

  // ---- coded segments
  const segmentSelections = new Map<string, { sourceId: string; selectionId: string; start: number; end: number }>();
  let segmentsLeftOut = 0;
  const segs = src.codings.segments;
  const placedSegs = placeSpans(segs.map((s) => s.span));
  segs.forEach((seg, i) => {
    const span = placedSegs[i];
    const leaveOut = (why: string): void => {
      segmentsLeftOut++;
      warnings.push(`coded segment ${seg.id} (“${clip(seg.span.quote, 40)}” in ${seg.span.itemId}): ${why}; left out`);
    };
    if (!known.has(seg.codeId)) return leaveOut(`its code "${seg.codeId}" is not in the codebook`);
    if (!span) return leaveOut(byId.has(seg.span.itemId) ? 'its quote is not in the item as it is now' : 'its item is not in the corpus');
    const sel = selectionAt(span.itemId, span.part, span.start, span.end);
    if (!sel) return leaveOut('it has no place in the item’s readable text');
    const memo = seg.memo?.text.trim() ? addNote(`memo:segment:${seg.id}`, `Memo: ${src.codebook.codes.find((c) => c.id === seg.codeId)?.name ?? seg.codeId}`, seg.memo.text, seg.memo.updatedAt) : undefined;
    code(sel, qdpxIds.code(seg.codeId), seg.createdAt, memo);
    segmentSelections.set(seg.id, { sourceId: span.itemId, selectionId: sel.id, start: sel.start, end: sel.end });
  });

  // ---- markers as codes
  let markerCount = 0;
  if (options.markersAsCodes && src.markers) {
    const spellings = new TopicSpellings();
    const usedKinds = new Set<string>();
    const usedTopics = new Set<string>();
    for (const item of items) {
      const file = src.markers.get(item.id);
      if (!file) continue;
      for (const m of allMarkers(file)) {
        const placed = placeSpans(m.evidence.map((ev) => pinnedFromEvidence(item, item.id, ev)).filter((s): s is PinnedSpan => !!s)).filter((s): s is PinnedSpan => !!s);
        if (!placed.length) continue;
        const drafts = placed.map((s) => selectionAt(item.id, s.part, s.start, s.end)).filter((s): s is SelectionDraft => !!s);
        if (!drafts.length) continue;
        markerCount++;
        const key = topicKey(m.topic);
        if (key) {
          spellings.add(key, m.topic);
          usedTopics.add(key);
        }
        usedKinds.add(m.kind);
        const note = addNote(`marker:${item.id}:${m.id}`, `${m.kind}${key ? ` · ${oneLine(m.topic)}` : ''}`, markerNoteText(m));
        for (const sel of drafts) {
          code(sel, qdpxIds.kind(m.kind), file.generated_at);
          if (key) code(sel, qdpxIds.topic(key), file.generated_at);
          sel.noteIds.add(note);
        }
      }
    }
    codes.push(
      { id: qdpxIds.kindsFolder, name: 'Marker kinds', description: 'Key-info markers by kind (Marker Research)', isCodable: false, children: MARKER_KINDS.filter((k) => usedKinds.has(k)).map((k) => ({ id: qdpxIds.kind(k), name: k, color: KIND_COLOURS[k] })) },
      {
        id: qdpxIds.topicsFolder,
        name: 'Marker topics',
        description: 'Key-info markers by their topic (Marker Research)',
        isCodable: false,
        children: [...usedTopics].sort((a, b) => (spellings.label(a) < spellings.label(b) ? -1 : spellings.label(a) > spellings.label(b) ? 1 : 0)).map((k) => ({ id: qdpxIds.topic(k), name: spellings.label(k) || k })),
      },
    );
  }

  // ---- the notebook
  const projectNotes: string[] = [];
  for (const e of src.notebook) {
    const noteId = addNote(`entry:${e.id}`, e.title || e.kind, entryNoteText(e, titles), e.createdAt);
    const placed = placeSpans(e.spans);
    let onSpan = false;
    placed.forEach((s, k) => {
      if (!s) {
        warnings.push(`notebook entry “${clip(e.title, 40)}”: span ${k + 1} (“${clip(e.spans[k]!.quote, 40)}”) is not in the corpus as it is now; the entry is kept as a note of the project`);
        return;
      }
      const sel = selectionAt(s.itemId, s.part, s.start, s.end);
      if (!sel) return;
      sel.noteIds.add(noteId);
      onSpan = true;
    });
    if (!onSpan) projectNotes.push(noteId);
  }

  // ---- speakers as cases
  const cases = new Map<string, { id: string; name: string; description: string; sourceIds: Set<string>; selectionIds: string[] }>();
  if (options.speakersAsCases !== false) {
    for (const item of items) {
      const t = item.transcript;
      if (!t) continue;
      const labels = [...new Set(t.segments.flatMap((s) => (s.speaker?.trim() ? [s.speaker.trim()] : [])))];
      if (!labels.length) continue;
      let wordCase: ReturnType<typeof wordCaseOf> | undefined;
      const evidence = { siblings: labels, wordCase: (w: string) => (wordCase ??= wordCaseOf(t.segments.map((s) => s.text)))(w) };
      const caseOf = new Map<string, string>();
      for (const label of labels) {
        const c = classifySpeakerLabel(label, evidence);
        const perItem = c.kind !== 'name';
        const person = c.name ?? label;
        const id = perItem ? `speaker:${item.id}:${label}` : `speaker:${nameKey(person)}`;
        if (!cases.has(id)) {
          cases.set(id, {
            id,
            name: perItem ? `${label} (${clip(item.title, 80)})` : person,
            description: perItem ? `“${label}” in ${item.id}: a ${c.kind === 'role' ? 'role' : 'speaker id'}, another person in each item` : `Speaker “${person}”`,
            sourceIds: new Set(),
            selectionIds: [],
          });
        }
        caseOf.set(label, id);
      }
      for (const s of t.segments) {
        const label = s.speaker?.trim();
        if (!label || !s.text.trim()) continue;
        const sel = selectionAt(item.id, 'transcript', s.offset, s.offset + s.text.length);
        const c = cases.get(caseOf.get(label)!)!;
        c.sourceIds.add(item.id);
        if (sel && !c.selectionIds.includes(sel.id)) c.selectionIds.push(sel.id);
      }
    }
  }

  // ---- sources
  const variables = [
    { id: 'item', name: 'Item', type: 'Text' as const, description: 'The item’s id in the corpus' },
    { id: 'date', name: 'Date', type: 'Date' as const, description: 'The item’s date from its metadata' },
    { id: 'speakers', name: 'Speakers', type: 'Text' as const, description: 'The transcript’s speaker labels' },
    { id: 'words', name: 'Words', type: 'Integer' as const, description: 'Words of the transcript and comments' },
  ];
  const sources: NonNullable<QdaProjectInput['sources']> = items.map((item) => {
    const r = readableOf(item.id)!;
    const day = itemDate(item.meta).day;
    const speakers = [...new Set((item.transcript?.segments ?? []).flatMap((s) => (s.speaker?.trim() ? [s.speaker.trim()] : [])))];
    const drafts = [...(selections.get(item.id)?.values() ?? [])].sort((a, b) => a.start - b.start || a.end - b.end);
    return {
      id: item.id,
      name: item.title || item.id,
      text: r.text,
      createdBy: USER_ID,
      selections: drafts.map((d) => ({
        id: d.id,
        name: clip(r.text.slice(d.start, d.end), SELECTION_NAME_CHARS) || d.id,
        start: d.start,
        end: d.end,
        createdBy: USER_ID,
        codings: [...d.codings.values()].map((c) => ({ ...c, createdBy: USER_ID })),
        noteIds: [...d.noteIds],
      })),
      variables: [
        { variableId: 'item', value: item.id },
        ...(day ? [{ variableId: 'date', value: day }] : []),
        ...(speakers.length ? [{ variableId: 'speakers', value: speakers.join(', ') }] : []),
        { variableId: 'words', value: item.wordCount },
      ],
    };
  });
  const selectionTotal = sources.reduce((n, s) => n + (s.selections?.length ?? 0), 0);
  let codeTotal = 0;
  const countCodes = (list: readonly QdaCodeInput[]): void => list.forEach((c) => ((codeTotal += 1), countCodes(c.children ?? [])));
  countCodes(codes);

  const input: QdaProjectInput = {
    name: options.name?.trim() || path.basename(path.resolve(src.corpus.root)) || 'Marker Research project',
    origin: options.origin ?? 'Marker Research',
    description: `Exported by Marker Research from ${items.length} item${items.length === 1 ? '' : 's'}: each item's readable text as a text source.`,
    createdBy: USER_ID,
    createdAt: now,
    modifiedBy: USER_ID,
    modifiedAt: now,
    users: [{ id: USER_ID, name: 'Marker Research' }],
    variables,
    codes,
    sources,
    notes,
    cases: [...cases.values()].map((c) => ({ id: c.id, name: c.name, description: c.description, sourceIds: [...c.sourceIds], selectionIds: c.selectionIds })),
    noteIds: projectNotes,
  };
  return {
    input,
    stats: {
      sources: sources.length,
      codes: codeTotal,
      segments: segmentSelections.size,
      segmentsLeftOut,
      markers: markerCount,
      notebookEntries: src.notebook.length,
      notes: notes.length,
      selections: selectionTotal,
      cases: cases.size,
    },
    warnings,
    segmentSelections,
  };
}

/** Colours of the marker kinds' codes (the hues of the sidebar's kind badges: blue, purple, green, orange). */
const KIND_COLOURS: Record<string, string> = { FACT: '#3b82f6', OPINION: '#a855f7', DATA: '#10b981', ENGAGEMENT: '#f59e0b' };

/** A marker's note: its claim, its kind and topic, its confidence. */
function markerNoteText(m: Marker): string {
  return [m.text.trim(), `${m.kind}${m.topic.trim() ? ` · ${oneLine(m.topic)}` : ''} · confidence ${m.confidence.toFixed(2)}${m.grounded ? '' : ' · ungrounded'}`].join('\n\n');
}
