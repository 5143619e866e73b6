/**
 * The Corpus & Markers view's items, made once per item and kept: an item is
 * made again only when it was loaded again (its files changed) or its marker
 * file was read again. Items are held lazily (their parsed parts may have to
 * be read from disk again, see `PartStore`), so a whole view state costs a
 * parse of every item with markers the first time — the engine gives its
 * other requests a turn between items meanwhile — and only the changed items
 * after that (a marker run that finishes one item remakes that item only).
 */
import type { Corpus, CorpusItem } from '../core/corpus/types';
import type { ItemMarkers } from '../core/markers/schema';
import { throwIfAborted } from '../core/util/abort';
import { sidebarItemFor, type MarkerEntry } from '../shared/sidebarModel';
import type { ItemSummary } from '../shared/webviewProtocol';

/** An event-loop turn at least this often while items are made, ms. */
const SLICE_MS = 20;

export class SidebarItems {
  private made = new Map<string, { item: CorpusItem; markers: ItemMarkers | string | undefined; view: ItemSummary }>();
  private root = '';

  /** The items of `corpus` with their markers, in corpus order. */
  async of(corpus: Corpus, markers: ReadonlyMap<string, MarkerEntry>, signal?: AbortSignal): Promise<ItemSummary[]> {
    if (corpus.root !== this.root) {
      this.made = new Map();
      this.root = corpus.root;
    }
    const out: ItemSummary[] = [];
    let last = Date.now();
    for (const it of corpus.items) {
      const entry = markers.get(it.id);
      // The marker file's parsed value is the same object while the file is unchanged (the engine's marker-file cache).
      const key = entry === undefined ? undefined : entry.ok ? entry.value : entry.error;
      const known = this.made.get(it.id);
      if (known && known.item === it && known.markers === key) {
        out.push(known.view);
        continue;
      }
      const view = sidebarItemFor(it, entry);
      this.made.set(it.id, { item: it, markers: key, view });
      out.push(view);
      if (Date.now() - last >= SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        throwIfAborted(signal);
        last = Date.now();
      }
    }
    if (this.made.size > corpus.items.length) {
      const ids = new Set(corpus.items.map((i) => i.id));
      for (const id of this.made.keys()) if (!ids.has(id)) this.made.delete(id);
    }
    return out;
  }
}
