import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgWorld } from '../../helpers/progression';
import { codeOf, learner, progLogin, startProgWorld } from '../../helpers/progression';

/**
 * Issue 10 finding 4 (decision 0009): an end-of-program review (POST /api/reviews) needs the
 * learner's own completed end of that program, in that class, as a STUDENT of the class
 * (docs/product.md §4: the player offers the evaluation once the end of the program is COMPLETED).
 */
let w: ProgWorld;
let ann: ReturnType<typeof learner>;
let ben: ReturnType<typeof learner>;

beforeAll(async () => {
  w = await startProgWorld();
  ann = learner(w.app, await progLogin(w.app, 'ann'));
  ben = learner(w.app, await progLogin(w.app, 'ben'));
  // Ben teaches the narrow class (he is not one of its learners).
  await w.tdb.db
    .insertInto('classUsers')
    .values({
      id: 'review-rights-teacher',
      classId: w.classId('k-narrow'),
      userId: w.users.ben,
      role: 'TEACHER',
      createdAt: new Date().toISOString(),
    })
    .execute();
});
afterAll(async () => w?.close());

const review = (who: typeof ann, classId: string, programId: string) =>
  who.send('POST', '/api/reviews', {
    classId,
    resourceType: 'program',
    resourceId: programId,
    ratio: 0.8,
    comment: null,
  });
const reviewCount = async () => (await w.tdb.db.selectFrom('reviews').select('id').execute()).length;

describe('finding 4: who may review a program', () => {
  it('a program not started (the class opens later): 403, no review', async () => {
    const res = await review(ann, w.classId('k-later'), w.programId('seq'));
    expect(res.statusCode).toBe(403);
    expect(codeOf(res)).toBe('Forbidden');
    expect(await reviewCount()).toBe(0);
  });

  it('a program started but not completed: 403, no review', async () => {
    const c1 = w.lesson('ann', 'k-open', 'seq', 'c1');
    expect((await ann.complete(c1)).statusCode).toBe(409);
    const res = await review(ann, w.classId('k-open'), w.programId('seq'));
    expect(res.statusCode).toBe(403);
    expect(await reviewCount()).toBe(0);
  });

  it('a teacher of the class: 403, no review', async () => {
    const res = await review(ben, w.classId('k-narrow'), w.programId('seq'));
    expect(res.statusCode).toBe(403);
    expect(await reviewCount()).toBe(0);
  });

  it('the learner whose end of program is completed: 201; another learner of the class still 403', async () => {
    for (const c of ['c2', 'c3'])
      expect((await ann.complete(w.lesson('ann', 'k-open', 'seq', c))).statusCode).toBe(409);
    const end = await ann.lesson(w.lesson('ann', 'k-open', 'seq', 'c3'));
    expect(end.attributes).toMatchObject({ progress: 'COMPLETED', isEndOfProgram: true });
    const res = await review(ann, w.classId('k-open'), w.programId('seq'));
    expect(res.statusCode, res.body).toBe(201);
    expect((await review(ben, w.classId('k-open'), w.programId('seq'))).statusCode).toBe(403);
    expect(await reviewCount()).toBe(1);
  });
});
