import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playLogin, player, startPlayWorld } from '../helpers/player';
import type { PlayWorld } from '../helpers/player';

/**
 * Offline pages and time accommodation (decisions 0013 and 0019): a timed page needs the server's
 * clock, except for a learner whose enrolment has no time limit — their limit is none, so the page
 * is theirs to play offline. Everyone else, ×1.5 included, still needs the network.
 */

interface OfflineDoc {
  data: {
    attributes: {
      nodeId: string;
      needsNetwork: string | null;
      node: { settings: { timeLimit?: number | null } };
      block: { title: string } | null;
    };
  }[];
  meta: { lesson: { needsNetwork: string | null } };
}

let w: PlayWorld;
let ann: ReturnType<typeof player>;
let ben: ReturnType<typeof player>;
/** The play course's last page ("Last one"), given a 30-second limit for these tests. */
let lastNodeId: string;

async function accommodate(who: 'ann' | 'ben', timeFactor: number | null, noTimeLimit: 0 | 1) {
  const lesson = await w.tdb.db
    .selectFrom('lessons')
    .select('classId')
    .where('id', '=', w.lessons[who].practice)
    .executeTakeFirstOrThrow();
  await w.tdb.db
    .updateTable('classUsers')
    .set({ timeFactor, noTimeLimit })
    .where('classId', '=', lesson.classId)
    .where('userId', '=', w.users[who])
    .where('role', '=', 'STUDENT')
    .execute();
}

async function offline(p: ReturnType<typeof player>, lessonId: string) {
  const res = await p.send('GET', `/api/offline/lessons/${lessonId}/pages`);
  expect(res.statusCode).toBe(200);
  const doc = res.json() as OfflineDoc;
  const last = doc.data.find((d) => d.attributes.nodeId === lastNodeId);
  expect(last).toBeDefined();
  return { last: last!.attributes, lesson: doc.meta.lesson };
}

beforeAll(async () => {
  w = await startPlayWorld();
  ann = player(w.app, await playLogin(w.app, 'ann'));
  ben = player(w.app, await playLogin(w.app, 'ben'));
  // Before any offline read, so no process cache holds the course without the limit.
  const node = await w.tdb.db
    .selectFrom('courseNodes as n')
    .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
    .select('n.id')
    .where('b.title', '=', 'Last one')
    .executeTakeFirstOrThrow();
  lastNodeId = node.id;
  await w.tdb.db
    .updateTable('courseNodes')
    .set({ settings: JSON.stringify({ timeLimit: 30 }) })
    .where('id', '=', lastNodeId)
    .execute();
  await w.tdb.db
    .updateTable('lessons')
    .set({ timeLimit: 120 })
    .where('id', 'in', [w.lessons.ann.practice, w.lessons.ben.practice])
    .execute();
  await accommodate('ann', null, 1);
  await accommodate('ben', 1.5, 0);
});
afterAll(async () => {
  await w?.close();
});

describe('offline pages with a time accommodation', () => {
  it('a learner with no time limit gets the timed page and the timed lesson for offline use', async () => {
    const { last, lesson } = await offline(ann, w.lessons.ann.practice);
    expect(last.needsNetwork).toBeNull();
    expect(last.block?.title).toBe('Last one');
    // The limit the player would send them: none, so the device shows no countdown.
    expect(last.node.settings.timeLimit).toBeNull();
    expect(lesson.needsNetwork).toBeNull();
  });

  it('×1.5 still needs the network, with the accommodated limit and no content', async () => {
    const { last, lesson } = await offline(ben, w.lessons.ben.practice);
    expect(last).toMatchObject({ needsNetwork: 'timed', block: null });
    expect(last.node.settings.timeLimit).toBe(45);
    expect(lesson.needsNetwork).toBe('timed');
  });

  it('without an accommodation the page needs the network again at the next read', async () => {
    await accommodate('ann', null, 0);
    const { last, lesson } = await offline(ann, w.lessons.ann.practice);
    expect(last).toMatchObject({ needsNetwork: 'timed', block: null });
    expect(last.node.settings.timeLimit).toBe(30);
    expect(lesson.needsNetwork).toBe('timed');
  });
});
