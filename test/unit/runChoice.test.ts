/** Run Research while a reviewed plan waits (issue 12, item 5): the same goal or none runs the plan; another goal asks. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeGoalText, plannedRunChoice, sameGoalText } from '../../src/core/research/runChoice';

describe('run choice with a planned run', () => {
  const planned = { goal: 'How did winter affect the range of electric cars?' };

  test('an empty goal box, or the same goal, runs the planned run', () => {
    assert.equal(plannedRunChoice(undefined, planned), 'run-planned');
    assert.equal(plannedRunChoice('   ', planned), 'run-planned');
    assert.equal(plannedRunChoice('How did winter affect the range of electric cars?', planned), 'run-planned');
    assert.equal(plannedRunChoice('  how did WINTER affect the range of  electric cars ', planned), 'run-planned', 'case, spacing and the question mark do not matter');
    assert.equal(plannedRunChoice('冬季续航？', { goal: '冬季续航' }), 'run-planned');
    assert.equal(plannedRunChoice('ＥＶ range', { goal: 'EV range' }), 'run-planned', 'full-width letters are the same letters');
  });

  test('a different goal asks; without a planned run there is nothing to ask', () => {
    assert.equal(plannedRunChoice('What do viewers say about coffee prices?', planned), 'ask');
    assert.equal(plannedRunChoice('How did winter affect the range of electric bikes?', planned), 'ask');
    assert.equal(plannedRunChoice('anything', undefined), 'new-run');
    assert.equal(plannedRunChoice(undefined, undefined), 'new-run');
  });

  test('normalised goal texts', () => {
    assert.equal(normalizeGoalText('  Winter   Range?! '), 'winter range');
    assert.ok(sameGoalText('¿Qué se dice sobre ciberseguridad?', '¿qué se dice sobre ciberseguridad'));
    assert.ok(!sameGoalText('winter range', 'summer range'));
  });
});
