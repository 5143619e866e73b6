/**
 * The extension's log channel redacts URL credentials in every line it writes (issue 10, class 5):
 * the extension's own messages, Error objects and anything the language client appends.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { redactingLogChannel } from '../../src/extension/redactingLog';

describe('redacting log channel', () => {
  test('every write method redacts credentials; other members pass through', () => {
    const lines: string[] = [];
    const fake = {
      name: 'Marker Research',
      logLevel: 2,
      trace: (m: string) => lines.push(`trace ${m}`),
      debug: (m: string) => lines.push(`debug ${m}`),
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string | Error) => lines.push(`error ${typeof m === 'string' ? m : `${m.name}: ${m.message} | ${m.stack ?? ''}`}`),
      append: (m: string) => lines.push(`append ${m}`),
      appendLine: (m: string) => lines.push(`appendLine ${m}`),
      replace: (m: string) => lines.push(`replace ${m}`),
      show: () => lines.push('shown'),
    };
    const log = redactingLogChannel(fake as unknown as vscode.LogOutputChannel);
    const url = 'http://alice:sk-secret-1@127.0.0.1:9/v1?api-key=k-2&model=m';
    log.trace(url);
    log.debug(url);
    log.info(`calling ${url}`);
    log.warn(url);
    log.error(url);
    const e = new TypeError(`fetch failed for ${url}`);
    log.error(e);
    log.append(url);
    log.appendLine(url);
    log.replace(url);
    log.show();
    assert.equal(log.name, 'Marker Research');
    assert.equal(lines.length, 10);
    for (const l of lines) {
      assert.doesNotMatch(l, /sk-secret-1|k-2/, l);
    }
    assert.ok(lines.includes('info calling http://***@127.0.0.1:9/v1?api-key=***&model=m'));
    assert.match(lines.find((l) => l.startsWith('error TypeError'))!, /^error TypeError: fetch failed for http:\/\/\*\*\*@/);
    assert.ok(e.message.includes('sk-secret-1'), 'the caller\'s error is not changed');
  });
});
