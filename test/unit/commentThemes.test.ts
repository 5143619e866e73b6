import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commentThemes, isThemeLabel } from '../../src/core/markers/extractiveComments';
import { TopicStats, topicCandidates } from '../../src/core/markers/keyphrases';

function statsOf(...docs: string[][]): TopicStats {
  const s = new TopicStats();
  for (const d of docs) s.addDocument(topicCandidates(d.join('\n')));
  return s;
}

describe('comment themes: labels', () => {
  test('noun phrases pass; fillers, praise, numbers, link pieces and clauses do not', () => {
    for (const ok of ['bike lanes', 'injury numbers', 'coleta', '续航', 'party rock']) assert.ok(isThemeLabel(ok), ok);
    for (const bad of ['video', 'lol', 'great', 'increíble', '2015', 'com', 'www', 'mixtape check', 'really', 'viewed', 'escuchar', 'subscribe', '好看'])
      assert.equal(isThemeLabel(bad), false, bad);
  });
});

describe('comment themes: clusters', () => {
  const comments = [
    'The bike lanes on Harbor Avenue made my commute safer.',
    'Harbor Avenue bike lanes are the best thing the city did.',
    'I ride the bike lanes every day now.',
    'What about the injury numbers per intersection?',
    'The injury numbers should be published monthly.',
    'Parking for the bakery got worse.',
    'Parking near the bakery is gone, lol',
    'lol',
    'Great video!!',
    'Great video, thanks',
  ];
  const other = ['A podcast about coffee prices and freight.', 'Weather and demand drive coffee prices.'];

  test('one theme per group of comments, labelled by its phrase, never praise or fillers', () => {
    const themes = commentThemes(comments, statsOf(comments, other));
    assert.ok(themes.includes('bike lanes'), themes.join(' · '));
    assert.ok(themes.includes('injury numbers'), themes.join(' · '));
    assert.ok(themes.some((t) => t.includes('parking') || t.includes('bakery')), themes.join(' · '));
    for (const t of themes) assert.ok(isThemeLabel(t), t);
    // "harbor avenue" lives in the same comments as "bike lanes": one theme, not two.
    assert.ok(!(themes.includes('harbor avenue') && themes.includes('bike lanes')), themes.join(' · '));
  });

  test('links and scam domains never label a theme', () => {
    const spammy = [...comments, 'see cashnow.com/x', 'cashnow.com/y is great', 'go to cashnow . com today'];
    for (const t of commentThemes(spammy, statsOf(spammy, other))) assert.ok(!/cashnow|com/.test(t), t);
  });

  test('a handful of comments still gets a theme or two from its keyphrases', () => {
    const few = ['Two office days a week is the sweet spot for me.', 'Onboarding remotely was rough for our new hires.'];
    const themes = commentThemes(few, statsOf(few, other));
    assert.ok(themes.length >= 1 && themes.length <= 2, themes.join(' · '));
  });

  test('Chinese comments', () => {
    const zh = ['冬天续航掉得厉害', '冬天续航只有一半', '热泵真的有用，冬天续航好多了', '充电桩太少'];
    const themes = commentThemes(zh, statsOf(zh, other));
    assert.ok(themes.some((t) => t === '续航' || t === '冬天'), themes.join(' · '));
  });
});
