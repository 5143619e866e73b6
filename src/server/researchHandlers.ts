/**
 * The research requests of the engine (see src/shared/lspProtocol.ts):
 * the research state, Discover Goals, Plan, Run, Run Planned and Resume as
 * long work (work-done progress, cancellable), and the notifications that
 * carry the state, live step status and planning notices to the client. The
 * research itself is `researchRuns.ts`; params are parsed here (zod).
 */
import type { CancellationToken, ProgressToken } from 'vscode-languageserver/node';
import { z } from 'zod';
import {
  discoverGoalsRequest, planResearchRequest, researchChangedNotification, researchNoticeNotification, researchStateRequest, researchStepNotification,
  resumeResearchRequest, runPlannedRequest, runResearchRequest, type GoalChoice,
} from '../shared/lspProtocol';
import type { HandlerContext } from './handlerContext';
import { modelAccessOf, parseParams } from './requestParams';
import { ResearchRuns, type ResearchCall } from './researchRuns';
import { guarded, runWork } from './work';

const accessSchema = z.object({
  settings: z.unknown(),
  apiKey: z.string().optional(),
});

const goalChoiceSchema: z.ZodType<GoalChoice> = z.union([z.literal('auto'), z.object({ goalId: z.string().min(1) }), z.object({ text: z.string().trim().min(1) })]);
const goalParamsSchema = accessSchema.extend({ goal: goalChoiceSchema });
const runParamsSchema = accessSchema.extend({ runId: z.string().min(1) });
const stateParamsSchema = z.object({ reload: z.boolean().optional(), runId: z.string().min(1).optional() }).nullish();

export function registerResearchHandlers(ctx: HandlerContext): ResearchRuns {
  const { connection, state, running } = ctx;
  /** A notification to the client; one the connection can no longer carry (closed, disposed) is dropped. */
  const send = (notify: () => Promise<void>): void => {
    try {
      notify().catch(() => undefined);
    } catch {
      // the client is gone: nobody to tell
    }
  };
  const research = new ResearchRuns(state, {
    changed: (snapshot) => send(() => connection.sendNotification(researchChangedNotification, snapshot)),
    step: (params) => send(() => connection.sendNotification(researchStepNotification, params)),
    notice: (phase, message) => send(() => connection.sendNotification(researchNoticeNotification, { phase, message })),
  });

  /** Long research work: params parsed, progress on the client's token, cancel by the request or cancel-all, errors as the protocol carries them. */
  const work = <P extends { settings?: unknown; apiKey?: string }, T>(
    method: string,
    title: string,
    schema: z.ZodType<P>,
    raw: { workDoneToken?: ProgressToken },
    token: CancellationToken,
    fn: (params: P, call: ResearchCall) => Promise<T>,
  ): Promise<T> =>
    runWork(connection, running, { title: `Marker Research: ${title}`, workDoneToken: raw.workDoneToken, token }, async (signal, onProgress) => {
      const params = parseParams(schema, raw, method);
      return fn(params, { access: modelAccessOf(params), signal, onProgress });
    });

  connection.onRequest(
    researchStateRequest,
    guarded(async (raw) => {
      const params = parseParams(stateParamsSchema, raw, researchStateRequest.method);
      if ((params?.reload || params?.runId) && state.current()) await research.reload(params.runId);
      return research.snapshot();
    }),
  );
  connection.onRequest(discoverGoalsRequest, async (raw, token) => ({ goals: await work(discoverGoalsRequest.method, 'discovering research goals', accessSchema, raw, token, (_, call) => research.discoverGoals(call)) }));
  connection.onRequest(planResearchRequest, (raw, token) => work(planResearchRequest.method, 'planning research', goalParamsSchema, raw, token, (p, call) => research.plan(p.goal, call)));
  connection.onRequest(runResearchRequest, (raw, token) => work(runResearchRequest.method, 'research', goalParamsSchema, raw, token, (p, call) => research.run(p.goal, call)));
  connection.onRequest(runPlannedRequest, (raw, token) => work(runPlannedRequest.method, 'research', runParamsSchema, raw, token, (p, call) => research.runPlanned(p.runId, call)));
  connection.onRequest(resumeResearchRequest, (raw, token) => work(resumeResearchRequest.method, `resuming research ${raw.runId}`, runParamsSchema, raw, token, (p, call) => research.resume(p.runId, call)));
  return research;
}
