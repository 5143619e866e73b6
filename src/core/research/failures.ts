/**
 * How a run tells the truth about failures (issue 10, class 1): the plain cause of a failed model
 * call (from the `LlmError` reason and HTTP status), and the status of a run from its steps and
 * report — `done` only when every step did, the report is not a fallback and its findings cite
 * something; `failed` when no step succeeded; `partial` otherwise, with the count ("2 of 3 steps
 * failed") and the causes.
 *
 * @example
 * failureCause(new LlmError('auth', 'not authorised: 401 …', { status: 401 }));
 * // → "the model server rejected the API key (401)"
 */
import type { RunManifest, StepResult } from './schema';

const MAX_DETAIL = 160;

function clip(text: string, n = MAX_DETAIL): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

/**
 * The cause of a failure in plain words, for run.json, the CLI and the extension. Model-layer
 * errors (`LlmError`, told apart by `reason` and `status`) get a sentence naming what the server
 * did; anything else its message (without the `llm:` / `research:` prefix), clipped.
 */
export function failureCause(error: unknown): string {
  const e = (error ?? {}) as { reason?: unknown; status?: unknown; message?: unknown; issues?: unknown };
  const message = typeof e.message === 'string' ? e.message.replace(/^(?:llm|research):\s*/, '') : String(error);
  const status = typeof e.status === 'number' ? e.status : undefined;
  const code = status !== undefined ? ` (${status})` : '';
  switch (e.reason) {
    case 'auth':
      if (/quota/i.test(message)) return `the model account's quota is exhausted${code}`;
      return status === 403 ? `the model server refused access with this API key (403)` : `the model server rejected the API key${status !== undefined ? code : ' (401)'}`;
    case 'rate-limited':
      return `the model server kept rate-limiting the requests${status !== undefined ? code : ' (429)'}, retries exhausted`;
    case 'server':
      if (/unparsable|not valid json|unexpected token/i.test(message)) return 'the model server sent a reply that is not JSON (e.g. an HTML page)';
      return `the model server failed with a server error${status !== undefined ? ` (HTTP ${status})` : ''}, retries exhausted`;
    case 'network':
      return `the model server could not be reached or dropped the connection (network error: ${clip(message, 80)})`;
    case 'timeout':
      return 'the model server did not answer in time (timeout)';
    case 'context-length':
      return "the prompt is longer than the model's context window (context-length error)";
    case 'invalid-reply': {
      const issue = Array.isArray(e.issues) && typeof e.issues[0] === 'string' ? e.issues[0] : message;
      return `the model's replies were invalid even after a repair round (${clip(issue, 100)})`;
    }
    case 'config':
      return `the model server rejected the request${code}: ${clip(message)}`;
    default:
      return clip(message) || 'unknown error';
  }
}

/** What {@link runOutcome} decides. */
export interface RunOutcome {
  status: Extract<RunManifest['status'], 'done' | 'partial' | 'failed'>;
  /** Failed and total steps, when a step failed. */
  failed_steps?: { failed: number; total: number };
  /** The distinct causes, in order of first appearance. */
  causes?: string[];
  /** One line: "2 of 3 steps failed (s1, s3): …; the report is a fallback: …". */
  error?: string;
}

/** "3 of 3 steps failed (s1, s2, s3): cause; cause" — undefined when no step failed. */
export function stepFailureSummary(stepIds: readonly string[], results: ReadonlyMap<string, StepResult>): { failed: string[]; causes: string[]; text: string } | undefined {
  const failed = stepIds.filter((id) => results.get(id)?.status !== 'done');
  if (!failed.length) return undefined;
  const causes: string[] = [];
  for (const id of failed) {
    const r = results.get(id);
    const c = r?.cause ?? (r?.error ? failureCause(new Error(r.error)) : 'the step did not run');
    if (!causes.includes(c)) causes.push(c);
  }
  const ids = failed.length > 6 ? `${failed.slice(0, 6).join(', ')}, …` : failed.join(', ');
  return { failed, causes, text: `${failed.length} of ${stepIds.length} step${stepIds.length === 1 ? '' : 's'} failed (${ids}): ${causes.join('; ')}` };
}

/** How many of a run's findings there are, and how many cite no source that resolves to a span. */
export interface FindingSources {
  total: number;
  unsourced: number;
}

/** "none of the 4 findings cites a source that resolves to the corpus" — undefined unless every finding (of at least one) is unsourced. */
export function unsourcedSummary(findings: FindingSources | undefined): string | undefined {
  if (!findings || findings.total === 0 || findings.unsourced < findings.total) return undefined;
  return `none of the ${findings.total} finding${findings.total === 1 ? '' : 's'} cites a source that resolves to the corpus, so the report cites nothing`;
}

/**
 * The status of a finished run: `done` only when every step is done, the report is not a
 * fallback and some finding cites a source (or there are no findings); `failed` when no step
 * succeeded; `partial` otherwise.
 * @param fallback why the report is a fallback (the model could not write it), if it is one.
 * @param findings the report's findings and how many are unsourced: all of them unsourced makes the run `partial`.
 */
export function runOutcome(stepIds: readonly string[], results: ReadonlyMap<string, StepResult>, fallback?: string, findings?: FindingSources): RunOutcome {
  const steps = stepFailureSummary(stepIds, results);
  const unsourced = unsourcedSummary(findings);
  if (!steps && !fallback && !unsourced) return { status: 'done' };
  const causes = [...(steps?.causes ?? [])];
  const parts = steps ? [steps.text] : [];
  if (fallback) {
    parts.push(`the report is a fallback: ${fallback}`);
    if (!causes.includes(fallback)) causes.push(fallback);
  }
  if (unsourced) {
    parts.push(unsourced);
    causes.push(unsourced);
  }
  return {
    status: steps && steps.failed.length === stepIds.length ? 'failed' : 'partial',
    ...(steps ? { failed_steps: { failed: steps.failed.length, total: stepIds.length } } : {}),
    causes,
    error: parts.join('; '),
  };
}
