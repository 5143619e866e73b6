/**
 * Entry point. `activate` only builds the services and registers the command
 * map, the sidebar view, the full-item documents and the language client into
 * `context.subscriptions`.
 */
import * as vscode from 'vscode';
import { AskService } from './askService';
import { VectorService } from './vectorService';
import { registerChatParticipant } from './chatParticipant';
import { ChatService } from './chatService';
import { ChatViewProvider } from './chatView';
import { createChatActions, createCommands, refreshSidebar, showError } from './commands';
import { CorpusService } from './corpusService';
import { CorpusLanguageClient } from './languageClient';
import { EvidenceNavigator } from './evidenceNavigator';
import { startEventLoopStats } from './eventLoopStats';
import { FULL_ITEM_SCHEME, FullItemDocuments } from './fullItemDocuments';
import { ApiKeyStore } from './apiKeyStore';
import { registerAcrossViews } from './acrossViewCommands';
import { MarkerService } from './markerService';
import { ReadableAnnotations } from './readableAnnotations';
import { redactingLogChannel } from './redactingLog';
import { ResearchService } from './researchService';
import { runningWork } from './runningWork';
import { SettingsService } from './settings';
import { SidebarViewProvider } from './sidebarView';
import { setUpWorkbench, sidebarWorkbenchCommand } from './workbenchSetup';

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Marker Research', { log: true });
  context.subscriptions.push(channel);
  const log = redactingLogChannel(channel);
  try {
    const run = (command: string, ...args: unknown[]) => async (): Promise<void> => void (await vscode.commands.executeCommand(command, ...args));
    const settings = new SettingsService(log);
    const client = new CorpusLanguageClient(context, log);
    const corpus = new CorpusService(log, client, settings);
    const apiKey = new ApiKeyStore(context.secrets);
    const markers = new MarkerService(log, settings, client, apiKey);
    const fullItems = new FullItemDocuments(log, client, corpus);
    const evidence = new EvidenceNavigator(log, client, corpus, fullItems, settings);
    const research = new ResearchService(log, settings, corpus, apiKey, client);
    const ask = new AskService(log, settings, client, apiKey, (span, original, what) => evidence.openSpan(span, original, what));
    const vectors = new VectorService(log, client);
    const sidebar = new SidebarViewProvider(
      context.extensionUri,
      {
        indexCorpus: run('markerResearch.indexCorpus'),
        openItem: (id, part) => run('markerResearch.openItem', id, part)(),
        openProblem: (i) => run('markerResearch.openProblem', i)(),
        openMarker: (itemId, markerId) => run('markerResearch.openMarker', itemId, markerId)(),
        retrieveFullItem: (itemId) => run('markerResearch.retrieveFullItem', itemId)(),
        generateMarkers: run('markerResearch.generateMarkers'),
        discoverGoals: run('markerResearch.discoverGoals'),
        planResearch: (goal) => run('markerResearch.planResearch', { goal })(),
        runResearch: (goal) => run('markerResearch.runResearch', { goal })(),
        openReport: (runId) => run('markerResearch.openReport', runId ?? null)(),
        askFollowup: (runId) => run('markerResearch.askFollowup', { runId })(),
        resumeResearch: (runId) => run('markerResearch.resumeResearch', { runId })(),
        showRun: (runId) => run('markerResearch.showRun', runId)(),
        cancel: run('markerResearch.cancel'),
        ask: (question) => ask.ask(question),
        openHit: (itemId, part, start, end) => run('markerResearch.openHit', itemId, part, start, end)(),
        workbench: (action, target) => run(sidebarWorkbenchCommand(action, target), target)(),
      },
      log,
    );
    const chat = new ChatService(log, settings, corpus, research, client, apiKey, context.workspaceState, (span, original, what) => evidence.openSpan(span, original, what), async () => {
      if (!corpus.current) await vscode.commands.executeCommand('markerResearch.indexCorpus');
      return corpus.current;
    });
    const chatView = new ChatViewProvider(context.extensionUri, { ...createChatActions({ log, chat }), pinAnswer: (conversationId, turn) => run('markerResearch.pinChatAnswer', conversationId, turn)() }, log);
    const services = { log, settings, corpus, client, sidebar, markers, evidence, fullItems, apiKey, research, ask, chat, chatView };
    const workbench = setUpWorkbench({ log, client, corpus, evidence });
    const commands = { ...createCommands(services), ...evidence.commands(), ...workbench.commands };
    context.subscriptions.push(
      settings,
      corpus,
      markers,
      evidence,
      fullItems,
      new ReadableAnnotations(log, fullItems, settings),
      client,
      sidebar,
      markers.onDidChange(() => refreshSidebar(services)),
      markers.onDidProgress((u) => sidebar.setProgress(u, vscode.l10n.t('Generating markers'))),
      // The engine restarted after a crash: its state is gone; load the corpus again (the persisted index and markers make it quick).
      client.onDidRestart(() => {
        if (!settings.corpusRoot()) return;
        void vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: the engine stopped unexpectedly and was restarted; the corpus is loaded again. An interrupted research run can be resumed.'));
        void vscode.commands.executeCommand('markerResearch.indexCorpus');
      }),
      research,
      runningWork,
      research.onDidChange((state) => sidebar.setResearch(state)),
      research.onDidChangeStep((e) => sidebar.setStepStatus(e.runId, e.stepId, e.status)),
      ask,
      ask.onDidUpdate((msg) => sidebar.postAsk(msg)),
      vectors,
      // A new provider, server or embedding model: the next question rebuilds the ask context (vectors are kept per embedding settings).
      settings.onDidChange(() => ask.invalidate()),
      ...sidebar.register(),
      chat,
      chatView,
      chat.onDidUpdate((msg) => chatView.post(msg)),
      vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chatView),
      registerChatParticipant(chat, log, context.extensionUri) ?? new vscode.Disposable(() => undefined),
      vscode.workspace.registerTextDocumentContentProvider(FULL_ITEM_SCHEME, fullItems),
      vscode.languages.registerDocumentLinkProvider({ scheme: FULL_ITEM_SCHEME }, fullItems),
      vscode.languages.registerCodeLensProvider({ scheme: FULL_ITEM_SCHEME }, evidence),
      ...registerAcrossViews(context.extensionUri, log, client, corpus),
      ...workbench.disposables,
      ...Object.entries(commands).map(([id, fn]) => vscode.commands.registerCommand(id, fn)),
    );
    client.start().catch((e: Error) => void showError(log, vscode.l10n.t('the language server did not start: {0}', e.message)));
    const loopStats = startEventLoopStats(log);
    if (loopStats) context.subscriptions.push(loopStats);
    if (settings.value.indexOnOpen) void vscode.commands.executeCommand('markerResearch.indexCorpus');
    log.info(`Marker Research activated (version ${String(context.extension.packageJSON.version)})`);
  } catch (e) {
    void showError(log, vscode.l10n.t('activation failed: {0}', (e as Error).message));
    throw e;
  }
}

export function deactivate(): void {}
