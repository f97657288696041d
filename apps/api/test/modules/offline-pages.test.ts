import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playLogin, player, startPlayWorld } from '../helpers/player';
import type { PageDoc, PlayWorld } from '../helpers/player';

/**
 * GET /api/offline/lessons/{id}/pages (issue 12, decision 0013): the pages after the furthest one
 * reached, public views only, and reading them moves nothing.
 */

interface OfflineDoc {
  data: {
    type: string;
    id: string;
    attributes: {
      nodeId: string;
      index: number;
      count: number;
      needsNetwork: string | null;
      node: { title: string | null };
      block: { type: string; title: string } | null;
    };
  }[];
  meta: {
    total: number;
    lesson: { needsNetwork: string | null; started: boolean; courseTypeSettings: unknown };
  };
}

/** Keys that would carry an expected answer, a validator or an answer-tied feedback. */
const FORBIDDEN = [
  'solution',
  'validators',
  'expected',
  'accept',
  'correct',
  'incorrect',
  'feedback',
  'feedbacks',
  'match',
  'correction',
];

const titleOf = (d: OfflineDoc['data'][number]) => d.attributes.block?.title ?? d.attributes.node.title;

function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  return out;
}

let w: PlayWorld;
let ann: ReturnType<typeof player>;
let ben: ReturnType<typeof player>;

beforeAll(async () => {
  w = await startPlayWorld();
  ann = player(w.app, await playLogin(w.app, 'ann'));
  ben = player(w.app, await playLogin(w.app, 'ben'));
});
afterAll(async () => {
  await w?.close();
});

describe('offline pages', () => {
  it('lists the pages after the reached one, public views only, and moves nothing', async () => {
    const lessonId = w.lessons.ann.practice;
    const opened = await ann.current(lessonId);
    expect(opened.statusCode).toBe(200);
    const first = (opened.json() as PageDoc).data;
    expect(first.attributes.block?.title).toBe('Introduction');

    const res = await ann.send('GET', `/api/offline/lessons/${lessonId}/pages`);
    expect(res.statusCode).toBe(200);
    const doc = res.json() as OfflineDoc;
    expect(doc.data.map(titleOf)).toEqual([
      'Pick the even numbers',
      'Type the answer',
      'Against the clock',
      'Last one',
    ]);
    expect(doc.data.map((d) => d.attributes.index)).toEqual([1, 2, 3, 4]);
    expect(doc.data.every((d) => d.type === 'offline-pages' && d.attributes.count === 5)).toBe(true);
    // The multiblock's choice and its timed children are the server's: no content offline.
    expect(doc.data[2]?.attributes).toMatchObject({ needsNetwork: 'multiblock', block: null });
    expect(doc.data[0]?.attributes).toMatchObject({ needsNetwork: null, block: { type: 'exercice' } });

    // No expected answer, validator, hint text or answer-tied feedback anywhere in it.
    // (`feedbacks` exists only in meta, as the course type's on/off switch.)
    const keys = keysOf(doc.data);
    for (const k of FORBIDDEN) expect(keys.has(k), k).toBe(false);
    expect(res.body).not.toContain('SECRET');
    expect(res.body).not.toContain('HINT-ONE');
    expect(res.body).not.toContain('forty-two');

    // What a device needs to show a page of a lesson it never opened (decision 0020).
    expect(doc.meta.lesson).toMatchObject({ needsNetwork: null, started: true });
    expect(doc.meta.lesson.courseTypeSettings).toMatchObject({ hints: true, feedbacks: true });
    expect(keysOf(doc.meta).has('solution')).toBe(false);

    // Nothing moved: the current page is still the first one, and it is the only page.
    const again = (await ann.current(lessonId)).json() as PageDoc;
    expect(again.data.id).toBe(first.id);
    const pages = await w.tdb.db
      .selectFrom('lessonPages')
      .select('id')
      .where('lessonId', '=', lessonId)
      .execute();
    expect(pages).toHaveLength(1);
  });

  it('starts after the furthest reached page and honours limit', async () => {
    const lessonId = w.lessons.ann.practice;
    const first = ((await ann.current(lessonId)).json() as PageDoc).data;
    const next = await ann.next(lessonId, first.id);
    expect(next.statusCode).toBe(200);
    const res = await ann.send('GET', `/api/offline/lessons/${lessonId}/pages?limit=1`);
    expect(res.statusCode).toBe(200);
    const doc = res.json() as OfflineDoc;
    expect(doc.data.map(titleOf)).toEqual(['Type the answer']);
    expect(doc.meta.total).toBe(3);
  });

  it('a lesson not opened yet lists every page from the first, and opening nothing', async () => {
    const lessonId = w.lessons.ben.practice;
    const res = await ben.send('GET', `/api/offline/lessons/${lessonId}/pages`);
    expect(res.statusCode).toBe(200);
    const doc = res.json() as OfflineDoc;
    expect(doc.data.map((d) => d.attributes.index)).toEqual([0, 1, 2, 3, 4]);
    expect(doc.meta.lesson).toMatchObject({ needsNetwork: null, started: false });
    const pages = await w.tdb.db
      .selectFrom('lessonPages')
      .select('id')
      .where('lessonId', '=', lessonId)
      .execute();
    expect(pages).toHaveLength(0);
  });

  it("refuses another learner's lesson (404), a bad limit (400) and an anonymous call (401)", async () => {
    expect((await ben.send('GET', `/api/offline/lessons/${w.lessons.ann.practice}/pages`)).statusCode).toBe(
      404,
    );
    expect(
      (await ann.send('GET', `/api/offline/lessons/${w.lessons.ann.practice}/pages?limit=0`)).statusCode,
    ).toBe(400);
    const anonymous = await w.app.inject({
      method: 'GET',
      url: `/api/offline/lessons/${w.lessons.ann.practice}/pages`,
      headers: { host: 'play.test' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
