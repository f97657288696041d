import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerCacheCounts } from '../../../src/lib/answer-cache';
import { hashPassword } from '../../../src/lib/password';
import { PLAY_PASSWORD, playLogin, playLoginAs, player, startPlayWorld } from '../../helpers/player';
import type { PageDoc, PlayWorld } from '../../helpers/player';

/**
 * Issue 13: correction of a learner's page by staff, by route or by window message — both end in
 * `GET lessons/{id}/pages/current?pageId=`. A teacher of the lesson's class and an administrator
 * of the tenant read the learner's answers against the expected ones, without starting or moving
 * anything; a teacher of another class and another learner get the 404 of a foreign lesson.
 */
let w: PlayWorld;
let annPageId: string;
let unansweredPageId: string;

beforeAll(async () => {
  w = await startPlayWorld();
  const db = w.tdb.db;
  const ann = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', w.users.ann)
    .executeTakeFirstOrThrow();
  const lesson = await db
    .selectFrom('lessons')
    .select(['classId'])
    .where('id', '=', w.lessons.ann.practice)
    .executeTakeFirstOrThrow();
  const hash = await hashPassword(PLAY_PASSWORD);
  const staff = (id: string, email: string) => ({
    ...ann,
    id,
    email,
    username: null,
    firstname: id,
    lastname: 'Staff',
    passwordHash: hash,
  });
  await db
    .insertInto('users')
    .values([staff('tom', 'tom@play.test'), staff('otto', 'otto@play.test'), staff('ada', 'ada@play.test')])
    .execute();
  const other = await db
    .selectFrom('classes')
    .selectAll()
    .where('id', '=', lesson.classId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('classes')
    .values({ ...other, id: 'other-class', name: 'Other class' })
    .execute();
  await db
    .insertInto('classUsers')
    .values([
      { id: 'cu-tom', classId: lesson.classId, userId: 'tom', role: 'TEACHER', createdAt: ann.createdAt },
      { id: 'cu-otto', classId: 'other-class', userId: 'otto', role: 'TEACHER', createdAt: ann.createdAt },
    ])
    .execute();
  const role = await db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirst();
  const roleId = role?.id ?? 'role-admin-play';
  if (!role) await db.insertInto('roles').values({ id: roleId, name: 'admin', description: null }).execute();
  await db
    .insertInto('roleUsers')
    .values({ id: 'ru-ada', roleId, principalType: 'USER', principalId: 'ada', scopeId: ann.contextId })
    .execute();

  // Ann answers the multiple-choice page wrongly (a retry is open for her), and reaches the next one.
  const p = player(w.app, await playLogin(w.app, 'ann'));
  const intro = (await p.current(w.lessons.ann.practice)).json() as PageDoc;
  await p.answer(w.lessons.ann.practice, intro.data.id);
  const mc = (await p.next(w.lessons.ann.practice, intro.data.id)).json() as PageDoc;
  annPageId = mc.data.id;
  await p.answer(w.lessons.ann.practice, annPageId, [[1]]);
  const free = (await p.next(w.lessons.ann.practice, annPageId)).json() as PageDoc;
  unansweredPageId = free.data.id;
});
afterAll(async () => {
  await w.close();
});

const read = (token: string, pageId = annPageId) =>
  player(w.app, token).current(w.lessons.ann.practice, `?pageId=${pageId}`);

describe('staff correction of a learner page', () => {
  it.each([
    ['a teacher of the class', 'tom@play.test'],
    ['an administrator of the tenant', 'ada@play.test'],
  ])("lets %s read the learner's answers against the expected ones", async (_who, email) => {
    const res = await read(await playLoginAs(w.app, email));
    expect(res.statusCode).toBe(200);
    const page = (res.json() as PageDoc).data.attributes;
    expect(page.inputs).toEqual({ answers: [[1]] });
    // Ann may still retry, so her own view withholds the key; staff see it.
    const detail = JSON.stringify(page.results?.correction);
    expect(detail).toContain('missing');
    expect(
      (
        await player(w.app, await playLogin(w.app, 'ann')).current(
          w.lessons.ann.practice,
          `?pageId=${annPageId}`,
        )
      ).body,
    ).not.toContain('"missing"');
  });

  it('moves nothing: the learner still continues where she was', async () => {
    const before = await w.tdb.db
      .selectFrom('lessons')
      .selectAll()
      .where('id', '=', w.lessons.ann.practice)
      .executeTakeFirstOrThrow();
    await read(await playLoginAs(w.app, 'tom@play.test'));
    const after = await w.tdb.db
      .selectFrom('lessons')
      .selectAll()
      .where('id', '=', w.lessons.ann.practice)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it.each([
    ['a teacher of another class', 'otto@play.test'],
    ['another learner', 'ben@play.test'],
  ])('gives %s the 404 of a foreign lesson', async (_who, email) => {
    const res = await read(await playLoginAs(w.app, email));
    expect(res.statusCode).toBe(404);
    expect((res.json() as { errors: { code: string }[] }).errors[0]?.code).toBe('MODEL_NOT_FOUND');
  });

  it('says there is nothing to correct on a page not answered yet', async () => {
    const res = await read(await playLoginAs(w.app, 'tom@play.test'), unansweredPageId);
    expect(res.statusCode).toBe(404);
    expect((res.json() as { errors: { code: string }[] }).errors[0]?.code).toBe('MODEL_NOT_FOUND');
  });

  // Decision 0068: the learner's own read is kept under her stamps; the correction is about
  // someone else's rows, which the teacher's stamps do not follow, so it is built every time.
  it("is built for every read, never kept nor taken from the learner's: her retry shows at once", async () => {
    const counts = answerCacheCounts(w.tdb.db);
    const ann = await playLogin(w.app, 'ann');
    const tom = await playLoginAs(w.app, 'tom@play.test');
    const own = (await read(ann)).body;
    expect((await read(ann)).body).toBe(own);
    const { hits, builds } = counts;
    const first = await read(tom);
    const second = await read(tom);
    expect(counts).toMatchObject({ hits, builds: builds + 2 });
    expect(second.body).toBe(first.body);
    expect(first.body).not.toBe(own);
    expect(first.body).toContain('"missing"');
    // Ann retries the page: the attempt the teacher read is archived, and the teacher sees so.
    expect((await player(w.app, ann).retry(w.lessons.ann.practice, annPageId)).statusCode).toBe(200);
    expect((await read(tom)).statusCode).toBe(404);
  });
});
