/**
 * The messages between the extension host and the "Across items" webview panels (issue 24):
 * **Markers Across Items** (all markers of a kind or a topic, grouped by topic, then item),
 * **Compare Items** (two or more items side by side) and **Items Timeline**. One page script
 * (`dist/across.js`) renders whichever model it is sent. The host sends the model the engine built
 * (`acrossModel.ts`); the page draws it in the display language (`@vscode/l10n`, the page's
 * bundle) and sends back what the researcher clicked, parsed with {@link acrossToHostSchema} (the
 * page is untrusted; corpus text in it is only ever text).
 */
import { z } from 'zod';
import { markerKindSchema } from '../core/markers/schema';
import type { ItemsComparison, ItemTimeline, MarkersAcross } from './acrossModel';

/** Host → page: a model to show (replacing what was shown), work in progress, or why there is nothing. */
export type AcrossHostToWebview =
  | { type: 'markers'; model: MarkersAcross }
  | { type: 'compare'; model: ItemsComparison }
  | { type: 'timeline'; model: ItemTimeline }
  | { type: 'busy'; message: string }
  | { type: 'error'; message: string };

const itemId = z.string().min(1).max(1000);
const part = z.enum(['transcript', 'comments']);

/** What a panel's page may send. */
export const acrossToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** A marker: its evidence opened at its exact span (the sidebar's `openMarker`). */
  z.object({ type: z.literal('openMarker'), itemId, markerId: z.string().min(1).max(1000) }),
  /** A span of an item's part (a marker without an id in its file, or a place). */
  z.object({ type: z.literal('openHit'), itemId, part, start: z.number().int().nonnegative(), end: z.number().int().positive() }).refine((m) => m.end > m.start, 'empty span'),
  /** An item in full (its readable view). */
  z.object({ type: z.literal('openItem'), itemId }),
  /** Only these kinds (the kind toggles); empty: every kind. */
  z.object({ type: z.literal('setKinds'), kinds: z.array(markerKindSchema).max(4) }),
  /** The timeline's buckets. */
  z.object({ type: z.literal('setBucket'), bucket: z.enum(['auto', 'day', 'week', 'month']) }),
  /** Ask again what to show (another kind or topic; other items). */
  z.object({ type: z.literal('change') }),
  /** A topic's markers across items (a shared topic of Compare Items). */
  z.object({ type: z.literal('showTopic'), topic: z.string().trim().min(1).max(200) }),
]);
export type AcrossToHost = z.infer<typeof acrossToHostSchema>;
