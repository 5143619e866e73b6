import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { extractComments } from '../../src/core/markers/extractiveComments';
import { TopicStats, topicCandidates } from '../../src/core/markers/keyphrases';
import { commentsSummarySchema } from '../../src/core/markers/schema';
import { detectSpam, normaliseForSpam, scoreComment, SPAM_THRESHOLD, stripLinks } from '../../src/core/markers/spam';
import { corpusSpam } from '../../src/core/markers/spamFree';
import { itemMarkersView, spamNote } from '../../src/shared/sidebarModel';

const isSpam = (text: string, videoId?: string): boolean => scoreComment(text, { videoId }).score >= SPAM_THRESHOLD;
const reasons = (text: string): string[] => scoreComment(text).reasons;

describe('spam: each cue', () => {
  test('links: a bare link, a referral link, a shortener, a disguised domain', () => {
    assert.ok(isSpam('http://www.example-shop.com/deals'));
    assert.ok(reasons('http://www.example-shop.com/deals').includes('bare link'));
    assert.ok(isSpam('great video https://somesite.net/signup?ref=12345 join now'));
    assert.ok(reasons('join here https://somesite.net/signup?ref=12345').includes('referral link'));
    assert.ok(isSpam('look at this bit.ly/3xYz12'));
    assert.ok(isSpam('Wow. Visit mysite . com for more'));
    assert.ok(reasons('Join the fight at mysite dot com and tell your friends about it today please, we need everyone').includes('disguised link'));
  });

  test("a link to the item's own video is harmless", () => {
    assert.equal(isSpam('Katy Perry - Roar (Official): http://youtu.be/CevxZvSJLk8', 'CevxZvSJLk8'), false);
    assert.equal(isSpam('Katy Perry - Roar (Official): http://youtu.be/CevxZvSJLk8'), true);
  });

  test('channel plugs in English, Spanish and Chinese', () => {
    for (const t of [
      'Check out my channel!',
      'hey guys check my new video, you will love it',
      'Please visit my youtube channel for covers',
      'check out this you[tube] channel: somebody99',
      'Check out this video on YouTube:',
      'Suscríbete a mi canal por favor',
      'Los invito a suscribirse a mi canal',
      'pásate por mi canal, subo vídeos cada semana',
      '大家好，欢迎关注我的频道',
      '求关注，每天更新',
    ]) assert.ok(isSpam(t), t);
  });

  test('subscribe requests and sub-for-sub', () => {
    for (const t of ['Subscribe to me', 'SUB 4 SUB', "subscribe to my channel and i'll subscribe back", 'LIKE AND SUBSCRIBE', 'Please subscribe!!', 'Anybody who subscribes to me gets a shout out'])
      assert.ok(isSpam(t), t);
  });

  test('job and money scams, freebies, investment scams', () => {
    for (const t of [
      'Make $500 a day working from home, no experience needed',
      'I earn extra money online every week, ask me how',
      'Free gift cards for everyone who signs up',
      'Get free robux here',
      'I invested with Mrs Susan and now I earn passive income, contact her on whatsapp +1 555 123 4567',
      'Gana dinero desde casa con tu celular',
      '在家兼职，日赚三百，加微信 abc12345',
    ]) assert.ok(isSpam(t), t);
  });

  test('engagement bait and solicitations', () => {
    assert.ok(isSpam('Like this comment for no reason'));
    assert.ok(isSpam('Please vote for me in the contest http://contest.example.com/vote/123'));
    assert.ok(isSpam('Please help me get 100 subscribers by tonight!'));
    assert.ok(isSpam('Please donate: https://www.gofundme.com/my-cause'));
  });

  test('all caps, spaced letters, look-alike letters and punctuation only strengthen promotion', () => {
    assert.ok(scoreComment('PLEASE SUBSCRIBE TO MY CHANNEL FOR MORE VIDEOS').reasons.includes('all caps'));
    assert.deepEqual(scoreComment('I LOVE THIS SONG SO MUCH IT IS THE BEST EVER').reasons, []);
    assert.equal(isSpam('I LOVE THIS SONG SO MUCH IT IS THE BEST EVER!!!!!!!!'), false);
    assert.equal(isSpam('P E A C E  &  L O V E ! !'), false);
    assert.ok(normaliseForSpam('s u b s c r i b e').tricks.includes('spaced letters'));
    assert.equal(normaliseForSpam('s u b s c r i b e').text, 'subscribe');
    // Cyrillic а and е inside a Latin word.
    const n = normaliseForSpam('Subscrib\u0435 to my ch\u0430nnel');
    assert.equal(n.text, 'subscribe to my channel');
    assert.ok(n.tricks.includes('look-alike letters'));
    assert.ok(isSpam('Subscrib\u0435 to my ch\u0430nnel'));
    assert.ok(isSpam('CHECK OUT MY CHANNEL!!!!!!!! 🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥'));
  });
});

describe('spam: hams that must stay', () => {
  test('genuine comments that mention subscribing, channels, money or links in passing', () => {
    for (const t of [
      'I subscribed after this episode, the guests are always great',
      'This channel deserves more subscribers, the research is so careful',
      'He said the company lost $500 a day during the strike, which surprised me',
      'The study they mention is here: https://en.wikipedia.org/wiki/Bicycle_lane, worth reading for the numbers on injuries',
      'Good interview. The source for the 30% figure is https://www.reuters.com/article/xyz if anyone wants it, it matches what the guest said about freight costs',
      'Thumbs up if you watched it in 2011',
      'I love this song, it never gets old',
      'Love this song makes me wanna dance!',
      'check out 2:35, the drop is insane',
    ]) assert.equal(isSpam(t), false, t);
  });

  test('Spanish and Chinese hams', () => {
    for (const t of [
      'me suscribo de inmediato, puro contenido de calidad',
      'Suscrito! Contenido top',
      'Gracias por impulsarme a abrir mi canal de Youtube y publicar contenido!',
      'Soy de los primeros 150 subs',
      'Muy top. Me flipa el formato charla mientras cenais. Seguir así ❤',
      'Hay que perder la libertad para entenderlo.ES JODIDO',
      'Dejen de idolatrar a los criminales, no hacen ningún favor al ganar poco dinero en poco tiempo',
      '这个视频很有参考价值，我也在长春开了两个冬天',
      '谢谢博主，关注了很久，第一次留言',
      '赚钱不容易，他说的很对',
    ]) assert.equal(isSpam(t), false, t);
  });
});

describe('spam: the corpus', () => {
  test('a template repeated across items is spam; a short praise repeated is not', () => {
    const campaign = 'Hi everyone, we are a small band from the north and we just uploaded our first record, we would love your feedback';
    const items = [
      { itemId: 'a', comments: [{ id: 'a1', text: campaign, author: 'band' }, { id: 'a2', text: 'Best song ever!', author: 'x' }, { id: 'a3', text: 'Best song ever!', author: 'y' }] },
      { itemId: 'b', comments: [{ id: 'b1', text: campaign, author: 'band2' }, { id: 'b2', text: 'Best song ever!', author: 'z' }] },
      { itemId: 'c', comments: [{ id: 'c1', text: `${campaign}!!`, author: 'band3' }] },
    ];
    const spam = detectSpam(items);
    assert.deepEqual([...spam.get('a')!.ids], ['a1']);
    assert.deepEqual([...spam.get('b')!.ids], ['b1']);
    assert.deepEqual([...spam.get('c')!.ids], ['c1']);
    assert.ok(spam.get('a')!.reasons.get('a1')!.some((r) => r.startsWith('template')));
  });

  test("a spammer's borderline comment elsewhere is spam; the same words from someone else are not", () => {
    const spam = detectSpam([
      { itemId: 'a', comments: [{ id: 'a1', text: 'Subscribe to my channel for daily vlogs', author: 'bob' }] },
      { itemId: 'b', comments: [{ id: 'b1', text: 'Thumbs up if you are watching in 2015', author: 'Bob' }, { id: 'b2', text: 'Thumbs up if you are watching in 2015', author: 'amy' }] },
    ]);
    assert.deepEqual([...spam.get('b')!.ids], ['b1']);
    assert.ok(spam.get('b')!.reasons.get('b1')!.includes('author posts spam'));
    // Someone else's: engagement bait (0.5) and what the learned model adds, below the threshold.
    const b2 = spam.get('b')!.scores.get('b2')!;
    assert.ok(b2 >= 0.5 && b2 < SPAM_THRESHOLD, String(b2));
  });

  test('two copies of one item are not a campaign across items', () => {
    const texts = Array.from({ length: 8 }, (_, i) => `This is genuine comment number ${'abcdefgh'[i]} about the interview and the guest and what they said about the market`);
    const copy = (itemId: string) => ({ itemId, comments: texts.map((text, i) => ({ id: `${itemId}-${i}`, text, author: `user${i}` })) });
    const spam = detectSpam([copy('a'), copy('a-again')]);
    assert.equal(spam.get('a')!.ids.size, 0);
    assert.equal(spam.get('a-again')!.ids.size, 0);
  });

  test('the same text within one comment, repeated, strengthens a plug', () => {
    const t = 'Follow me watch my videos :) Follow me watch my videos :) Follow me watch my videos :)';
    assert.ok(scoreComment(t).reasons.includes('repetition'));
    assert.ok(isSpam(t));
  });

  test('stripLinks removes links, also disguised ones', () => {
    assert.equal(stripLinks('see http://x.com/a and mysite . com now').replace(/\s+/g, ' ').trim(), 'see and now');
  });
});

describe('spam: the sidebar', () => {
  test('the note of an item whose comments held spam', () => {
    assert.equal(spamNote(0), null);
    assert.equal(spamNote(1), '1 comment looks like spam, excluded');
    assert.equal(spamNote(12), '12 comments look like spam, excluded');
  });
});

describe('spam: the comments pass', () => {
  test('spam never becomes a comment marker or theme, and is listed in the summary', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-spam-'));
    try {
      const item = path.join(dir, 'video-1');
      await mkdir(item);
      await writeFile(path.join(item, 'meta.json'), JSON.stringify({ title: 'Bike lanes', video_id: 'abcdefghijk' }));
      const rows = [
        { comment_id: 'h1', text: 'The protected bike lanes on Harbor Avenue cut my commute by ten minutes every day.', likes: 40 },
        { comment_id: 'h2', text: 'I think the city should publish the injury numbers for every intersection.', likes: 12 },
        { comment_id: 'h3', text: 'Our bakery lost some parking but foot traffic went up by 20 percent this spring.', likes: 30 },
        { comment_id: 's1', text: 'Make $500 a day working from home with this simple trick, the best money system: http://cash.example.com/?ref=99', likes: 90 },
        { comment_id: 's2', text: 'Check out my channel for the best bike lane videos, subscribe and I will subscribe back!', likes: 80 },
        { comment_id: 's3', text: 'Visit marketglory . com and earn real money playing games', likes: 70 },
      ].map((r) => JSON.stringify({ ...r, author: r.comment_id, published_at: '2024-01-01T00:00:00Z', parent_id: null }));
      await writeFile(path.join(item, 'comments.jsonl'), `${rows.join('\n')}\n`);
      const corpus = await loadCorpus(dir);
      const it = corpus.items[0]!;
      const stats = new TopicStats();
      stats.addDocument(topicCandidates(it.comments!.text));
      const spam = corpusSpam(corpus);
      assert.deepEqual([...spam.get(it.id)!.ids].sort(), ['s1', 's2', 's3']);

      const out = extractComments(it, stats, { spam: spam.get(it.id) })!;
      const s = out.summary;
      commentsSummarySchema.parse(s);
      assert.deepEqual(s.spam, { count: 3, comment_ids: ['s1', 's2', 's3'] });
      const markers = [...s.key_facts_from_comments, ...s.key_opinions_from_comments, ...s.key_datapoints_from_comments, ...s.top_engagement_markers];
      assert.ok(markers.length > 0);
      const spamComments = it.comments!.comments.filter((c) => c.id.startsWith('s'));
      for (const m of markers) {
        for (const ev of m.evidence) assert.ok(!spamComments.some((c) => ev.start < c.offset + c.text.length && ev.end > c.offset), `${m.kind} rests on spam: ${m.text}`);
      }
      for (const t of s.major_themes) assert.ok(!/money|channel|subscribe|marketglory|cash|com\b/.test(t), t);
      const view = itemMarkersView(it, { item_id: it.id, title: it.title, content_hash: it.contentHash, engine: 'extractive', model: null, prompt_version: null, cache_key: 'k', generated_at: '2024-01-01T00:00:00Z', transcript_summary: null, comments_summary: s, coverage: { transcript: null, comments: out.coverage }, usage: { promptTokens: 0, completionTokens: 0, calls: 0 } });
      assert.equal(view.spamExcluded, 3);
      assert.ok(!view.groups.some((g) => g.key === 'themes' && g.values.some((v) => /marketglory|money/.test(v))));
      // Without the corpus decision the pass judges the item alone, with the same result here.
      assert.deepEqual(extractComments(it, stats)!.summary.spam, s.spam);
      // Filtering off: spam is reported, not excluded.
      const before = extractComments(it, stats, { spam: spam.get(it.id), excludeSpam: false })!.summary;
      assert.equal(before.spam?.count, 3);
      assert.ok(before.top_engagement_markers.some((m) => /\$500|channel|marketglory/.test(m.text)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('old comment summaries without `spam` still parse', () => {
    const old = { key_facts_from_comments: [], key_opinions_from_comments: [], key_datapoints_from_comments: [], major_themes: [], sentiment_overview: 'mixed', top_engagement_markers: [], total_comments: 0, total_markers: 0 };
    assert.equal(commentsSummarySchema.parse(old).spam, undefined);
  });
});
