/**
 * The `@research` chat participant: the same conversation as the Chat view, in VS Code's own
 * chat where the editor has one (code-server 4.100.3 has the API but no chat view to show it).
 */
import * as vscode from 'vscode';
import { MarkdownReducer } from '../core/text/markdownReduce';
import { markdownText } from '../core/text/markdownSafe';
import type { ChatService } from './chatService';

/**
 * Markdown for the chat stream: untrusted (no command links run), no HTML, no theme icons. Every
 * text shown comes through the Markdown reducer or {@link markdownText} first.
 */
function untrusted(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/**
 * `@research` in VS Code's Chat view, serving the conversation of the Chat view
 * (same turns, same numbering; `/new` starts a new one about the same run).
 * Registered only where the chat API exists; code-server without a chat
 * provider has the API but shows no Chat view, so the webview stays the main path.
 */
export function registerChatParticipant(service: ChatService, log: vscode.LogOutputChannel, extensionUri: vscode.Uri): vscode.Disposable | undefined {
  const chat = (vscode as { chat?: typeof vscode.chat }).chat;
  if (typeof chat?.createChatParticipant !== 'function') {
    log.info('chat: this editor has no chat API; @research is not registered (the Chat view serves the conversation)');
    return undefined;
  }
  const handler: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
    if (request.command === 'new') {
      await service.newConversation(service.runId);
      stream.markdown(untrusted(service.runId ? vscode.l10n.t('New conversation about run {0}.', markdownText(service.runId)) : vscode.l10n.t('New conversation about the whole corpus.')));
      return {};
    }
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      stream.progress(service.runId ? vscode.l10n.t('Answering from the report of run {0}…', service.runId) : vscode.l10n.t('Searching the corpus…'));
      // The answer (the model's Markdown, or corpus quotes) is reduced line by line as it streams:
      // its links, images and HTML come out as text, its fences closed; its `[n]` stay.
      const answer = new MarkdownReducer();
      const show = (text: string): void => {
        if (text) stream.markdown(untrusted(text));
      };
      let result: Awaited<ReturnType<ChatService['askQuestion']>>;
      try {
        result = await service.askQuestion(service.conversationId ?? null, request.prompt, { signal: controller.signal, onDelta: (t) => show(answer.push(t)) });
      } finally {
        show(answer.end());
      }
      if (!result) return {};
      const turn = result.turn;
      for (const l of turn.loaded) show(`\n\n> **[${l.number}]** ${markdownText(l.text.replace(/\s+/g, ' '))}`);
      // Where each citation opens, as the engine resolved it.
      for (const p of result.places) {
        const r = p.range;
        try {
          stream.reference(new vscode.Location(vscode.Uri.file(p.path), new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn)));
        } catch {}
      }
      if (turn.engine === 'extractive') show('\n\n*extractive: no model wrote this answer*');
      return { metadata: { conversationId: service.conversationId, turn: turn.turn } };
    } catch (e) {
      return { errorDetails: { message: (e as Error).message.replace(/^chat: /, '') } };
    } finally {
      sub.dispose();
    }
  };
  const participant = chat.createChatParticipant('markerResearch.research', handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
  log.info('chat: @research registered with the chat API');
  return participant;
}
