/**
 * Offline chat never quotes a content-free line (issue 21): a generated report whose cited lines
 * mix findings with content ("The committee approved the budget in March. [3]") and
 * content-free ones (backchannels, filler runs, hedge talk around a word of the question) is
 * answered from its lines with content only, in English, Spanish and Chinese.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParsedQuery } from '../../src/core/ask/query';
import { answerFromReport } from '../../src/core/chat/extractiveResponder';
import { isContentFree } from '../../src/core/text/contentFree';
import { CaseGenerator, langOf, SCRIPTS } from '../support/contentFreeCases';
import { parsedQuery } from '../support/parsedQuery';

const QUESTIONS = { en: 'What about the budget, the contract and the prices?', es: '¿Qué pasa con el presupuesto, el contrato y el precio?', zh: '预算、合同和价格怎么样？' };

const query = (question: string): ParsedQuery => parsedQuery({ question, intent: 'summary', searchText: question, strategies: [] });

describe('offline chat: report lines', () => {
  for (const script of SCRIPTS) {
    test(`${script}: no content-free report line is quoted, content lines are`, () => {
      const lang = langOf(script);
      const g = new CaseGenerator(71 + script.length);
      for (let round = 0; round < 20; round++) {
        const lines: string[] = ['# Report', '', '## Findings', ''];
        let n = 1;
        for (let i = 0; i < 12; i++) {
          // The first line always has content: the report has some to quote.
          const kind = i === 0 ? 0 : g.int(0, 2);
          const text = kind === 0 ? g.content(script, false) : kind === 1 ? g.contentFree(script) : g.hedgeTalk(script, 2, 4);
          lines.push(`- ${text} [${n++}]`);
        }
        const answer = answerFromReport(query(QUESTIONS[lang]), { runId: 'r1', goal: 'g', markdown: lines.join('\n') });
        const quoted = answer.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2).replace(/\s*\[\d+\]\s*$/u, ''));
        assert.deepEqual(quoted.filter((q) => isContentFree(q, lang)), [], answer);
        assert.ok(quoted.length > 0, answer);
      }
    });
  }
});
