/**
 * The `markerResearch.*` settings: one zod schema is the source of truth; a unit
 * test checks package.json `contributes.configuration` against it. Settings
 * never hold API keys (those live in SecretStorage, see `markerResearch.setApiKey`).
 */
import { z } from 'zod';

export const SETTINGS_SECTION = 'markerResearch';

export const PROVIDERS = ['extractive', 'openai', 'ollama'] as const;

/** Research depth (SPEC §4); mirrors core's `COMPLEXITIES` (kept here so the webview bundle stays free of core). */
export const RESEARCH_COMPLEXITIES = ['light', 'medium', 'deep', 'epic'] as const;

/** Where a marker, citation or hit opens: the item's readable view, or its original file. */
export const EVIDENCE_VIEWS = ['readable', 'original'] as const;
export type EvidenceView = (typeof EVIDENCE_VIEWS)[number];

/** What the readable view does with transcription annotations ({disfmarker}, [Música], [ __ ]): dim them, hide them, or show them as they are. */
export const READABLE_ANNOTATIONS = ['dim', 'hide', 'show'] as const;
export type ReadableAnnotationsMode = (typeof READABLE_ANNOTATIONS)[number];

export const settingsSchema = z.object({
  /** Corpus folder; empty means the first workspace folder. Relative paths resolve against it. */
  corpusPath: z.string().default(''),
  /** Index the corpus automatically when the sidebar opens. */
  indexOnOpen: z.boolean().default(false),
  /** Where markers come from: the extractive engine (no model) or a model provider. */
  provider: z.enum(PROVIDERS).default('extractive'),
  /** Base URL of the model server; empty: the provider's default. */
  baseUrl: z.string().default(''),
  /** Model name for the provider. */
  model: z.string().default(''),
  /** Context size of the model, in tokens (windows must fit; sent to Ollama as `num_ctx`). */
  contextTokens: z.number().int().min(512).default(8192),
  /** Words per window when a model reads an item. */
  windowWords: z.number().int().min(50).default(4000),
  /** Words each window repeats from the previous one. */
  overlapWords: z.number().int().min(0).default(120),
  /** Windows per part; 0 = auto = as many as needed (every word is read either way). */
  windowLimit: z.number().int().min(0).default(0),
  /** Model calls in flight at once. */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Deadline of one model request, in seconds (a timed-out request is retried at most once). */
  requestTimeoutSeconds: z.number().int().min(1).max(3600).default(120),
  /** Markers per 1,000 transcript words the extractive engine picks, spread over the item's sections. */
  markerDensity: z.number().min(0.5).max(20).default(3),
  /** After Index Corpus, generate missing markers with the extractive engine (existing markers are always loaded). */
  markersOnIndex: z.boolean().default(true),
  /** Research depth: light / medium / deep / epic (phases, threads in parallel, chapters). */
  complexity: z.enum(RESEARCH_COMPLEXITIES).default('medium'),
  /** Follow-up rounds a research step may take to request more content. */
  maxFollowupsPerStep: z.number().int().min(0).max(20).default(3),
  /** Content items served in one round of a step. */
  maxContentItemsPerTurn: z.number().int().min(1).max(50).default(3),
  /** Context budget of a step, in tokens across all its rounds: past it, whole items are deferred (never cut). */
  contextWindowLimit: z.number().int().min(200).default(24000),
  /** Items in one page of the marker overview: a larger scope is shown to the model in pages (each item once), and a research step takes at most this many items. */
  markerOverviewMaxItems: z.number().int().min(1).default(20),
  /** Steps a research plan may have: a larger scope gets more steps up to this; items past it are listed as not covered. */
  maxPlanSteps: z.number().int().min(1).max(1000).default(48),
  /** Local condensation (seed 001, option B): after Generate Markers, condense every item with a local Ollama model. */
  condensation: z.boolean().default(false),
  /** Ollama model for the condensation pass (e.g. `qwen2.5:7b`). */
  condenseModel: z.string().default(''),
  /** Ollama host for the condensation pass; empty: http://127.0.0.1:11434. */
  condenseBaseUrl: z.string().default(''),
  /** Embedding model for the vector retrieval strategy (same provider and base URL); empty: vectors off. */
  embeddingModel: z.string().default(''),
  /** Ask the Corpus: with a model, let it reorder the best hits (one more call per question). */
  askRerank: z.boolean().default(false),
  /** Where evidence opens: the readable view of the item (speakers, times, comments; the span highlighted) or the original file. */
  evidenceView: z.enum(EVIDENCE_VIEWS).default('readable'),
  /** Annotations in the readable view: dimmed, hidden or shown as they are. */
  readableAnnotations: z.enum(READABLE_ANNOTATIONS).default('dim'),
});

export type Settings = z.infer<typeof settingsSchema>;

/** Descriptions shown in the Settings UI, kept next to the schema. */
export const SETTING_DESCRIPTIONS: Record<keyof Settings, string> = {
  corpusPath: 'Folder of the corpus (transcripts, comments, meta.json). Empty: the first workspace folder. Relative paths resolve against it.',
  indexOnOpen: 'Index the corpus automatically when the Marker Research view opens.',
  provider: 'Where key-info markers come from: `extractive` (no model, works offline), an OpenAI-compatible server (`openai`: OpenAI, Qwen/DashScope, DeepSeek, vLLM, LM Studio) or `ollama`. The API key is stored with "Marker Research: Set API Key", never in settings.',
  baseUrl: 'Base URL of the model server. Empty: the provider\'s default (OpenAI: https://api.openai.com/v1, Ollama: http://127.0.0.1:11434).',
  model: 'Model name for the provider (e.g. `gpt-4o-mini`, `qwen2.5:7b`).',
  contextTokens: 'Context size of the model in tokens; windows are made to fit, and Ollama gets it as `num_ctx`.',
  markerDensity: "Markers per 1,000 transcript words the extractive engine (no model) picks, spread over the item's sections (chapters, topic shifts).",
  windowWords: 'Words per window when a model reads a transcript or comment thread.',
  overlapWords: 'Words each window repeats from the end of the previous one.',
  windowLimit: 'Windows per part. 0 = auto = as many as needed; a positive limit makes windows larger instead of dropping text.',
  concurrency: 'Model calls in flight at once.',
  requestTimeoutSeconds: 'Seconds to wait for one model request before it fails as timed out (a timed-out request is retried once). Retries of rate-limited or failing requests stop after 4 retries or 60 s per call, whichever comes first.',
  markersOnIndex: 'After Index Corpus, generate missing markers with the extractive provider, so the sidebar shows markers right away. Markers already generated are always shown.',
  complexity: 'Research depth: `light`, `medium`, `deep` (may split into phases) or `epic` (phases, parallel threads, a report in chapters).',
  maxFollowupsPerStep: 'Follow-up rounds a research step may take to request more content (full items, marker evidence, topics).',
  maxContentItemsPerTurn: 'Content items served to a research step in one round.',
  contextWindowLimit: 'Context budget of a research step in tokens, across its rounds. Past it whole items are deferred (the model is told), never cut.',
  markerOverviewMaxItems: 'Items in one page of the marker overview: a larger scope is shown to the model in pages, each item once, and a research step takes at most this many items.',
  maxPlanSteps: 'Steps a research plan may have. A step takes at most as many items as it can read, so a larger scope gets more steps up to this; items past it are listed under "Not covered" in the plan and the report.',
  condensation: 'After Generate Markers, condense every item with a local Ollama model (claims with evidence spans, counterpoints, categories), cached in .marker-research/condensed/.',
  condenseModel: 'Ollama model for the condensation pass, e.g. qwen2.5:7b.',
  condenseBaseUrl: 'Ollama host for the condensation pass. Empty: http://127.0.0.1:11434.',
  askRerank: 'Ask the Corpus: with a model configured, let it reorder the best hits by how well each answers the question (one more model call per question). Off: hits in fused order.',
  evidenceView: 'Where a marker, a citation or an Ask hit opens: `readable` — the item as a read-only document (speaker, time and turn of every transcript turn; author, likes and date of every comment) with the span highlighted, and "Open original" one click away — or `original` — the original file (transcript.json, comments.jsonl, …) at the span, word wrap on.',
  readableAnnotations: 'Transcription annotations in the readable view ({disfmarker}, {vocalsound}, [Música], [ __ ], (risas)): `dim` them, `hide` them, or `show` them as they are. The text and every span stay as they are; "Marker Research: Dim, Hide or Show Annotations" (the eye in the readable view\'s title bar) goes to the next.',
  embeddingModel: 'Embedding model for the vector retrieval strategy of Ask the Corpus (e.g. `text-embedding-3-small`, `nomic-embed-text`), served by the same provider and base URL as the model. Vectors are cached per chunk in .marker-research/vectors/. Empty: vectors off.',
};
