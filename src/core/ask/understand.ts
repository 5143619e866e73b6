/**
 * Query understanding, one entry point for both engines: the offline rules
 * (the default) or, with a model, one structured call whose reply is linked
 * to the corpus the same way (speaker labels, names, coreference) and merged
 * with what the rules are sure of (citation forms). A failed model call
 * falls back to the rules and says so.
 */
import { hasPart } from '../corpus/types';
import type { ModelClient } from '../llm/client';
import type { Usage } from '../llm/types';
import { isCancellation } from '../llm/types';
import { findMentions } from './entityMentions';
import type { AskInput, LinkedEntity, ParsedQuery } from './query';
import { checkModelReading } from './modelReading';
import { chooseStrategies, hasTopic } from './strategyPlan';
import { understandWithModel, toTimeConstraint, type UnderstandingHints } from './understandModel';
import { understandWithRules, type UnderstandContext } from './understandRules';

export interface UnderstandOptions {
  model?: ModelClient;
  promptsDir?: string;
  signal?: AbortSignal;
}

export interface Understood {
  query: ParsedQuery;
  usage?: Usage;
  /** Why the model engine was not used, when it was asked for and failed. */
  fallback?: string;
}

/** Understands a question with the model when one is given, else (or when it fails) with the rules. */
export async function understand(input: AskInput, ctx: UnderstandContext, options: UnderstandOptions = {}): Promise<Understood> {
  const rules = understandWithRules(input, ctx);
  if (!options.model || !options.promptsDir) return { query: rules };
  const scope = input.itemId ? [input.itemId] : undefined;
  const ents = input.itemId ? ctx.entities.item(input.itemId) : undefined;
  const known = [...ctx.entities.names().values()].flat().filter((n) => n.kind === 'name' && (!scope || n.itemIds.some((id) => scope.includes(id)))).sort((a, b) => b.count - a.count);
  const hints: UnderstandingHints = {
    ...(ents ? { itemTitle: ents.title } : {}),
    speakers: ctx.entities.speakers(scope),
    knownEntities: known.slice(0, 200).map((n) => n.name),
    corpusLanguage: corpusLanguage(ctx),
    ...(ents?.durationS !== undefined ? { durationS: ents.durationS } : {}),
    hasComments: (ctx.corpus?.items ?? []).some((i) => (!scope || scope.includes(i.id)) && hasPart(i, 'comments')),
  };
  try {
    const { reply, usage } = await understandWithModel(options.model, input, hints, { promptsDir: options.promptsDir, signal: options.signal });
    // Link the model's entities to the corpus; keep the rules' own links for the same names.
    const entities: LinkedEntity[] = [];
    for (const name of reply.entities) {
      const fromRules = rules.entities.find((e) => e.label.toLowerCase() === name.toLowerCase() || e.text.toLowerCase() === name.toLowerCase());
      const linked = fromRules ?? findMentions(name, ctx.entities, ctx.corpus, { itemIds: scope, itemTexts: ctx.itemTexts })[0]?.entity;
      entities.push(linked ? { ...linked, text: name } : { text: name, label: name, kind: 'unlinked', itemIds: [], fromSession: false });
    }
    const keywords = [...new Set([...reply.keywords, ...reply.corpus_keywords])];
    // The model's reading is checked against the question, the session and the rules before it is trusted.
    const checked = checkModelReading(input.question, input.session ?? [], { intent: reply.intent, entities, citationNumbers: reply.citation_numbers, timeConstraint: toTimeConstraint(reply.time_constraint) }, rules);
    const intent = checked.intent;
    const query: ParsedQuery = {
      ...rules,
      intent,
      entities: checked.entities,
      // The question's own content terms stay whatever the model gave (issue 22): a model that drops the topic of a question
      // about people or the audience does not lose it.
      keywords: [...new Set([...keywords, ...rules.keywords])],
      searchText: keywords.length ? keywords.join(' ') : rules.searchText,
      timeConstraint: checked.timeConstraint,
      part: reply.part,
      citationNumbers: checked.citationNumbers,
      // The model's paraphrase serves retrieval; the answerer is always given the user's own question.
      resolvedQuery: reply.resolved_query || rules.resolvedQuery,
      confidence: reply.confidence,
      strategies: chooseStrategies(intent, { hasTopic: hasTopic([...keywords, ...rules.keywords]), vectors: !!ctx.vectors }),
      engine: 'model',
      ...(checked.notes.length ? { notes: [...(rules.notes ?? []), ...checked.notes] } : {}),
    };
    return { query, usage };
  } catch (e) {
    if (isCancellation(e)) throw e;
    return { query: rules, fallback: `the model could not understand the question (${(e as Error).message}); used the offline rules` };
  }
}

function corpusLanguage(ctx: UnderstandContext): UnderstandingHints['corpusLanguage'] {
  const sample = (ctx.corpus?.items ?? []).slice(0, 5).map((i) => (i.transcript?.text ?? i.comments?.text ?? '').slice(0, 2000)).join(' ');
  if (!sample) return 'other';
  const han = sample.match(/\p{Script=Han}/gu)?.length ?? 0;
  if (han > sample.length * 0.2) return 'zh';
  if (/\b(?:que|los|las|pero|para|porque|está|muy)\b/iu.test(sample) && (sample.match(/\b(?:que|los|las|para)\b/giu)?.length ?? 0) > (sample.match(/\b(?:the|and|to|of)\b/giu)?.length ?? 0)) return 'es';
  return 'en';
}
