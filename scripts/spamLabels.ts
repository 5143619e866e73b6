/**
 * Reads the spam labels of a labelled comments corpus (yt-spam-en-dev's layout: `<item>/comments.jsonl`
 * rows with `comment_id`, `text`, `author` and `spam` 0/1). Used by scripts/trainSpam.ts and
 * bench/spamQuality.ts; the product never reads labels.
 */
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

const rowSchema = z.object({ comment_id: z.string(), text: z.string(), author: z.string().nullish(), spam: z.union([z.literal(0), z.literal(1)]) });

/** One labelled comment of an item. */
export interface LabelledRow {
  item: string;
  id: string;
  text: string;
  author?: string;
  spam: boolean;
}

/** A labels file that does not parse: names the file and line. */
export class SpamLabelsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`spam labels: ${file}:${line}: ${message}`);
  }
}

/**
 * Every labelled comment under `dir`, items in name order and comments in file order (the same
 * order on every machine). A row without a 0/1 `spam` is skipped; a line that is not JSON is an error.
 */
export async function readSpamLabels(dir: string): Promise<LabelledRow[]> {
  const out: LabelledRow[] = [];
  const items = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  for (const item of items) {
    const file = path.join(dir, item, 'comments.jsonl');
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? '' : Promise.reject(e)));
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (e) {
        throw new SpamLabelsError(file, i + 1, (e as Error).message);
      }
      const r = rowSchema.safeParse(json);
      if (r.success) out.push({ item, id: r.data.comment_id, text: r.data.text, ...(r.data.author ? { author: r.data.author } : {}), spam: r.data.spam === 1 });
    });
  }
  return out;
}
