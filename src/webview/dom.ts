/** DOM helpers the webview bundles share: elements built with text content only (corpus text is untrusted). */

/** An element with an optional class and text (set as textContent, never parsed). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A button whose click does not reach a surrounding <summary> or row. */
export function button(cls: string, label: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', cls, label);
  b.type = 'button';
  b.title = title;
  b.addEventListener('click', (e) => {
    e.preventDefault(); // inside a <summary>: do not toggle
    e.stopPropagation();
    onClick();
  });
  return b;
}

/** Runs `action` when a focusable row is clicked or activated from the keyboard (Enter or Space). */
export function onActivate(target: HTMLElement, action: () => void): void {
  target.addEventListener('click', action);
  target.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      action();
    }
  });
}
