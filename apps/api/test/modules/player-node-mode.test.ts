import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayWorld } from '../helpers/player';
import { playLogin, player, startPlayWorld } from '../helpers/player';

/** The course reads of docs/product.md §7 that node mode (/render/node/{id}) and the player use. */
let w: PlayWorld;
let ann: ReturnType<typeof player>;

beforeAll(async () => {
  w = await startPlayWorld();
  ann = player(w.app, await playLogin(w.app, 'ann'));
});
afterAll(async () => w?.close());

interface Res {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: unknown }>;
}

async function courseId(title: string): Promise<string> {
  return (
    await w.tdb.db.selectFrom('courses').select('id').where('title', '=', title).executeTakeFirstOrThrow()
  ).id;
}

describe('course-nodes', () => {
  it('filters by course and type, sorts by order and includes children with their blocks', async () => {
    const course = await courseId('Practice');
    const res = await ann.send(
      'GET',
      `/api/course-nodes?filter[courseId]=${course}&filter[type]=container&sort=order&include=children.block`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Res[]; included: Res[]; meta: { total: number } };
    expect(body.data.map((n) => n.attributes.title)).toEqual(['First', 'Second']);
    expect(body.meta.total).toBe(2);
    const first = body.data[0]!;
    expect((first.relationships!.children!.data as unknown[]).length).toBe(3);
    const blocks = body.included.filter((r) => r.type === 'course-blocks');
    expect(blocks.map((b) => b.attributes.title)).toContain('Pick the even numbers');
    const mc = blocks.find((b) => b.attributes.title === 'Pick the even numbers')!;
    expect(mc.attributes).toMatchObject({ kind: 'exercice', settings: { hintCount: 2 } });
    expect(JSON.stringify(mc)).not.toContain('SECRET');
    expect(JSON.stringify(mc)).not.toContain('HINT-ONE');
  });

  it('one node with its parent; the timed node carries its limit', async () => {
    const node = await w.tdb.db
      .selectFrom('courseNodes')
      .select(['id', 'parentId'])
      .where('title', '=', 'Against the clock')
      .executeTakeFirstOrThrow();
    const res = await ann.send('GET', `/api/course-nodes/${node.id}?include=parent,children`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Res; included: Res[] };
    expect(body.data.attributes).toMatchObject({ kind: 'multiblock', parentId: node.parentId });
    expect(body.included.find((r) => r.id === node.parentId)?.attributes.title).toBe('Second');
    const kids = body.included.filter((r) => r.attributes.parentId === node.id);
    expect(kids.map((k) => (k.attributes.settings as { timeLimit: number }).timeLimit)).toEqual([60, 60]);
  });

  it('refuses unknown filters and hides nodes of other tenants', async () => {
    expect((await ann.send('GET', '/api/course-nodes?filter[blockId]=x')).statusCode).toBe(400);
    expect((await ann.send('GET', '/api/course-nodes/nope')).statusCode).toBe(404);
  });
});

describe('course-blocks, course-terms and courses', () => {
  it('a block with its terms, and the terms by id', async () => {
    const block = await w.tdb.db
      .selectFrom('courseBlocks')
      .select('id')
      .where('title', '=', 'Pick the even numbers')
      .executeTakeFirstOrThrow();
    const res = await ann.send('GET', `/api/course-blocks/${block.id}?include=terms`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Res; included: Res[] };
    expect(body.included.map((t) => t.attributes.title)).toEqual(['Half']);
    const termId = body.included[0]!.id;
    expect(body.data.attributes.termIds).toEqual([termId]);
    const terms = await ann.send('GET', `/api/course-terms?filter[id]=${termId},unknown`);
    expect((terms.json() as { data: Res[] }).data.map((t) => t.attributes)).toEqual([
      { title: 'Half', words: ['half'], definition: '<p>One of two equal parts.</p>' },
    ]);
  });

  it('courses/{id} with type and category', async () => {
    const res = await ann.send('GET', `/api/courses/${await courseId('Exam')}?include=courseType,category`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { included: Res[] };
    expect(body.included.find((r) => r.type === 'course-types')?.attributes).toMatchObject({
      settings: { hints: false, feedbacks: false, retry: false },
    });
    expect(body.included.find((r) => r.type === 'course-categories')?.attributes).toMatchObject({
      title: 'Maths',
    });
  });
});
