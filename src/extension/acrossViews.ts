/**
 * The "Across items" commands (issue 24): **Markers Across Items…** (pick a kind or a topic from
 * the engine's counts, or type words of a topic; a panel lists the markers grouped by topic, then
 * item, each opening its exact span), **Compare Items…** (pick two or more items, or start from the
 * item the sidebar's context menu was opened on; a panel shows them side by side) and **Items
 * Timeline** (a panel of the items by date with their marker counts). The engine builds every
 * model (`markerResearch/markersAcross`, `compareItems`, `itemTimeline`); clicks go through the
 * commands the sidebar uses (`openMarker`, `openHit`, `retrieveFullItem`).
 */
import * as vscode from 'vscode';
import { ALL_KINDS as MARKER_KINDS } from '../shared/sidebarModel';
import type { MarkerKindName as MarkerKind } from '../shared/webviewProtocol';
import { CancelledError } from '../core/util/abort';
import type { AcrossQuery, CompareQuery, TimelineQuery } from '../shared/acrossModel';
import type { AcrossToHost } from '../shared/acrossWebviewProtocol';
import { compareItemsRequest, itemTimelineRequest, markersAcrossRequest } from '../shared/workbenchProtocol';
import { AcrossPanel } from './acrossViewPanel';
import { acrossPickRows, comparePickRows, queryLabel, typedTopicQuery, type PickWords } from './acrossViewPicks';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';

type PanelMessage = Exclude<AcrossToHost, { type: 'ready' }>;

/** Items a comparison takes at most (the engine's limit). */
const COMPARE_MAX = 50;

/** What a command was given: `{ topic }` / `{ kinds }` (Markers Across Items), `{ itemId }` / `{ itemIds }` (Compare Items). */
function objectArg(arg: unknown): Record<string, unknown> {
  return arg && typeof arg === 'object' ? (arg as Record<string, unknown>) : {};
}

function kindsArg(v: unknown): MarkerKind[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const kinds = v.filter((k): k is MarkerKind => (MARKER_KINDS as readonly string[]).includes(k));
  return kinds.length ? kinds : undefined;
}

/** `12 markers`, `1 marker` */
const markersWord = (n: number): string => (n === 1 ? vscode.l10n.t('1 marker') : vscode.l10n.t('{0} markers', n.toLocaleString('en-US')));
const itemsWord = (n: number): string => (n === 1 ? vscode.l10n.t('1 item') : vscode.l10n.t('{0} items', n.toLocaleString('en-US')));

/** The words of the pick lists, in the display language. */
function pickWords(): PickWords {
  return {
    kinds: vscode.l10n.t('Kinds of marker'),
    topics: vscode.l10n.t('Topics'),
    kindHelp: {
      FACT: vscode.l10n.t('Facts: what is stated as true (events, decisions, claims).'),
      OPINION: vscode.l10n.t('Opinions: what someone thinks, likes or doubts.'),
      DATA: vscode.l10n.t('Data: numbers, amounts, dates, measurements.'),
      ENGAGEMENT: vscode.l10n.t("Engagement: the comments' reactions with the most likes and replies."),
    },
    markersInItems: (m, i) => vscode.l10n.t('{0} in {1}', markersWord(m), itemsWord(i)),
    markers: markersWord,
    alsoWritten: (v) => vscode.l10n.t('also written: {0}', v),
    noDate: vscode.l10n.t('no date'),
    noMarkers: vscode.l10n.t('no markers yet'),
  };
}

export class AcrossViews implements vscode.Disposable {
  private markersQuery: AcrossQuery | undefined;
  private compareQuery: CompareQuery | undefined;
  private timelineQuery: TimelineQuery = {};
  private readonly markers: AcrossPanel;
  private readonly compare: AcrossPanel;
  private readonly timeline: AcrossPanel;

  constructor(
    extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly client: CorpusLanguageClient,
  ) {
    this.markers = new AcrossPanel(extensionUri, log, 'markerResearch.markersAcross', (m) => this.onMarkersMessage(m));
    this.compare = new AcrossPanel(extensionUri, log, 'markerResearch.compareItems', (m) => this.onCompareMessage(m));
    this.timeline = new AcrossPanel(extensionUri, log, 'markerResearch.itemsTimeline', (m) => this.onTimelineMessage(m));
  }

  /** The commands, by id. */
  commands(): Record<string, (...args: unknown[]) => Promise<void>> {
    return {
      'markerResearch.markersAcross': (arg?: unknown) => this.boundary(vscode.l10n.t('showing markers across items'), this.markers, () => this.markersAcross(arg)),
      'markerResearch.compareItems': (arg?: unknown) => this.boundary(vscode.l10n.t('comparing items'), this.compare, () => this.compareItems(arg)),
      'markerResearch.itemsTimeline': () => this.boundary(vscode.l10n.t('showing the items timeline'), this.timeline, () => this.showTimeline()),
    };
  }

  // ---- Markers Across Items ---------------------------------------------------------------

  private async markersAcross(arg?: unknown): Promise<void> {
    const a = objectArg(arg);
    const given: AcrossQuery | undefined =
      typeof a['topic'] === 'string' && a['topic'].trim() ? { topic: a['topic'].trim(), topicMatch: a['topicMatch'] === 'contains' ? 'contains' : 'exact', ...(kindsArg(a['kinds']) ? { kinds: kindsArg(a['kinds'])! } : {}) } : kindsArg(a['kinds']) ? { kinds: kindsArg(a['kinds'])! } : undefined;
    const query = given ?? (await this.pickAcross());
    if (!query) return;
    this.markersQuery = query;
    await this.showMarkers();
  }

  /** The kind or topic to show: a QuickPick of the engine's counts; typed words no row matches are a topic to look for. */
  private async pickAcross(): Promise<AcrossQuery | undefined> {
    const counts = await this.client.request(markersAcrossRequest, { detail: 'counts' });
    if (!counts.totals.markers) {
      const generate = vscode.l10n.t('Generate Markers');
      const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: no item has markers yet.'), generate);
      if (pick === generate) await vscode.commands.executeCommand('markerResearch.generateMarkers');
      return undefined;
    }
    const present = MARKER_KINDS.filter((k) => counts.totals.byKind[k] > 0);
    const perKind = await Promise.all(present.map((k) => this.client.request(markersAcrossRequest, { kinds: [k], detail: 'counts' })));
    const rows = acrossPickRows(counts, Object.fromEntries(present.map((k, i) => [k, perKind[i]!])), pickWords());
    return new Promise<AcrossQuery | undefined>((resolve) => {
      const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { value?: AcrossQuery }>();
      qp.title = vscode.l10n.t('Marker Research: Markers Across Items');
      qp.placeholder = vscode.l10n.t('A kind, or a topic (type words of a topic to find the topics holding them)');
      qp.matchOnDescription = false;
      qp.matchOnDetail = true;
      qp.items = rows.map((r) => (r.separator ? { label: r.label, kind: vscode.QuickPickItemKind.Separator } : { label: r.label, description: r.description, detail: r.detail, value: r.value }));
      let done = false;
      const finish = (q: AcrossQuery | undefined): void => {
        if (done) return;
        done = true;
        resolve(q);
        qp.hide();
      };
      qp.onDidAccept(() => finish(qp.selectedItems[0]?.value ?? typedTopicQuery(qp.value)));
      qp.onDidHide(() => {
        finish(undefined);
        qp.dispose();
      });
      qp.show();
    });
  }

  private async showMarkers(): Promise<void> {
    const query = this.markersQuery;
    if (!query) return;
    const title = vscode.l10n.t('Markers Across Items: {0}', queryLabel(query));
    this.markers.show(title, { type: 'busy', message: vscode.l10n.t('Loading…') });
    const model = await this.client.request(markersAcrossRequest, query);
    this.markers.show(title, { type: 'markers', model });
    const label = queryLabel(query);
    this.log.info(`across items: ${label} — ${model.totals.markers} markers in ${model.totals.items} items, ${model.totals.topics} topics`);
  }

  private async onMarkersMessage(m: PanelMessage): Promise<void> {
    if (m.type === 'setKinds' && this.markersQuery) {
      const { kinds: _k, ...rest } = this.markersQuery;
      this.markersQuery = m.kinds.length ? { ...rest, kinds: m.kinds } : rest;
      return this.boundary(vscode.l10n.t('showing markers across items'), this.markers, () => this.showMarkers());
    }
    if (m.type === 'change') return this.boundary(vscode.l10n.t('showing markers across items'), this.markers, () => this.markersAcross());
    return this.open(m);
  }

  // ---- Compare Items ------------------------------------------------------------------------

  private async compareItems(arg?: unknown): Promise<void> {
    const a = objectArg(arg);
    const given = Array.isArray(a['itemIds']) ? a['itemIds'].filter((x): x is string => typeof x === 'string' && !!x) : [];
    let itemIds = given.length >= 2 ? given : await this.pickItems(typeof arg === 'string' ? [arg] : typeof a['itemId'] === 'string' ? [a['itemId']] : given);
    if (!itemIds) return;
    itemIds = itemIds.slice(0, COMPARE_MAX);
    this.compareQuery = { ...(this.compareQuery ?? {}), itemIds };
    await this.showComparison();
  }

  /** Two or more items, ticked in a list of every item (`preselected` already ticked). */
  private async pickItems(preselected: readonly string[]): Promise<string[] | undefined> {
    const t = await this.client.request(itemTimelineRequest, {});
    const rows = comparePickRows(t, pickWords(), preselected);
    if (rows.length < 2) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: the corpus has fewer than two items to compare.'));
      return undefined;
    }
    for (;;) {
      const picked = await vscode.window.showQuickPick(
        rows.map((r) => ({ label: r.label, description: r.description, detail: r.detail, picked: r.picked, value: r.value })),
        { title: vscode.l10n.t('Marker Research: Compare Items'), placeHolder: vscode.l10n.t('Tick two or more items to compare (by date; type to filter)'), canPickMany: true, matchOnDescription: true, matchOnDetail: true },
      );
      if (!picked) return undefined;
      if (picked.length >= 2) return picked.map((p) => p.value);
      const again = vscode.l10n.t('Pick Again');
      const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: tick at least two items to compare.'), again);
      if (pick !== again) return undefined;
      for (const r of rows) r.picked = picked.some((p) => p.value === r.value);
    }
  }

  private async showComparison(): Promise<void> {
    const query = this.compareQuery;
    if (!query) return;
    this.compare.show(vscode.l10n.t('Compare Items'), { type: 'busy', message: vscode.l10n.t('Loading…') });
    const model = await this.client.request(compareItemsRequest, query);
    const titles = model.items.map((it) => it.title || it.itemId);
    this.compare.show(vscode.l10n.t('Compare Items: {0}', titles.length === 2 ? titles.join(' ↔ ') : itemsWord(titles.length)), { type: 'compare', model });
    const pair = model.similarity.pairs[0];
    this.log.info(`compare items: ${model.items.map((it) => it.itemId).join(', ')} — ${model.sharedTopics.length} shared topics${pair?.jaccard != null ? `, Jaccard ${pair.jaccard.toFixed(2)}` : ''}`);
  }

  private async onCompareMessage(m: PanelMessage): Promise<void> {
    if (m.type === 'setKinds' && this.compareQuery) {
      const { kinds: _k, ...rest } = this.compareQuery;
      this.compareQuery = m.kinds.length ? { ...rest, kinds: m.kinds } : rest;
      return this.boundary(vscode.l10n.t('comparing items'), this.compare, () => this.showComparison());
    }
    if (m.type === 'change') {
      return this.boundary(vscode.l10n.t('comparing items'), this.compare, async () => {
        const itemIds = await this.pickItems(this.compareQuery?.itemIds ?? []);
        if (!itemIds) return;
        this.compareQuery = { ...(this.compareQuery ?? {}), itemIds: itemIds.slice(0, COMPARE_MAX) };
        await this.showComparison();
      });
    }
    return this.open(m);
  }

  // ---- Items Timeline ----------------------------------------------------------------------

  private async showTimeline(): Promise<void> {
    const title = vscode.l10n.t('Items Timeline');
    this.timeline.show(title, { type: 'busy', message: vscode.l10n.t('Loading…') });
    const model = await this.client.request(itemTimelineRequest, this.timelineQuery);
    this.timeline.show(title, { type: 'timeline', model });
  }

  private async onTimelineMessage(m: PanelMessage): Promise<void> {
    if (m.type === 'setBucket' || m.type === 'setKinds') {
      const q: TimelineQuery = { ...this.timelineQuery };
      if (m.type === 'setBucket') q.bucket = m.bucket;
      else if (m.kinds.length) q.kinds = m.kinds;
      else delete q.kinds;
      this.timelineQuery = q;
      return this.boundary(vscode.l10n.t('showing the items timeline'), this.timeline, () => this.showTimeline());
    }
    if (m.type === 'change') return;
    return this.open(m);
  }

  // ---- shared ---------------------------------------------------------------------------------

  /** A click on a marker, a span, an item or a topic: the sidebar's commands, or this panel's. */
  private async open(m: PanelMessage): Promise<void> {
    if (m.type === 'showTopic') {
      this.markersQuery = { topic: m.topic, topicMatch: 'exact' };
      return this.boundary(vscode.l10n.t('showing markers across items'), this.markers, () => this.showMarkers());
    }
    if (m.type === 'openMarker') await vscode.commands.executeCommand('markerResearch.openMarker', m.itemId, m.markerId);
    else if (m.type === 'openHit') await vscode.commands.executeCommand('markerResearch.openHit', m.itemId, m.part, m.start, m.end);
    else if (m.type === 'openItem') await vscode.commands.executeCommand('markerResearch.retrieveFullItem', m.itemId);
  }

  /** Runs a command's work, turning failures into messages (no corpus: an offer to index it). */
  private async boundary(what: string, panel: AcrossPanel, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      if (e instanceof CancelledError) return;
      if (e instanceof EngineRequestError && e.reason === 'no-corpus') {
        const index = vscode.l10n.t('Index Corpus');
        const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: no corpus is indexed yet.'), index);
        if (pick === index) await vscode.commands.executeCommand('markerResearch.indexCorpus');
        return;
      }
      const message = (e as Error).message;
      this.log.error(`${what} failed: ${message}`);
      if (panel.isOpen) panel.post({ type: 'error', message });
      const logs = vscode.l10n.t('Show Logs');
      const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Marker Research: {0} failed: {1}', what, message), logs);
      if (pick === logs) this.log.show();
    }
  }

  dispose(): void {
    this.markers.dispose();
    this.compare.dispose();
    this.timeline.dispose();
  }
}

