/**
 * Choosing a code (issue 24): a QuickPick of the codebook's codes — each with its colour, its
 * counts and its description — and "New code…" first, which asks a name (not one the codebook
 * has), a colour from the palette (the next free one first) and an optional description, and
 * creates the code.
 */
import * as vscode from 'vscode';
import { CODE_PALETTE } from '../core/workbench/codebookStore';
import type { CodesViewResult, CodeView } from '../shared/workbenchProtocol';
import { codeDescription } from './codesTreeModel';
import { circleIcon } from './workbenchTreeItem';
import type { WorkbenchService } from './workbenchService';

/** Names compared as a researcher reads them (the codebook's rule): case, width and spacing ignored. */
export function codeNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The palette's colours in words. */
function colourName(hex: string): string {
  const names: Record<string, string> = {
    '#e6194b': vscode.l10n.t('Red'),
    '#3cb44b': vscode.l10n.t('Green'),
    '#4363d8': vscode.l10n.t('Blue'),
    '#f58231': vscode.l10n.t('Orange'),
    '#911eb4': vscode.l10n.t('Purple'),
    '#42d4f4': vscode.l10n.t('Cyan'),
    '#f032e6': vscode.l10n.t('Magenta'),
    '#9a6324': vscode.l10n.t('Brown'),
    '#469990': vscode.l10n.t('Teal'),
    '#808000': vscode.l10n.t('Olive'),
    '#000075': vscode.l10n.t('Navy'),
    '#a9a9a9': vscode.l10n.t('Grey'),
  };
  return names[hex.toLowerCase()] ?? hex;
}

/** A colour from the palette (`first`: offered first, e.g. the next free one or the code's own); undefined when dismissed. */
export async function pickColour(title: string, first: string): Promise<string | undefined> {
  const colours = [first.toLowerCase(), ...CODE_PALETTE.filter((c) => c !== first.toLowerCase())];
  const picked = await vscode.window.showQuickPick(
    colours.map((c) => ({ label: colourName(c), description: c, iconPath: circleIcon(c), colour: c })),
    { title, placeHolder: vscode.l10n.t('Colour of the code') },
  );
  return picked?.colour;
}

/** Asks for a new code (name, colour, description) and creates it; undefined when dismissed. */
export async function newCode(workbench: WorkbenchService, view?: CodesViewResult, name?: string): Promise<CodeView | undefined> {
  const codes = view ?? (await workbench.codes());
  const taken = new Set(codes.codes.map((c) => codeNameKey(c.name)));
  const title = vscode.l10n.t('New code');
  const chosen =
    name ??
    (await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('Name of the new code'),
      placeHolder: vscode.l10n.t('e.g. safety concerns'),
      validateInput: (v) => (!v.trim() ? vscode.l10n.t('A code needs a name.') : taken.has(codeNameKey(v)) ? vscode.l10n.t('The codebook has a code of this name already.') : undefined),
    }));
  if (!chosen?.trim()) return undefined;
  const colour = await pickColour(title, codes.nextColour);
  if (!colour) return undefined;
  const description = await vscode.window.showInputBox({ title, prompt: vscode.l10n.t('What the code means (optional)'), placeHolder: vscode.l10n.t('Optional description') });
  if (description === undefined) return undefined;
  const r = await workbench.editCode({ op: 'create', name: chosen.trim(), colour, ...(description.trim() ? { description: description.trim() } : {}) });
  return r.code ?? undefined;
}

type CodeItem = vscode.QuickPickItem & { code?: CodeView; create?: true };

/** A code of the codebook, or a new one; undefined when dismissed. `except`: a code not offered (a segment's own). */
export async function pickCode(workbench: WorkbenchService, title: string, except?: string): Promise<CodeView | undefined> {
  const view = await workbench.codes();
  const items: CodeItem[] = [
    { label: `$(add) ${vscode.l10n.t('New code…')}`, description: vscode.l10n.t('name, colour, description'), create: true, alwaysShow: true },
    ...view.codes
      .filter((c) => c.id !== except)
      .map((c): CodeItem => ({ label: `${'\u2003'.repeat(c.depth)}${c.name}`, description: codeDescription(vscode.l10n, c), detail: c.description ?? undefined, iconPath: circleIcon(c.colour), code: c })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: view.codes.length ? vscode.l10n.t('Choose a code, or type to filter') : vscode.l10n.t('No codes yet: create the first one'), matchOnDescription: true, matchOnDetail: true });
  if (!picked) return undefined;
  return picked.create ? newCode(workbench, view) : picked.code;
}
