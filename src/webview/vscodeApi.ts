/** The webview side of a sidebar view's wire: the VS Code API, typed by what the view may send and remember. */

/** What a webview view gets from `acquireVsCodeApi()` (once per page). */
export interface VsCodeApi<Out, Memory> {
  postMessage(msg: Out): void;
  getState(): unknown;
  setState(state: Memory): void;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown, unknown>;

/** The page's VS Code API, typed: `Out` is the view's half of the protocol, `Memory` what it keeps across reloads. */
export function vscodeApi<Out, Memory>(): VsCodeApi<Out, Memory> {
  return acquireVsCodeApi() as VsCodeApi<Out, Memory>;
}

/** A count as the views write it: `1,234` (the words around it come from l10n.t, one message for 1 and one for more). */
export const num = (n: number): string => n.toLocaleString('en-US');

