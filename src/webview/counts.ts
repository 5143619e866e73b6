/**
 * The webviews' counted nouns in the display language: one message for 1 and one for more
 * (`1 item`, `{0} items`), so each language says its own plural; numbers as `1,234`.
 */
import * as l10n from '@vscode/l10n';
import { num } from './vscodeApi';

const count = (n: number, one: string, many: string): string => (n === 1 ? one : many.replace('{n}', num(n)));

export const items = (n: number): string => count(n, l10n.t('1 item'), l10n.t('{0} items', '{n}'));
export const markers = (n: number): string => count(n, l10n.t('1 marker'), l10n.t('{0} markers', '{n}'));
export const words = (n: number): string => count(n, l10n.t('1 word'), l10n.t('{0} words', '{n}'));
export const comments = (n: number): string => count(n, l10n.t('1 comment'), l10n.t('{0} comments', '{n}'));
export const transcriptSegments = (n: number): string => count(n, l10n.t('1 transcript segment'), l10n.t('{0} transcript segments', '{n}'));
export const likes = (n: number): string => count(n, l10n.t('1 like'), l10n.t('{0} likes', '{n}'));
export const replies = (n: number): string => count(n, l10n.t('1 reply'), l10n.t('{0} replies', '{n}'));
export const questions = (n: number): string => count(n, l10n.t('1 question'), l10n.t('{0} questions', '{n}'));
export const citations = (n: number): string => count(n, l10n.t('1 citation'), l10n.t('{0} citations', '{n}'));
export const requests = (n: number): string => count(n, l10n.t('1 request'), l10n.t('{0} requests', '{n}'));
export const findings = (n: number): string => count(n, l10n.t('1 finding'), l10n.t('{0} findings', '{n}'));
export const rounds = (n: number): string => count(n, l10n.t('1 round'), l10n.t('{0} rounds', '{n}'));
export const steps = (n: number): string => count(n, l10n.t('1 step'), l10n.t('{0} steps', '{n}'));
