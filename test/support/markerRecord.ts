/** A valid marker file's record for the marker-store tests: one FACT marker, labelled with its writer. */
import type { EngineName, ItemMarkers } from '../../src/core/markers/schema';

/** The record of `itemId` as `engine` would write it; `tag` goes into the cache key and the marker text (who wrote it). */
export function markersRecord(itemId: string, engine: EngineName, tag: string): ItemMarkers {
  return {
    item_id: itemId,
    title: `Item ${itemId}`,
    content_hash: `hash-${itemId}`,
    engine,
    model: engine === 'extractive' ? null : 'fake-model',
    prompt_version: 'v1',
    cache_key: `key-${tag}`,
    generated_at: new Date().toISOString(),
    transcript_summary: {
      key_facts: [{ id: `${itemId}:F:1`, kind: 'FACT', text: `written by ${tag}`, topic: 'writer', confidence: 0.5, evidence: [], grounded: false }],
      key_opinions: [],
      key_datapoints: [],
      topic_areas: ['writer'],
      word_count: 3,
      total_markers: 1,
    },
    comments_summary: null,
    coverage: { transcript: null, comments: null },
    usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  };
}
