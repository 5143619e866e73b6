/**
 * The way in: the Getting Started walkthrough (`contributes.walkthroughs`: open a corpus, index,
 * read markers, run research, set up a model) and "Use a Model…", which sets the provider, base
 * URL, model and API key in a few steps instead of four settings.
 */
import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';

/** The extension's id (`publisher.name` of package.json). */
export const EXTENSION_ID = 'marker-research.marker-research';
/** The walkthrough's id in `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'markerResearch.gettingStarted';
/** Steps of the walkthrough, by their id in package.json. */
export type WalkthroughStep = 'openCorpus' | 'index' | 'markers' | 'research' | 'model';

/** Opens the Getting Started walkthrough, at `step` when given. */
export async function openWalkthrough(step?: WalkthroughStep): Promise<void> {
  const category = `${EXTENSION_ID}#${WALKTHROUGH_ID}`;
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', step ? { category, step: `${category}#${step}` } : category, false);
}

interface ProviderPick extends vscode.QuickPickItem {
  provider: 'openai' | 'ollama' | 'extractive';
  baseUrl: string;
  models: string;
}

/** The providers to pick from (a function: the labels are read in the display language when the pick opens). */
const providers = (): ProviderPick[] => [
  { label: `$(cloud) ${vscode.l10n.t('OpenAI-compatible server')}`, description: 'openai', detail: vscode.l10n.t('OpenAI, Qwen/DashScope, DeepSeek, vLLM, LM Studio… (needs an API key for hosted services)'), provider: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o-mini' },
  { label: '$(server) Ollama', description: 'ollama', detail: vscode.l10n.t('A local Ollama server; no API key'), provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', models: 'qwen2.5:7b' },
  { label: `$(circle-slash) ${vscode.l10n.t('No model (extractive)')}`, description: 'extractive', detail: vscode.l10n.t('Offline: markers, goals and reports from the text itself'), provider: 'extractive', baseUrl: '', models: '' },
];

/** Where the settings go: the workspace when a folder is open, else the user settings. */
function target(): vscode.ConfigurationTarget {
  return vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/**
 * "Use a Model…": provider, base URL, model (and the API key for an OpenAI-compatible server),
 * written to `markerResearch.provider`, `.baseUrl`, `.model` and the secret storage.
 * @returns whether a model is set up now.
 */
export async function setUpModel(apiKey: ApiKeyStore, log: vscode.LogOutputChannel): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('markerResearch');
  const current = config.get<string>('provider', 'extractive');
  const pick = await vscode.window.showQuickPick(
    providers().map((p) => ({ ...p, picked: p.provider === current })),
    { title: vscode.l10n.t('Marker Research: Use a Model (1/3) — provider'), placeHolder: vscode.l10n.t('Where markers, goals and reports come from (now: {0})', current), ignoreFocusOut: true },
  );
  if (!pick) return false;
  if (pick.provider === 'extractive') {
    await config.update('provider', 'extractive', target());
    log.info('settings: provider set to extractive (no model)');
    void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: the extractive engine is used (no model).'));
    return false;
  }
  const sameProvider = current === pick.provider;
  const baseUrl = await vscode.window.showInputBox({
    title: vscode.l10n.t('Marker Research: Use a Model (2/3) — base URL'),
    prompt: pick.provider === 'openai' ? vscode.l10n.t('API root of the server (…/v1). Empty: OpenAI.') : vscode.l10n.t('Address of the Ollama server. Empty: the local default.'),
    value: sameProvider ? config.get<string>('baseUrl', '') : '',
    placeHolder: pick.baseUrl,
    ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() || /^https?:\/\/\S+$/i.test(v.trim()) ? undefined : vscode.l10n.t('A URL starting with http:// or https://')),
  });
  if (baseUrl === undefined) return false;
  const model = await vscode.window.showInputBox({
    title: vscode.l10n.t('Marker Research: Use a Model (3/3) — model'),
    prompt: vscode.l10n.t('The model name the server knows'),
    value: sameProvider ? config.get<string>('model', '') : '',
    placeHolder: pick.models,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A model name, e.g. {0}', pick.models)),
  });
  if (model === undefined) return false;
  await config.update('provider', pick.provider, target());
  await config.update('baseUrl', baseUrl.trim(), target());
  await config.update('model', model.trim(), target());
  log.info(`settings: provider ${pick.provider}, base URL ${baseUrl.trim() || '(default)'}, model ${model.trim()}`);
  const hosted = pick.provider === 'openai' && !/^https?:\/\/(?:localhost|127\.|\[::1\])/i.test(baseUrl.trim());
  if (hosted && (await apiKey.get()) === undefined) {
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('Marker Research: API key'),
      prompt: vscode.l10n.t("API key for the server, kept in VS Code's secret storage (never in settings or logs). Empty: none."),
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() && /\s/.test(v.trim()) ? vscode.l10n.t('An API key has no spaces.') : undefined),
    });
    if (key?.trim()) {
      await apiKey.set(key.trim());
      log.info('API key stored in secret storage');
    }
  }
  return true;
}
