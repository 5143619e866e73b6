/**
 * Why a question found nothing (issue 22): the reason names the limit that removed everything —
 * the item in focus, transcripts or comments, a time range — when the question's words are in the
 * corpus outside it, or a time range that cannot be applied; and says what to do instead.
 * Generated corpora: random words per item, one planted topic word per case.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { whyNoHits } from '../../src/core/ask/noHits';
import { loadCorpus } from '../../src/core/corpus/loader';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { mulberry32 } from '../../src/core/util/seededRandom';
import { parsedQuery } from '../support/parsedQuery';

const FILLER = ['harbor', 'lanes', 'battery', 'winter', 'bakery', 'traffic', 'commute', 'market', 'rider', 'street', 'window', 'garden'];
const TOPICS = ['zeppelin', 'quinoa', 'saxophone', 'glacier', 'origami', 'tornado', 'meteorite', 'falafel'];

const query = parsedQuery;

interface Planted {
  dir: string;
  /** The item whose transcript says the topic, at which turn (30 s per turn). */
  topicItem: string;
  topicTurn: number;
  /** The item whose comments say the topic. */
  commentItem: string;
}

/** Three items: a timed transcript (item0), an untimed one (item1), comments only (item2); `topic` said in item0's transcript at one turn and in item2's comments. */
async function corpusWith(root: string, topic: string, commentTopic: string, rnd: () => number): Promise<Planted> {
  const sentence = (): string => Array.from({ length: 9 }, () => FILLER[Math.floor(rnd() * FILLER.length)]).join(' ');
  const turnsN = 12 + Math.floor(rnd() * 12);
  const topicTurn = 6 + Math.floor(rnd() * (turnsN - 6));
  await mkdir(path.join(root, 'item0'), { recursive: true });
  const turns = Array.from({ length: turnsN }, (_, t) => ({ speaker: `S${t % 2}`, text: t === topicTurn ? `${sentence()} ${topic} ${sentence()}` : sentence(), start: t * 30, end: t * 30 + 29 }));
  await writeFile(path.join(root, 'item0', 'transcript.json'), JSON.stringify({ turns }));
  await mkdir(path.join(root, 'item1'), { recursive: true });
  await writeFile(path.join(root, 'item1', 'transcript.txt'), Array.from({ length: 8 }, () => sentence()).join('\n'));
  await mkdir(path.join(root, 'item2'), { recursive: true });
  const lines = Array.from({ length: 6 }, (_, c) => JSON.stringify({ comment_id: `c${c}`, author: `user${c}`, text: c === 3 ? `${sentence()} ${commentTopic}` : sentence(), likes: c }));
  await writeFile(path.join(root, 'item2', 'comments.jsonl'), `${lines.join('\n')}\n`);
  return { dir: root, topicItem: 'item0', topicTurn, commentItem: 'item2' };
}

describe('why a question has no hits', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-nohits-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('a limit that removed everything is named, with where the words are and what to do', async () => {
    const rnd = mulberry32(2201);
    for (let v = 0; v < 6; v++) {
      const topic = TOPICS[v % TOPICS.length]!;
      const commentTopic = TOPICS[(v + 3) % TOPICS.length]!;
      const p = await corpusWith(path.join(work, `c${v}`), topic, commentTopic, rnd);
      const corpus = await loadCorpus(p.dir);
      const index = CorpusIndex.build(corpus);
      const itemIds = corpus.items.map((i) => i.id);
      const id = (suffix: string): string => itemIds.find((x) => x.endsWith(suffix))!;

      // The item in focus does not say it; another item does.
      const inOther = whyNoHits(query({ keywords: [topic], filters: { itemIds: [id('item1')] } }), corpus, index);
      assert.match(inOther, new RegExp(`"${topic}" is not in the item the question is limited to, but in .*item0.*; ask the whole corpus`), inOther);

      // Asked of transcripts, said in comments (and the reverse).
      const inComments = whyNoHits(query({ keywords: [commentTopic], part: 'transcript' }), corpus, index);
      assert.match(inComments, new RegExp(`"${commentTopic}" occurs in the comments, not in the transcripts the question is about; ask about the comments instead`), inComments);
      const inTranscript = whyNoHits(query({ keywords: [topic], part: 'comments' }), corpus, index);
      assert.match(inTranscript, /occurs in the transcripts, not in the comments the question is about; ask about the transcripts instead/, inTranscript);

      // Said outside the time range asked about: where it is said.
      const at = p.topicTurn * 30;
      const early = whyNoHits(query({ keywords: [topic], timeConstraint: { startS: 0, endS: 60 }, filters: { itemIds: [id('item0')] } }), corpus, index);
      assert.match(early, new RegExp(`"${topic}" is said outside 0:00–1:00 \\(at [^)]*${Math.floor(at / 60)}:${String(at % 60).padStart(2, '0')}`), early);
      assert.match(early, /ask without the time/);

      // A time range on a transcript without timestamps or duration cannot be applied.
      const untimed = whyNoHits(query({ keywords: ['zzqx'], timeConstraint: { startS: 60, endS: 120 }, filters: { itemIds: [id('item1')] } }), corpus, index);
      assert.match(untimed, /no transcript in item ".*item1" has timestamps or a duration, so the time cannot be applied; ask without the time/, untimed);

      // Words found nowhere: nothing matches them (the limits are not blamed).
      const nowhere = whyNoHits(query({ keywords: [`plorbt${v}`], filters: { itemIds: [id('item0')] } }), corpus, index);
      assert.match(nowhere, new RegExp(`^nothing in item ".*item0" matches the words "plorbt${v}"`), nowhere);
    }
  });

  test('without the index the reasons are those of the corpus alone (the CLI and chat pass it; nothing breaks without)', async () => {
    const p = await corpusWith(path.join(work, 'plain'), 'zeppelin', 'quinoa', mulberry32(7));
    const corpus = await loadCorpus(p.dir);
    const r = whyNoHits(query({ keywords: ['zeppelin'], filters: { itemIds: [corpus.items.find((i) => i.id.endsWith('item1'))!.id] } }), corpus);
    assert.match(r, /^nothing in item ".*item1" matches the words "zeppelin"/);
  });
});
