/**
 * The `markerResearch.*` settings: one zod schema is the source of truth; a unit
 * test checks package.json `contributes.configuration` against it.
 */
import { z } from 'zod';

export const SETTINGS_SECTION = 'markerResearch';

export const settingsSchema = z.object({
  /** Corpus folder; empty means the first workspace folder. Relative paths resolve against it. */
  corpusPath: z.string().default(''),
  /** Index the corpus automatically when the sidebar opens. */
  indexOnOpen: z.boolean().default(false),
});

export type Settings = z.infer<typeof settingsSchema>;

/** Descriptions shown in the Settings UI, kept next to the schema. */
export const SETTING_DESCRIPTIONS: Record<keyof Settings, string> = {
  corpusPath: 'Folder of the corpus (transcripts, comments, meta.json). Empty: the first workspace folder. Relative paths resolve against it.',
  indexOnOpen: 'Index the corpus automatically when the Marker Research view opens.',
};
