import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgWorld } from '../helpers/progression';
import { codeOf, learner, pointerOf, progLogin, startProgWorld } from '../helpers/progression';

/** docs/api.md "Progression": unlocking, end of program, actions, records (clock fixed). */
let w: ProgWorld;
let ann: ReturnType<typeof learner>;
let ben: ReturnType<typeof learner>;

beforeAll(async () => {
  w = await startProgWorld();
  ann = learner(w.app, await progLogin(w.app, 'ann'));
  ben = learner(w.app, await progLogin(w.app, 'ben'));
});
afterAll(async () => w?.close());

const stateInDb = async (id: string) =>
  (await w.tdb.db.selectFrom('lessons').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

describe('initial states', () => {
  it('sequential: the first course AVAILABLE, the others LOCKED; mode all: every course AVAILABLE', async () => {
    expect(await ann.state(w.lesson('ann', 'k-open', 'seq', 'c1'))).toBe('AVAILABLE');
    expect(await ann.state(w.lesson('ann', 'k-open', 'seq', 'c2'))).toBe('LOCKED');
    expect(await ann.state(w.lesson('ann', 'k-open', 'seq', 'c3'))).toBe('LOCKED');
    expect(await ann.state(w.lesson('ann', 'k-open', 'all', 'c4'))).toBe('AVAILABLE');
    expect(await ann.state(w.lesson('ann', 'k-open', 'all', 'c5'))).toBe('AVAILABLE');
  });

  it('a class not started yet, and a class program not started inside an open class, are HIDDEN', async () => {
    const res = await ann.send(
      'GET',
      `/api/lessons?filter[classId]=${w.classId('k-later')},${w.classId('k-narrow')}`,
    );
    expect(res.statusCode).toBe(200);
    const states = (res.json() as { data: { attributes: { state: string } }[] }).data.map(
      (l) => l.attributes.state,
    );
    expect(states).toHaveLength(6);
    expect(new Set(states)).toEqual(new Set(['HIDDEN']));
  });
});

describe('completing a lesson', () => {
  it('unlocks the next lesson in the same transaction as the answer that completes it', async () => {
    const c1 = w.lesson('ann', 'k-open', 'seq', 'c1');
    const c2 = w.lesson('ann', 'k-open', 'seq', 'c2');
    const end = await ann.complete(c1);
    expect(end.statusCode).toBe(409);
    expect(codeOf(end)).toBe('NO_LESSON_PAGE_AVAILABLE');
    // Straight from the database, before any lesson read could apply the rules.
    expect(await stateInDb(c1)).toBe('DONE');
    expect(await stateInDb(c2)).toBe('AVAILABLE');
    expect(await stateInDb(w.lesson('ann', 'k-open', 'seq', 'c3'))).toBe('LOCKED');
  });

  it('the ended lesson offers the unlocked lesson; it is not the end of the program', async () => {
    const l = await ann.lesson(w.lesson('ann', 'k-open', 'seq', 'c1'));
    expect(l.attributes).toMatchObject({
      state: 'DONE',
      progress: 'COMPLETED',
      isEndOfProgram: false,
      certificationRef: null,
      actions: {
        interactive: [],
        unlockedLessons: [{ id: w.lesson('ann', 'k-open', 'seq', 'c2'), title: 'Two' }],
      },
    });
  });

  it("only this learner's lessons move", async () => {
    expect(await stateInDb(w.lesson('ben', 'k-open', 'seq', 'c2'))).toBe('LOCKED');
  });

  it('the last course ends the program: isEndOfProgram and certificationRef are set', async () => {
    await ann.complete(w.lesson('ann', 'k-open', 'seq', 'c2'));
    await ann.complete(w.lesson('ann', 'k-open', 'seq', 'c3'));
    const last = await ann.lesson(w.lesson('ann', 'k-open', 'seq', 'c3'));
    expect(last.attributes).toMatchObject({
      state: 'DONE',
      progress: 'COMPLETED',
      isEndOfProgram: true,
      actions: { interactive: [], unlockedLessons: [] },
    });
    expect(last.attributes.certificationRef).toMatch(/^REF-C3-[0-9A-F]{10}$/);
    const res = await ann.send(
      'GET',
      `/api/lessons?filter[classProgramId]=${w.classProgram('k-open', 'seq')}&filter[certificationRef]=notnull`,
    );
    expect((res.json() as { data: { id: string }[] }).data.map((d) => d.id)).toEqual([last.id]);
  });

  it('a last course whose type delivers no certificate ends the program without a certificationRef', async () => {
    await ann.complete(w.lesson('ann', 'k-open', 'all', 'c5'));
    const last = await ann.lesson(w.lesson('ann', 'k-open', 'all', 'c5'));
    expect(last.attributes).toMatchObject({ state: 'DONE', isEndOfProgram: true, certificationRef: null });
  });

  it('a lesson that unlocks two courses offers both', async () => {
    await ann.complete(w.lesson('ann', 'k-open', 'branch', 'c1'));
    const l = await ann.lesson(w.lesson('ann', 'k-open', 'branch', 'c1'));
    expect(l.attributes.actions).toEqual({
      interactive: [],
      unlockedLessons: [
        { id: w.lesson('ann', 'k-open', 'branch', 'c2'), title: 'Two' },
        { id: w.lesson('ann', 'k-open', 'branch', 'c3'), title: 'Three' },
      ],
    });
    expect(await stateInDb(w.lesson('ann', 'k-open', 'branch', 'c3'))).toBe('AVAILABLE');
  });
});

describe('records', () => {
  it('one record per learner and day, with XP, pages done and time', async () => {
    const res = await ann.send('GET', '/api/records?filter[userId]=me&sort=-date&page[size]=1');
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      data: { type: string; attributes: { userId: string; date: string; scoring: Record<string, number> } }[];
      meta: { total: number };
    };
    expect(body.meta.total).toBe(1);
    expect(body.data[0]).toMatchObject({
      type: 'records',
      attributes: { userId: w.users.ann, date: w.clock.now().toISOString() },
    });
    expect(body.data[0]!.attributes.scoring).toEqual({
      xp: 0,
      donePageCount: 7,
      timeAlive: expect.any(Number),
    });
  });

  it('before a date, by my id; another learner’s records are refused', async () => {
    const before = (q: string) =>
      ann.send('GET', `/api/records?filter[userId]=${w.users.ann}&filter[before]=${encodeURIComponent(q)}`);
    expect((await before(w.clock.now().toISOString())).json()).toMatchObject({ meta: { total: 0 } });
    expect((await before(new Date(w.clock.t + 1).toISOString())).json()).toMatchObject({
      meta: { total: 1 },
    });
    // The same instant written with an offset.
    expect((await before('2026-05-01T12:00:00.001+02:00')).json()).toMatchObject({ meta: { total: 1 } });
    expect((await before('not-a-date')).statusCode).toBe(400);
    const other = await ann.send('GET', `/api/records?filter[userId]=${w.users.ben}`);
    expect(other.statusCode).toBe(403);
    expect(((await ben.send('GET', '/api/records')).json() as { meta: { total: number } }).meta.total).toBe(
      0,
    );
  });
});

describe('POST /api/lessons/{id}/actions', () => {
  const quiz = (who: 'ann' | 'ben', c: string) => w.lesson(who, 'k-open', 'quiz', c);

  it('a question is answered only once the lesson has ended', async () => {
    const res = await ben.actions(quiz('ben', 'c1'), [{ actionIdx: 0, choiceIdx: 0 }]);
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('BAD_REQUEST');
  });

  it('the ended lesson shows its question with target lesson ids; nothing opens by itself', async () => {
    await ann.complete(quiz('ann', 'c1'));
    const l = await ann.lesson(quiz('ann', 'c1'));
    expect(l.attributes.actions).toEqual({
      interactive: [
        {
          label: 'Which one next?',
          choices: [
            { response: 'Two', action: { target: quiz('ann', 'c2') } },
            { response: 'Three', action: { target: quiz('ann', 'c3') } },
          ],
        },
      ],
      unlockedLessons: [],
    });
    expect(await stateInDb(quiz('ann', 'c2'))).toBe('LOCKED');
    expect(await stateInDb(quiz('ann', 'c3'))).toBe('LOCKED');
  });

  it.each<[string, unknown, string]>([
    ['action index out of range', [{ actionIdx: 1, choiceIdx: 0 }], '/inputs/0/actionIdx'],
    ['choice index out of range', [{ actionIdx: 0, choiceIdx: 2 }], '/inputs/0/choiceIdx'],
    ['missing choice index', [{ actionIdx: 0 }], '/inputs/0/choiceIdx'],
    ['missing action index', [{ choiceIdx: 0 }], '/inputs/0/actionIdx'],
    ['negative index', [{ actionIdx: 0, choiceIdx: -1 }], '/inputs/0/choiceIdx'],
    ['no input', [], '/inputs'],
    [
      'the same action twice',
      [
        { actionIdx: 0, choiceIdx: 0 },
        { actionIdx: 0, choiceIdx: 1 },
      ],
      '/inputs/1/actionIdx',
    ],
  ])('%s: 400 VALIDATION_ERROR, nothing written', async (_label, inputs, pointer) => {
    const res = await ann.actions(quiz('ann', 'c1'), inputs);
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('VALIDATION_ERROR');
    expect(pointerOf(res)).toBe(pointer);
    expect(await stateInDb(quiz('ann', 'c3'))).toBe('LOCKED');
  });

  it('a lesson without a question: 400', async () => {
    const res = await ann.actions(w.lesson('ann', 'k-open', 'seq', 'c1'), [{ actionIdx: 0, choiceIdx: 0 }]);
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('VALIDATION_ERROR');
  });

  it("another learner cannot act on this learner's lesson (404), nor on an unknown one", async () => {
    for (const id of [quiz('ann', 'c1'), 'nope']) {
      const res = await ben.actions(id, [{ actionIdx: 0, choiceIdx: 1 }]);
      expect(res.statusCode).toBe(404);
      expect(codeOf(res)).toBe('MODEL_NOT_FOUND');
    }
    expect(await stateInDb(quiz('ann', 'c3'))).toBe('LOCKED');
  });

  it('the choice opens its target and answers with it', async () => {
    const res = await ann.actions(quiz('ann', 'c1'), [{ actionIdx: 0, choiceIdx: 1 }]);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: { type: string; id: string; attributes: { state: string } } };
    expect(body.data).toMatchObject({
      type: 'lessons',
      id: quiz('ann', 'c3'),
      attributes: { state: 'AVAILABLE' },
    });
    expect(await stateInDb(quiz('ann', 'c2'))).toBe('LOCKED');
    const l = await ann.lesson(quiz('ann', 'c1'));
    expect(l.attributes.actions).toEqual({
      interactive: [],
      unlockedLessons: [{ id: quiz('ann', 'c3'), title: 'Three' }],
    });
  });

  it('the same answer again is harmless; another answer is 409 INVALID_INPUTS', async () => {
    expect((await ann.actions(quiz('ann', 'c1'), [{ actionIdx: 0, choiceIdx: 1 }])).statusCode).toBe(200);
    const res = await ann.actions(quiz('ann', 'c1'), [{ actionIdx: 0, choiceIdx: 0 }]);
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('INVALID_INPUTS');
    expect(await stateInDb(quiz('ann', 'c2'))).toBe('LOCKED');
  });
});

describe('the end-of-program evaluation (reviews)', () => {
  const review = (who: typeof ann, body: Record<string, unknown>) => who.send('POST', '/api/reviews', body);
  const valid = () => ({
    classId: w.classId('k-open'),
    resourceType: 'program',
    resourceId: w.programId('seq'),
    ratio: 0.8,
    comment: 'Clear and useful.',
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['ratio not a fifth', { ratio: 0.5 }, '/ratio'],
    ['ratio 0 (no rating)', { ratio: 0 }, '/ratio'],
    ['ratio above 1', { ratio: 1.2 }, '/ratio'],
    ['ratio missing', { ratio: undefined }, '/ratio'],
    ['comment over 1000 characters', { comment: 'x'.repeat(1001) }, '/comment'],
    ['another resource type', { resourceType: 'course' }, '/resourceType'],
    ['no class', { classId: undefined }, '/classId'],
  ])('%s: 400 VALIDATION_ERROR', async (_label, patch, pointer) => {
    const res = await review(ann, { ...valid(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('VALIDATION_ERROR');
    expect(pointerOf(res)).toBe(pointer);
  });

  it('a program of another class of mine, or not followed at all: 403', async () => {
    expect((await review(ben, { ...valid(), classId: w.classId('k-later') })).statusCode).toBe(403);
    expect((await review(ann, { ...valid(), resourceId: 'unknown' })).statusCode).toBe(403);
  });

  it('creates the review (exactly 1000 characters allowed), lists it, and refuses a second one with 409', async () => {
    const res = await review(ann, { ...valid(), comment: 'é'.repeat(1000) });
    expect(res.statusCode).toBe(201);
    const created = (
      res.json() as { data: { type: string; id: string; attributes: Record<string, unknown> } }
    ).data;
    expect(created).toMatchObject({
      type: 'reviews',
      attributes: {
        classId: w.classId('k-open'),
        resourceType: 'program',
        resourceId: w.programId('seq'),
        ratio: 0.8,
        userId: w.users.ann,
      },
    });
    const again = await review(ann, { ...valid(), ratio: 1 });
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('BAD_REQUEST');
    const list = await ann.send(
      'GET',
      `/api/reviews?filter[resourceType]=program&filter[resourceId]=${w.programId('seq')}&filter[userId]=me&page[size]=1`,
    );
    expect(list.statusCode).toBe(200);
    expect((list.json() as { data: { id: string }[] }).data.map((d) => d.id)).toEqual([created.id]);
    const bens = await ben.send(
      'GET',
      `/api/reviews?filter[resourceType]=program&filter[resourceId]=${w.programId('seq')}`,
    );
    expect((bens.json() as { meta: { total: number } }).meta.total).toBe(0);
    expect((await ben.send('GET', `/api/reviews?filter[userId]=${w.users.ann}`)).statusCode).toBe(403);
  });

  it('two reviews of the same program sent at once: one 201, one 409, one row', async () => {
    // A review needs the learner's own completed end of the program (decision 0009).
    await ben.complete(w.lesson('ben', 'k-open', 'all', 'c5'));
    const body = { ...valid(), resourceId: w.programId('all'), comment: null };
    const results = await Promise.all([
      review(ben, body),
      review(ben, { ...body, ratio: 0.2 }),
      review(ben, { ...body, ratio: 1 }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(codeOf(r)).toBe('BAD_REQUEST');
    const rows = await w.tdb.db
      .selectFrom('reviews')
      .select('id')
      .where('userId', '=', w.users.ben)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
