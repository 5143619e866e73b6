/**
 * The Corpus & Markers view's items, made once per item and kept — in memory
 * and in `<corpus>/.marker-research/views/sidebar-items.json` — until the item's
 * content or its markers change. Items are held lazily (their parsed parts may
 * have to be read from disk again, see `PartStore`), and labelling an item's
 * markers ("Daniel · 0:33") needs its parts: without the kept views, the first
 * view state after a start would parse every item with markers again (about
 * 9 s on 10 M words). The engine gives its other requests a turn between the
 * items it makes.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { locationLabel } from '../core/corpus/locationLabel';
import type { Corpus } from '../core/corpus/types';
import { writeFileAtomic } from '../core/storage/atomic';
import { readStateFile } from '../core/storage/safePath';
import { STORAGE_DIR } from '../core/storage/storageDir';
import { throwIfAborted } from '../core/util/abort';
import type { Logger } from '../core/util/log';
import { itemMarkersView, markerGroups, markerSummary, sidebarItemFor, type MarkerEntry } from '../shared/sidebarModel';
import type { ItemSummary } from '../shared/webviewProtocol';

/** An event-loop turn at least this often while items are made, ms. */
const SLICE_MS = 20;
/** Kept views are written this long after the last item was made (a marker run makes many in a row). */
const SAVE_DELAY_MS = 2_000;

/**
 * The version of the kept views: a hash of the code that makes them, so a
 * change to how an item or a marker is shown never serves an old view.
 */
const VIEW_VERSION = createHash('sha256')
  .update([sidebarItemFor, itemMarkersView, markerGroups, markerSummary, locationLabel].map((f) => f.toString()).join('\n'))
  .digest('hex')
  .slice(0, 16);

/**
 * What a view is made from: the item's content, and its marker file as the
 * size and modification time it had when read (any change to the file, a
 * hand edit included, makes the view again), and whether it read.
 */
function keyOf(contentHash: string, entry: MarkerEntry | undefined, markerStamp: string | undefined): string {
  const state = !entry ? '-' : entry.ok ? 'ok' : `!${entry.error}`;
  return `${contentHash}|${markerStamp ?? 'unread'}|${state}`;
}

export function sidebarItemsFile(root: string): string {
  return path.join(root, STORAGE_DIR, 'views', 'sidebar-items.json');
}

type Made = Map<string, { key: string; view: ItemSummary }>;

export class SidebarItems {
  private made: Made = new Map();
  private root = '';
  private loading: Promise<void> | undefined;
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(private readonly log?: Logger) {}

  /**
   * The items of `corpus` with their markers, in corpus order; `markerStamp`
   * gives the stamp each item's marker file was read with.
   */
  async of(corpus: Corpus, markers: ReadonlyMap<string, MarkerEntry>, markerStamp: (itemId: string) => string | undefined, signal?: AbortSignal): Promise<ItemSummary[]> {
    if (corpus.root !== this.root) {
      this.root = corpus.root;
      this.made = new Map();
      this.loading = this.load(corpus.root);
    }
    await this.loading;
    const out: ItemSummary[] = [];
    let last = Date.now();
    let madeNow = 0;
    for (const it of corpus.items) {
      const entry = markers.get(it.id);
      const key = keyOf(it.contentHash, entry, markerStamp(it.id));
      const known = this.made.get(it.id);
      if (known?.key === key) {
        out.push(known.view);
        continue;
      }
      const view = sidebarItemFor(it, entry);
      this.made.set(it.id, { key, view });
      madeNow++;
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
    if (madeNow) this.scheduleSave(corpus.root);
    return out;
  }

  /** Reads the kept views of `root` (none when missing, of another version, or unreadable). */
  private async load(root: string): Promise<void> {
    try {
      const raw = JSON.parse(await readStateFile(sidebarItemsFile(root), 'utf8')) as { version?: unknown; items?: unknown };
      if (raw.version !== VIEW_VERSION || !raw.items || typeof raw.items !== 'object') return;
      if (this.root !== root) return;
      for (const [id, v] of Object.entries(raw.items as Record<string, { key?: unknown; view?: unknown }>)) {
        if (typeof v?.key === 'string' && v.view && typeof v.view === 'object') this.made.set(id, { key: v.key, view: v.view as ItemSummary });
      }
    } catch {
      // none kept yet (or unreadable): the views are made
    }
  }

  private scheduleSave(root: string): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save(root);
    }, SAVE_DELAY_MS);
    this.saveTimer.unref?.();
  }

  /** Writes the views made for `root` (at once, when one is scheduled: at shutdown). */
  async save(root = this.root): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    if (root !== this.root || !root) return;
    await writeFileAtomic(sidebarItemsFile(root), JSON.stringify({ version: VIEW_VERSION, items: Object.fromEntries(this.made) })).catch((e: Error) =>
      this.log?.warn(`corpus view: keeping the item views failed (the next start makes them again): ${e.message}`),
    );
  }
}
