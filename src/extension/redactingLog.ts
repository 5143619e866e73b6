/**
 * The extension's one log channel, with every URL's credentials redacted before a line is written
 * (`http://user:key@host` → `http://***@host`, `?api-key=…` → `?api-key=***`): the same redaction
 * core applies to its own messages, here also for lines written by the extension itself, error
 * objects, and the language client that shares the channel.
 */
import type * as vscode from 'vscode';
import { redactUrlCredentials } from '../core/util/log';

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'append' | 'appendLine' | 'replace';

/** Redacts a string argument; an `Error` keeps its class but gets a redacted message and stack. */
function redactArg(a: unknown): unknown {
  if (typeof a === 'string') return redactUrlCredentials(a);
  if (a instanceof Error) {
    const copy = Object.create(Object.getPrototypeOf(a) as object) as Error;
    Object.assign(copy, a);
    copy.message = redactUrlCredentials(a.message);
    if (a.stack) copy.stack = redactUrlCredentials(a.stack);
    return copy;
  }
  return a;
}

/** `channel`, with every text written through it redacted. */
export function redactingLogChannel(channel: vscode.LogOutputChannel): vscode.LogOutputChannel {
  const wrapped = new Set<string | symbol>(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace'] satisfies (LogMethod | 'error')[]);
  return new Proxy(channel, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (!wrapped.has(prop)) return fn.bind(target);
      return (...args: unknown[]) => fn.apply(target, args.map(redactArg));
    },
  });
}
