/**
 * A deterministic "model" for the fake server that reads the window it is
 * sent and answers with markers that paraphrase it: claims are reworded, and
 * quotes come in four flavours (verbatim, re-cased/re-punctuated, truncated
 * with an ellipsis, missing). It records which source sentence each claim
 * came from, so tests can check that grounding found the right span.
 */
import type { ChatRequestInfo } from './fakeModelServer';

export interface PlantedClaim {
  claim: string;
  /** The sentence of the window the claim paraphrases. */
  sentence: string;
}

const SENTENCE = /[^.!?。！？\n]+[.!?。！？]?/gu;

const WINDOW_BLOCK = /<(window|comments)>\n?([\s\S]*?)\n?<\/\1>/;

/** The window the request is about: the `<window>`/`<comments>` block of the last user message that has one (a repair round adds a user message without it). */
export function windowText(req: ChatRequestInfo): string {
  for (const m of [...req.messages].reverse()) {
    if (m.role !== 'user') continue;
    const w = WINDOW_BLOCK.exec(m.content);
    if (w) return w[2]!;
  }
  return [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

function stripPrefix(line: string): string {
  // Comment ids, turn ids, and speaker labels ("Grad F: ", "主持人: ") the prompt puts before text.
  return line.replace(/^\[c[^\]]*\]\s*/, '').replace(/^\[t\d+[^\]]*\]\s*/, '').replace(/^(?:[A-Z][\w.]*(?: [A-Z0-9][\w.]*){0,3}|[^\s:：]{1,20})[:：]\s+/u, '');
}

function paraphrase(s: string, k: number): string {
  const words = s.replace(/[.!?。！？]$/, '').split(/\s+/);
  if (words.length < 3) return `据说${s}`;
  // Move the first two words to the end and add a lead-in: same content, different surface.
  const turned = [...words.slice(2), ...words.slice(0, 2)].join(' ');
  return ['Reportedly, ', 'It was noted that ', 'The speaker says ', 'Notably, '][k % 4] + turned.toLowerCase();
}

function quoteFor(s: string, k: number): string {
  const words = s.split(/\s+/);
  const cjk = /[\u4e00-\u9fff]/.test(s);
  switch (k % 4) {
    case 0:
      return cjk ? s.slice(0, Math.min(s.length, 14)) : words.slice(0, 8).join(' ');
    case 1:
      return (cjk ? s.slice(0, 14) : words.slice(0, 8).join(' ')).toUpperCase().replace(/[,.]/g, ';');
    case 2:
      return cjk ? `${s.slice(0, 5)}……${s.slice(-4)}` : `${words.slice(0, 3).join(' ')} ... ${words.slice(-3).join(' ')}`;
    default:
      return '';
  }
}

/**
 * A responder for `FakeModelServer.setResponder`: markers for every fourth
 * sentence of at least six words; `planted` collects what it claimed.
 */
export function paraphrasingResponder(planted: PlantedClaim[]): (req: ChatRequestInfo) => string {
  return (req) => {
    const text = windowText(req);
    const sentences = text.split('\n').map(stripPrefix).flatMap((l) => l.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.split(/\s+/).length >= 6 || (/[\u4e00-\u9fff]/.test(s) && s.length >= 12));
    const claims = sentences.filter((_, i) => i % 4 === 0).slice(0, 12).map((s, k) => {
      const claim = paraphrase(s, k);
      planted.push({ claim, sentence: s });
      return { text: claim, quote: quoteFor(s, k), topic: 'test topic', confidence: 0.8 };
    });
    const isComments = JSON.stringify(req.schema ?? {}).includes('themes');
    const third = Math.ceil(claims.length / 3);
    const reply = isComments
      ? { facts: claims.slice(0, third), opinions: claims.slice(third, 2 * third), datapoints: claims.slice(2 * third), themes: ['theme one'], sentiment: 'mixed', engagement: [] }
      : { facts: claims.slice(0, third), opinions: claims.slice(third, 2 * third), datapoints: claims.slice(2 * third), topics: ['topic one', 'topic two'] };
    return JSON.stringify(reply);
  };
}
