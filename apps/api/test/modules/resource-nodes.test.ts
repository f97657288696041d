import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableId } from '../../src/lib/ids';
import type { TincanWorld } from '../helpers/tincan';
import { doc, startTincanWorld } from '../helpers/tincan';

/**
 * Resource nodes under a block (issue 14, docs/product.md §3 "a block holds resources"), on the demo
 * content: "Keep the fire instructions at hand" (English tenant, the last page of "Health and
 * safety at work") holds the resource "The assembly point". It is served by
 * GET pages/{id}/resources for the toolbar, and by the course-nodes reads for node mode; it is
 * never a page of the lesson. Node mode's guidance (course-nodes/{id}/guidance) is tested here
 * too: progression, free hints only, general feedbacks only.
 */
let w: TincanWorld;
const node = (course: string, id: string) =>
  stableId(course === 'sante-securite' ? 'fr' : 'en', 'node', course, id);

beforeAll(async () => {
  w = await startTincanWorld('resnodes');
});
afterAll(async () => w?.close());

interface Res {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}

/** Closes pages empty (a multiblock: its first child) until `stop` holds or the lesson ends; the pages seen. */
async function walk(lessonId: string, stop: (nodeId: string) => boolean) {
  const p = w.client(w.learnerToken);
  let res = await p.current(lessonId);
  const seen: ReturnType<typeof doc>[] = [];
  for (let guard = 0; guard < 20 && res.statusCode === 200; guard++) {
    let page = doc(res);
    const first = page.attributes.children[0];
    if (first) page = doc(await p.choose(lessonId, page.id, first.nodeId));
    seen.push(page);
    if (stop(page.attributes.nodeId)) break;
    expect((await p.close(lessonId, page.id)).statusCode).toBe(200);
    res = await p.next(lessonId, page.id);
  }
  return seen;
}

function learner() {
  const headers = { host: 'en.localhost', authorization: `Bearer ${w.learnerToken}` };
  return (url: string) => w.app.inject({ method: 'GET', url, headers });
}

describe('resource nodes in the demo content', () => {
  it('are imported under their block node in both tenants, as block nodes of a slide', async () => {
    const rows = await w.t.db
      .selectFrom('courseNodes as n')
      .innerJoin('courseNodes as p', 'p.id', 'n.parentId')
      .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
      .select(['n.id', 'n.type', 'p.type as parentType', 'b.type as blockType', 'b.title'])
      .where('p.type', '=', 'block')
      .orderBy('b.title')
      .execute();
    expect(rows).toEqual([
      {
        id: node('sante-securite', 'r-plan-evacuation'),
        type: 'block',
        parentType: 'block',
        blockType: 'slide',
        title: 'Le point de rassemblement',
      },
      {
        id: node('health-safety', 'r-assembly-point'),
        type: 'block',
        parentType: 'block',
        blockType: 'slide',
        title: 'The assembly point',
      },
    ]);
  });

  it('are never a page of the lesson: the walk ends on their block, and the tree does not list them', async () => {
    const lessonId = await w.newLesson(w.learnerId);
    const titles = (await walk(lessonId, () => false)).map((x) => x.attributes.block?.title);
    expect(titles.at(-1)).toBe('Keep the fire instructions at hand');
    expect(titles).not.toContain('The assembly point');
    const lesson = (await learner()(`/api/lessons/${lessonId}`)).json() as {
      data: { attributes: { tree: { pages: { nodeId: string }[] }[] } };
    };
    const pages = lesson.data.attributes.tree.flatMap((s) => s.pages.map((x) => x.nodeId));
    expect(pages).toContain(node('health-safety', 'p-instructions'));
    expect(pages).not.toContain(node('health-safety', 'r-assembly-point'));
  });

  it('GET pages/{id}/resources lists the resource with its block, and the attached files', async () => {
    const lessonId = await w.newLesson(w.learnerId);
    const page = (await walk(lessonId, (id) => id === node('health-safety', 'p-instructions'))).at(-1)!;
    const res = await learner()(`/api/pages/${page.id}/resources?lessonId=${lessonId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      data: { id: string; attributes: { node: Res['attributes']; block: Res['attributes'] } }[];
      meta: { files: { name: string; download: string }[] };
    };
    expect(body.data.map((r) => r.id)).toEqual([node('health-safety', 'r-assembly-point')]);
    const block = body.data[0]!.attributes.block as {
      title: string;
      content: {
        statement: { html: string };
        sections: { rows: { appFile: { name: string; url: string } }[] }[];
      };
    };
    expect(block.title).toBe('The assembly point');
    expect(block.content.statement.html).toContain('evacuation plan');
    expect(block.content.sections[0]!.rows[0]!.appFile).toMatchObject({
      name: 'fire-safety-checklist.pdf',
      url: expect.stringMatching(/\/api\/files\/.+\/download\?u=.+&sig=/),
    });
    expect(body.meta.files.map((f) => f.name).sort()).toEqual([
      'fire-reminder.mp3',
      'fire-safety-checklist.pdf',
    ]);

    // Another learner's lesson: not found, nothing listed.
    const other = await w.newLesson(w.teacherId);
    expect((await learner()(`/api/pages/${page.id}/resources?lessonId=${other}`)).statusCode).toBe(404);
  });

  it('GET pages/{id}/resources on a multiblock page lists no resource: its children are choices (K-2)', async () => {
    const lessonId = await w.newLesson(w.learnerId);
    const p = w.client(w.learnerToken);
    let res = await p.current(lessonId);
    let multiblock: ReturnType<typeof doc> | null = null;
    for (let guard = 0; guard < 20 && res.statusCode === 200 && !multiblock; guard++) {
      const page = doc(res);
      if (page.attributes.children.length > 0) multiblock = page;
      else {
        expect((await p.close(lessonId, page.id)).statusCode).toBe(200);
        res = await p.next(lessonId, page.id);
      }
    }
    expect(multiblock?.attributes.nodeId).toBe(node('health-safety', 'm-react'));
    const listed = await learner()(`/api/pages/${multiblock!.id}/resources?lessonId=${lessonId}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { data: unknown[] }).data).toEqual([]);
  });

  it('node mode reads the resource as a child of the block node, with its block', async () => {
    const res = await learner()(
      `/api/course-nodes/${node('health-safety', 'p-instructions')}?include=children.block`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as { included: Res[] };
    expect(body.included.filter((r) => r.type === 'course-nodes').map((r) => r.id)).toEqual([
      node('health-safety', 'r-assembly-point'),
    ]);
    expect(body.included.find((r) => r.type === 'course-blocks')?.attributes.title).toBe(
      'The assembly point',
    );
  });
});

describe('GET course-nodes/{id}/guidance (node mode)', () => {
  type Guidance = {
    position: { index: number; count: number } | null;
    hints: { messages: string[]; total: number };
    feedbacks: { preset: string; message: string }[];
  };
  const guidance = async (id: string) => {
    const res = await learner()(`/api/course-nodes/${id}/guidance`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { attributes: Guidance } }).data.attributes;
  };

  it('gives the progression, the free hints only and the general feedbacks given whatever the answer', async () => {
    const g = await guidance(node('health-safety', 'p-workshop'));
    expect(g.position).toEqual({ index: 1, count: 4 });
    // The block's second hint costs 2 points: it is paid for in the lesson, never read here.
    expect(g.hints).toEqual({
      messages: ['Look at the floor of the walkway and at the top of the shelves.'],
      total: 2,
    });
    expect(JSON.stringify(g)).not.toContain('Three things could make someone slip');
    const blocks = await w.t.db.selectFrom('courseBlocks').select(['id', 'solution']).execute();
    const always = blocks.flatMap((b) =>
      (JSON.parse(b.solution) as { feedbacks: { when: string; message: string }[] }).feedbacks.filter(
        (f) => f.when !== 'always',
      ),
    );
    for (const f of always) expect(JSON.stringify(g)).not.toContain(f.message);
  });

  it('counts a multiblock child at its multiblock; its feedbacks marked always wait until no lesson of the learner can still grade it (K-1)', async () => {
    const alarm = await guidance(node('health-safety', 'p-alarm'));
    expect(alarm.position).toEqual({ index: 1, count: 3 });
    // The learner has open lessons of this course where the block is not answered yet: node mode
    // shows what the page shows before an answer, no feedback.
    expect(alarm.feedbacks).toEqual([]);
    const open = await w.t.db
      .selectFrom('lessons as l')
      .innerJoin('courses as c', 'c.id', 'l.courseId')
      .select('l.id')
      .where('l.userId', '=', w.learnerId)
      .where('c.title', '=', 'Health and safety at work')
      .execute();
    expect(open.length).toBeGreaterThan(0);
    // Once every such lesson has ended, nothing can be graded any more: the feedbacks are shown.
    await w.t.db
      .updateTable('lessons')
      .set({ progress: 'COMPLETED' })
      .where(
        'id',
        'in',
        open.map((l) => l.id),
      )
      .execute();
    const after = await guidance(node('health-safety', 'p-alarm'));
    expect(after.feedbacks.length).toBeGreaterThan(0);
    expect(after.feedbacks[0]).toMatchObject({ preset: expect.any(String), message: expect.any(String) });
  });

  it('answers 404 for an unknown node, and 401 without a token', async () => {
    expect((await learner()('/api/course-nodes/nope/guidance')).statusCode).toBe(404);
    const anonymous = await w.app.inject({
      method: 'GET',
      url: `/api/course-nodes/${node('health-safety', 'p-alarm')}/guidance`,
      headers: { host: 'en.localhost' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
