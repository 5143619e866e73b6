import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { polarity as polarityViaEngine } from '../../src/core/markers/extractive';
import { polarity, sentimentLanguage, sentimentOf } from '../../src/core/markers/sentiment';

const sign = (t: string): number => Math.sign(polarity(t));

describe('sentiment: language of a comment', () => {
  test('Chinese by script, Spanish or English by function words', () => {
    assert.equal(sentimentLanguage('我不太喜欢这个视频'), 'zh');
    assert.equal(sentimentLanguage('No me gusta nada este podcast'), 'es');
    assert.equal(sentimentLanguage('I do not like this video at all'), 'en');
  });
});

describe('sentiment: negation', () => {
  test('English', () => {
    assert.equal(sign('This is good'), 1);
    assert.equal(sign('This is not good'), -1);
    assert.equal(sign("I don't like this song"), -1);
    assert.equal(sign('Not bad at all'), 1);
    assert.equal(sign('never boring, always interesting'), 1);
    assert.equal(sign("can't wait for the next episode"), 1);
    // Negation stops at punctuation and "but".
    assert.equal(sign('No, this is great'), 1);
    assert.equal(polarity('not the guests but the audio is bad'), -1);
    // "like" as a preposition says nothing.
    assert.equal(polarity('looks like a movie set'), 0);
  });

  test('Spanish', () => {
    assert.equal(sign('Muy buen podcast'), 1);
    assert.equal(sign('No me gusta este formato'), -1);
    assert.equal(sign('No está nada mal'), 1);
    assert.equal(sign('Increíble entrevista, me encanta'), 1);
    assert.equal(sign('el peor podcast, muy aburrido'), -1);
    assert.equal(sign('nunca es aburrido'), 1);
  });

  test('Chinese', () => {
    assert.equal(sign('我很喜欢这个视频'), 1);
    assert.equal(sign('我不太喜欢这个视频'), -1);
    assert.equal(sign('一点也不好看'), -1);
    assert.equal(sign('没有用'), -1);
    assert.equal(sign('还不错'), 1);
    assert.equal(sign('不差'), 1);
    // Words that only look like sentiment.
    assert.equal(polarity('差不多吧，你好'), 0);
  });
});

describe('sentiment: overview', () => {
  test('weighted by likes, 60 % to lean', () => {
    assert.equal(sentimentOf([{ text: 'great episode' }, { text: 'really good' }, { text: 'terrible audio' }]), 'mostly_positive');
    assert.equal(sentimentOf([{ text: 'great episode' }, { text: 'terrible audio', likes: 100 }]), 'mostly_negative');
    assert.equal(sentimentOf([{ text: 'what time is it' }]), 'mixed');
  });

  test('the engine still exports polarity for the Ask strategies', () => {
    assert.equal(polarityViaEngine('not good'), polarity('not good'));
  });
});
