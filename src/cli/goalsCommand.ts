/**
 * `marker-research goals <corpusDir> [--json] [--items …] [--max N] [--provider …]`: the research
 * goals the corpus suggests (Phase 1 alone: nothing is planned or run, no run folder is written).
 * Missing markers are generated first with the same engine, as `research` does. Prints each
 * goal's id, title, the items it covers (how many, and the titles of a few) and its rationale;
 * `--json` prints the goals array (the shape of goals.json's `goals`).
 */
import type { Corpus } from '../core/corpus/types';
import { discoverGoals } from '../core/research/pipeline';
import { NothingToResearchError, nothingToResearch } from '../core/research/nothingToResearch';
import type { Goal } from '../core/research/schema';
import { consoleLogger } from '../core/util/log';
import { clip, parseCommandArgs, UsageError, type CliContext } from './io';
import { readItemsOption } from './itemScope';
import { intOption } from './markersCommand';
import { shellWord } from './plannedRun';
import { ENGINE_USAGE, engineOptions, ITEMS_USAGE, OVERVIEW_USAGE, prepareResearch, researchConfigOptions, SHARED_RESEARCH_OPTIONS } from './researchSetup';

/** Goals listed when `--max` is not given. */
const DEFAULT_MAX_GOALS = 5;
/** Item titles shown per goal (the rest are counted). */
const TITLES_SHOWN = 3;
/** Columns of one item title in the list. */
const TITLE_WIDTH = 32;

export const GOALS_USAGE = `marker-research goals <corpusDir> [options]
  --max N             at most N goals, 1–20 (default ${DEFAULT_MAX_GOALS})
${ITEMS_USAGE}
${ENGINE_USAGE}
${OVERVIEW_USAGE}
  --json              the goals as a JSON array (goal_id, title, rationale, item_ids, marker_ids)
  Lists the research goals the corpus suggests: id, title, the items each covers, and why.
  Nothing is planned or run: research --goal "<title>" --plan-only plans one for review.`;

/** Runs the goals command. */
export async function goalsCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: { ...SHARED_RESEARCH_OPTIONS, max: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('goals: expected exactly one corpus folder');
  const engine = engineOptions(values);
  const maxGoals = values.max === undefined ? DEFAULT_MAX_GOALS : intOption('max', values.max, { min: 1, max: 20 });
  const config = researchConfigOptions(values);
  const scope = await readItemsOption(values.items);
  const log = consoleLogger(ctx.err, { level: values.verbose ? 'debug' : 'warn' });
  const research = await prepareResearch(ctx, { command: 'goals', dir: positionals[0]!, engine, config, ...(scope ? { scope } : {}), json: values.json, log });
  if (!research) return 1;
  const nothing = nothingToResearch(research.corpus);
  if (nothing) throw new NothingToResearchError(nothing);
  const goals = await discoverGoals(research, { maxGoals });
  if (values.json) ctx.out.write(`${JSON.stringify(goals, null, 2)}\n`);
  else ctx.out.write(renderGoals(research.corpus, goals, scope));
  return 0;
}

/** The text listing of `goals` (ends with a newline). */
export function renderGoals(corpus: Pick<Corpus, 'root' | 'items'>, goals: readonly Goal[], scope?: readonly string[]): string {
  const titles = new Map(corpus.items.map((i) => [i.id, i.title]));
  const inScope = scope?.length ?? corpus.items.length;
  const lines = [`goals of ${corpus.root} (${inScope} item${inScope === 1 ? '' : 's'}${scope ? ' in scope' : ''}):`, ''];
  for (const g of goals) {
    const n = g.item_ids.length;
    const shown = g.item_ids.slice(0, TITLES_SHOWN).map((id) => clip(titles.get(id) || id, TITLE_WIDTH));
    lines.push(
      `${g.goal_id}  ${g.title}`,
      `    items: ${n} — ${shown.join('; ')}${n > TITLES_SHOWN ? `; … (${n - TITLES_SHOWN} more)` : ''}`,
      `    why: ${g.rationale}`,
      '',
    );
  }
  if (!goals.length) lines.push('(no goals)', '');
  if (goals.length) lines.push(`plan one for review: marker-research research ${shellWord(corpus.root)}${scope ? ' --items …' : ''} --goal "<title>" --plan-only (without --goal: the first goal found)`);
  return `${lines.join('\n')}\n`;
}
