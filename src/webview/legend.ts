/**
 * Saying what things are: the legend of the kind badges (their tooltips) and
 * the short "What are markers?" help the ⓘ button of a view opens.
 */
import * as l10n from '@vscode/l10n';
import { ALL_KINDS, kindExplanation } from '../shared/sidebarModel';
import type { MarkerKindName } from '../shared/webviewProtocol';
import { button, el } from './dom';

/** The tooltip of a kind badge or toggle: what the kind means. */
export function kindTitle(kind: MarkerKindName, extra?: string): string {
  const line = `${kind} — ${kindExplanation(kind)}`;
  return extra ? `${line}\n${extra}` : line;
}

/** A kind badge (`.marker-kind`) whose hover explains the kind. */
export function kindBadge(kind: MarkerKindName): HTMLSpanElement {
  const b = el('span', 'marker-kind', kind);
  b.title = kindTitle(kind);
  return b;
}

/**
 * The ⓘ toggle and the help panel it opens and closes. `useModel` runs "Use a
 * model…" (the extension's settings); `onToggle` hears of the panel opening or
 * closing (the view remembers it).
 */
export function helpPanel(open: boolean, useModel: () => void, onToggle: (open: boolean) => void): { toggle: HTMLButtonElement; panel: HTMLElement } {
  const panel = el('section', 'help');
  panel.id = 'help';
  panel.setAttribute('aria-label', l10n.t('What are markers?'));
  const head = el('div', 'help-head');
  head.append(el('span', 'help-title', l10n.t('What are markers?')));
  const close = button('icon-button help-close', '✕', l10n.t('Close the help'), () => set(false));
  close.setAttribute('aria-label', l10n.t('Close the help'));
  head.append(close);
  const para = (text: string): HTMLParagraphElement => el('p', 'help-text', text);
  const kinds = el('ul', 'help-kinds');
  for (const k of ALL_KINDS) {
    const li = el('li', `help-kind kind-${k.toLowerCase()}`);
    li.append(kindBadge(k), el('span', 'help-kind-text', kindExplanation(k)));
    kinds.append(li);
  }
  const model = el('p', 'help-text');
  model.append(
    el('span', undefined, `${l10n.t('An open item says which engine made its markers:')} `),
    el('strong', undefined, 'extractive'),
    el('span', undefined, ` ${l10n.t('picks sentences offline, by rules (no model, so no confidence to show); a model name means a language model read every word.')} `),
  );
  const useModelButton = button('icon-button help-use-model', l10n.t('Use a model…'), l10n.t('Settings: provider (OpenAI-compatible or Ollama), base URL and model'), useModel);
  model.append(useModelButton);
  panel.append(
    head,
    para(l10n.t('Markers are the key pieces of information of an item, each tied to where it was said: a click opens that span of the original. "ungrounded": no span was found.')),
    kinds,
    para(l10n.t('Comment themes and sentiment sum up the comments (spam left out).')),
    model,
    para(l10n.t('The filter matches marker text, topics, speakers and item titles, whatever the case, accents, width or Chinese script (nicolas finds Nicolás, 電動車 finds 电动车); the kind buttons hide kinds.')),
  );
  const toggle = button('icon-button help-toggle', 'ⓘ', l10n.t('What are markers? (the kinds, grounding, engines, the filter)'), () => set(panel.hidden));
  toggle.id = 'help-toggle';
  toggle.setAttribute('aria-label', l10n.t('What are markers?'));
  toggle.setAttribute('aria-controls', 'help');
  const set = (on: boolean): void => {
    panel.hidden = !on;
    toggle.setAttribute('aria-expanded', String(on));
    onToggle(on);
  };
  panel.hidden = !open;
  toggle.setAttribute('aria-expanded', String(open));
  return { toggle, panel };
}
