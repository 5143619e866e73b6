import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readLineHeads } from '../../src/core/corpus/lineSpeakers';
import { parseTranscript, type ParsedTranscript } from '../../src/core/corpus/transcriptParsers';

/** Parses `src` and checks every segment maps back to exactly its characters, by source and by pieces. */
function parse(src: string, format: 'txt' | 'md' = 'txt'): ParsedTranscript {
  const r = parseTranscript(src, format, `t.${format}`);
  const lines = src.split('\n');
  for (const s of r.segments) {
    assert.equal(s.source.startLine, s.source.endLine);
    assert.equal(lines[s.source.startLine]!.slice(s.source.startColumn, s.source.endColumn), s.text);
    assert.equal(s.pieces.map((p) => lines[p.line]!.slice(p.column, p.column + p.rawLength)).join(''), s.text);
  }
  return r;
}

const rows = (r: ParsedTranscript): [string | undefined, number | undefined, string][] => r.segments.map((s) => [s.speaker, s.start, s.text]);

describe('speakers and times at the head of txt/md lines', () => {
  test('English Host/Guest labels become speakers, the text is the rest of the line', () => {
    const r = parse('Host: Welcome to episode 3.\nGuest: The numbers rose by 12 percent.\n\n  Host:   Why?  \nGuest: Demand.\n');
    assert.deepEqual(rows(r), [
      ['Host', undefined, 'Welcome to episode 3.'],
      ['Guest', undefined, 'The numbers rose by 12 percent.'],
      ['Host', undefined, 'Why?'],
      ['Guest', undefined, 'Demand.'],
    ]);
    assert.deepEqual(r.segments[2]!.source, { startLine: 3, startColumn: 10, endLine: 3, endColumn: 14 });
  });

  test('CJK names with a fullwidth colon, with or without a space after it', () => {
    const r = parse('主持人：欢迎收听。\n嘉宾： 谢谢邀请。\n主持人：我们开始吧。\n嘉宾：好的。');
    assert.deepEqual(rows(r), [
      ['主持人', undefined, '欢迎收听。'],
      ['嘉宾', undefined, '谢谢邀请。'],
      ['主持人', undefined, '我们开始吧。'],
      ['嘉宾', undefined, '好的。'],
    ]);
  });

  test('timestamps in [], () and bare, with or without a label', () => {
    const r = parse('[00:01:05] Alice: Hello.\n00:01:10 Bob: Hi there.\n(1:15) Alice: Shall we?\n[01:20.5] No label here.\n1:01:02.250 - Bob: Bye.\n');
    assert.deepEqual(rows(r), [
      ['Alice', 65, 'Hello.'],
      ['Bob', 70, 'Hi there.'],
      ['Alice', 75, 'Shall we?'],
      [undefined, 80.5, 'No label here.'],
      ['Bob', 3662.25, 'Bye.'],
    ]);
    const bare = parse('0:00 Welcome to the show.\n0:04 Today we talk about coffee.\n');
    assert.deepEqual(rows(bare), [[undefined, 0, 'Welcome to the show.'], [undefined, 4, 'Today we talk about coffee.']]);
  });

  test('a time range gives start and end; a label with a time after it', () => {
    const r = parse('[00:00.000 --> 00:04.000]  First cue.\n[00:04.000 --> 00:07.500]  Second cue.\n');
    assert.deepEqual(r.segments.map((s) => [s.start, s.end, s.text]), [[0, 4, 'First cue.'], [4, 7.5, 'Second cue.']]);
    const rev = parse('Speaker 1 (00:00:05): Good morning.\nSpeaker 2 [00:00:09]: Morning.\nSpeaker 1 (00:00:12): Ready?\nSpeaker 2: Yes.\n');
    assert.deepEqual(rows(rev), [['Speaker 1', 5, 'Good morning.'], ['Speaker 2', 9, 'Morning.'], ['Speaker 1', 12, 'Ready?'], ['Speaker 2', undefined, 'Yes.']]);
  });

  test('markdown bold labels, colon inside or outside the emphasis', () => {
    const r = parse('# Episode 3\n\n**Host:** Welcome back.\n**Guest**: Thanks for having me.\n**Host:** Let us start.\n**Guest**: Sure.\n', 'md');
    assert.deepEqual(rows(r), [
      [undefined, undefined, '# Episode 3'],
      ['Host', undefined, 'Welcome back.'],
      ['Guest', undefined, 'Thanks for having me.'],
      ['Host', undefined, 'Let us start.'],
      ['Guest', undefined, 'Sure.'],
    ]);
  });

  test('a heading line (label or time alone) applies to the lines after it', () => {
    const r = parse('Speaker 1 (00:00):\nHello and welcome.\nThis is the second paragraph.\n\nSpeaker 2 (00:07):\nThanks.\n\nSpeaker 1 (00:09):\nSo.\nSpeaker 2 (00:11):\nOK.\n');
    assert.deepEqual(rows(r), [
      ['Speaker 1', 0, 'Hello and welcome.'],
      ['Speaker 1', undefined, 'This is the second paragraph.'],
      ['Speaker 2', 7, 'Thanks.'],
      ['Speaker 1', 9, 'So.'],
      ['Speaker 2', 11, 'OK.'],
    ]);
    const once = parse('Speaker 1 (00:00):\nHello.\nSpeaker 1 (00:04):\nAgain.\nCaller:\nA question.\n');
    assert.deepEqual(rows(once), [['Speaker 1', 0, 'Hello.'], ['Speaker 1', 4, 'Again.'], [undefined, undefined, 'Caller:'], [undefined, undefined, 'A question.']]);
    const yt = parse('0:00\nwelcome back everyone\n0:03\nso today we are\n');
    assert.deepEqual(rows(yt), [[undefined, 0, 'welcome back everyone'], [undefined, 3, 'so today we are']]);
  });

  test('an inline label does not carry to the next line', () => {
    const r = parse('Host: Welcome.\nand a second line\nGuest: Hi.\nHost: Bye.\nGuest: Bye.');
    assert.deepEqual(r.segments.map((s) => s.speaker), ['Host', undefined, 'Guest', 'Host', 'Guest']);
  });

  test('prose with a single "Note:" line stays unlabelled and unchanged', () => {
    const src = 'The market moved a lot this week.\nNote: prices are in dollars per pound.\nStep 1: buy low. That was the plan.\nEverything else stayed flat.\n';
    const r = parse(src);
    assert.deepEqual(r.segments.map((s) => s.text), src.trim().split('\n'));
    assert.ok(r.segments.every((s) => s.speaker === undefined && s.start === undefined));
    const one = parse('Note: x');
    assert.deepEqual(rows(one), [[undefined, undefined, 'Note: x']]);
    const time = parse('10:30 we met at the cafe.');
    assert.deepEqual(rows(time), [[undefined, undefined, '10:30 we met at the cafe.']]);
  });

  test('a URL line stays intact, also in a labelled file', () => {
    const r = parse('Host: See the link.\nhttp://example.com/a:b\nhttps: //not a label either\nGuest: Thanks.\nHost: Bye.\nGuest: Bye.\n');
    assert.equal(r.segments[1]!.text, 'http://example.com/a:b');
    assert.equal(r.segments[1]!.speaker, undefined);
    assert.equal(r.segments[2]!.text, 'https: //not a label either');
    const alone = parse('http://example.com\nhttp://example.org\n');
    assert.deepEqual(rows(alone), [[undefined, undefined, 'http://example.com'], [undefined, undefined, 'http://example.org']]);
  });

  test('labels must be short: long or many-word heads are text', () => {
    const src = 'The one thing I want to say is: yes.\nThe one thing I want to say is: no.\n';
    assert.deepEqual(rows(parse(src)), [[undefined, undefined, 'The one thing I want to say is: yes.'], [undefined, undefined, 'The one thing I want to say is: no.']]);
  });

  test('a label once among labelled lines is not a speaker; front matter and blank lines still skipped', () => {
    const r = parse('---\ntitle: x\nauthor: y\n---\nHost: One.\nGuest: Two.\nNote: three.\nHost: Four.\nGuest: Five.\n', 'md');
    assert.deepEqual(rows(r), [
      ['Host', undefined, 'One.'],
      ['Guest', undefined, 'Two.'],
      [undefined, undefined, 'Note: three.'],
      ['Host', undefined, 'Four.'],
      ['Guest', undefined, 'Five.'],
    ]);
  });

  test('a few repeated labels in a long prose file are not speakers', () => {
    const prose = Array.from({ length: 20 }, (_, k) => `Plain sentence number ${k}.`);
    const r = parse(['Note: first.', ...prose, 'Note: second.'].join('\n'));
    assert.ok(r.segments.every((s) => s.speaker === undefined));
    assert.equal(r.segments[0]!.text, 'Note: first.');
  });

  test('readLineHeads: unread lines stay unread, a very long line is bounded', () => {
    const long = `Host: ${'word '.repeat(100_000)}`;
    const heads = readLineHeads([undefined, long, 'Host: b', undefined]);
    assert.equal(heads[0], undefined);
    assert.equal(heads[3], undefined);
    assert.equal(heads[1]!.speaker, 'Host');
    assert.equal(heads[1]!.column, 5);
  });
});
