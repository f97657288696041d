import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDoc } from '../helpers/app';
import type { PageDoc, PlayWorld } from '../helpers/player';
import {
  PLAY_HOST,
  PLAY_PASSWORD,
  freshPractice as freshOf,
  playLogin,
  player,
  startPlayWorld,
  toTimedPage,
} from '../helpers/player';

/**
 * Time accommodation (RGAA 13.1, decision 0019): a class's teacher gives a learner ×1 to ×4 on
 * every time limit, or none; the server judges lateness and sends the limits with it. The clock
 * is the injected test clock (as in player-time.test.ts): nothing sleeps.
 */
let w: PlayWorld;
let ann: ReturnType<typeof player>;
let ben: ReturnType<typeof player>;
let classId: string;
/** Bearer tokens: a teacher of ann's class, a teacher of another class, the two learners. */
const tokens: Record<'tess' | 'omar' | 'ann' | 'ben', string> = { tess: '', omar: '', ann: '', ben: '' };
let teacher: ReturnType<typeof player>;

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;
const code = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0]?.code;
const freshPractice = (who: 'ann' | 'ben') => freshOf(w, who);

/** A staff account of the play tenant, with ann's password, teaching `teaches`. */
async function addTeacher(id: string, teaches: string): Promise<string> {
  const row = await w.tdb.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', w.users.ann)
    .executeTakeFirstOrThrow();
  const email = `${id}@play.test`;
  await w.tdb.db
    .insertInto('users')
    .values({ ...row, id, email, username: null, firstname: 'Teacher', lastname: id })
    .execute();
  await w.tdb.db
    .insertInto('classUsers')
    .values({ id: `cu-${id}`, classId: teaches, userId: id, role: 'TEACHER', createdAt: row.createdAt })
    .execute();
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: PLAY_HOST },
    payload: { email, password: PLAY_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { access_token: string }).access_token;
}

beforeAll(async () => {
  w = await startPlayWorld();
  tokens.ann = await playLogin(w.app, 'ann');
  tokens.ben = await playLogin(w.app, 'ben');
  ann = player(w.app, tokens.ann);
  ben = player(w.app, tokens.ben);
  const lesson = await w.tdb.db
    .selectFrom('lessons')
    .select(['classId', 'contextId', 'createdAt'])
    .where('id', '=', w.lessons.ann.practice)
    .executeTakeFirstOrThrow();
  classId = lesson.classId;
  await w.tdb.db
    .insertInto('classes')
    .values({
      id: 'c-other',
      contextId: lesson.contextId,
      companyId: null,
      name: 'Another class',
      startAt: null,
      expireAt: null,
      createdAt: lesson.createdAt,
      updatedAt: lesson.createdAt,
    })
    .execute();
  tokens.tess = await addTeacher('tess', classId);
  tokens.omar = await addTeacher('omar', 'c-other');
  teacher = player(w.app, tokens.tess);
});
afterAll(async () => w?.close());

const accommodationUrl = (userId: string, cls = classId) =>
  `/api/classes/${cls}/users/${userId}/time-accommodation`;
const setFor = (who: keyof typeof tokens, userId: string, body: unknown, cls = classId) =>
  w.app.inject({
    method: 'PUT',
    url: accommodationUrl(userId, cls),
    headers: { host: PLAY_HOST, authorization: `Bearer ${tokens[who]}` },
    payload: body as object,
  });

async function storedOf(userId: string) {
  return w.tdb.db
    .selectFrom('classUsers')
    .select(['timeFactor', 'noTimeLimit'])
    .where('classId', '=', classId)
    .where('userId', '=', userId)
    .where('role', '=', 'STUDENT')
    .executeTakeFirstOrThrow();
}

describe('a teacher sets a learner’s accommodation', () => {
  it('×1.5: stored, answered, and listed in the class’s learners data', async () => {
    const res = await setFor('tess', w.users.ann, { timeFactor: 1.5, noTimeLimit: false });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: unknown }).data).toEqual({
      type: 'time-accommodations',
      id: `${classId}:${w.users.ann}`,
      attributes: { classId, userId: w.users.ann, timeFactor: 1.5, noTimeLimit: false },
    });
    expect(await storedOf(w.users.ann)).toEqual({ timeFactor: 1.5, noTimeLimit: 0 });
    const data = await teacher.send('GET', `/api/classes/${classId}/users/data`);
    const rows = (data.json() as { data: { attributes: { userId: string; timeAccommodation: unknown } }[] })
      .data;
    expect(rows.find((r) => r.attributes.userId === w.users.ann)?.attributes.timeAccommodation).toEqual({
      classId,
      userId: w.users.ann,
      timeFactor: 1.5,
      noTimeLimit: false,
    });
  });

  it.each<[string, unknown]>([
    ['a factor above 4', { timeFactor: 5, noTimeLimit: false }],
    ['a factor below 1', { timeFactor: 0.5, noTimeLimit: false }],
    ['a factor and no limit at once', { timeFactor: 2, noTimeLimit: true }],
    ['a factor as text', { timeFactor: '1.5', noTimeLimit: false }],
    ['three decimals', { timeFactor: 1.255, noTimeLimit: false }],
    ['no flag', { timeFactor: 2 }],
    ['an unknown key', { timeFactor: 2, noTimeLimit: false, role: 'TEACHER' }],
  ])('refuses %s with 400 VALIDATION_ERROR and changes nothing', async (_label, body) => {
    const res = await setFor('tess', w.users.ann, body);
    expect(res.statusCode).toBe(400);
    expect(code(res)).toBe('VALIDATION_ERROR');
    expect(await storedOf(w.users.ann)).toEqual({ timeFactor: 1.5, noTimeLimit: 0 });
  });

  it('a learner cannot, for themself or another (403 Forbidden), nor a teacher of another class', async () => {
    for (const [who, userId] of [
      ['ann', w.users.ann],
      ['ben', w.users.ann],
      ['ben', w.users.ben],
      ['omar', w.users.ben],
    ] as const) {
      const res = await setFor(who, userId, { timeFactor: 4, noTimeLimit: false });
      expect(res.statusCode).toBe(403);
      expect(code(res)).toBe('Forbidden');
    }
    expect(await storedOf(w.users.ann)).toEqual({ timeFactor: 1.5, noTimeLimit: 0 });
    expect(await storedOf(w.users.ben)).toEqual({ timeFactor: null, noTimeLimit: 0 });
  });

  it('someone who is not a learner of the class, or a class that does not exist, is 404 MODEL_NOT_FOUND', async () => {
    for (const res of [
      await setFor('tess', 'tess', { timeFactor: 2, noTimeLimit: false }),
      await setFor('tess', 'nobody', { timeFactor: 2, noTimeLimit: false }),
      await setFor('tess', w.users.ann, { timeFactor: 2, noTimeLimit: false }, 'no-class'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(code(res)).toBe('MODEL_NOT_FOUND');
    }
  });
});

describe('×1.5 on a 60-second page (90 s for ann)', () => {
  it('sends the accommodated limit, and an answer after the plain limit but before 90 s is graded', async () => {
    const L = await freshPractice('ann');
    const timed = await toTimedPage(ann, L);
    expect(timed.attributes.timeLimit).toBe(90);
    expect((timed.attributes.node.settings as { timeLimit: number }).timeLimit).toBe(90);
    expect(doc(await ann.start(L, timed.id)).attributes.remainingSeconds).toBe(90);
    w.clock.advance(80); // past 60 s + the 2-second grace: late for anyone without the accommodation
    expect(doc(await ann.current(L, `?pageId=${timed.id}`)).attributes.remainingSeconds).toBe(10);
    const res = await ann.answer(L, timed.id, [1]);
    expect(res.statusCode).toBe(200);
    expect(doc(res).attributes.results!.score).toEqual({ actual: 10, max: 10 });
  });

  it('an answer after 90 s and its grace is refused with LESSON_PAGE_SKIPPED', async () => {
    const L = await freshPractice('ann');
    const timed = await toTimedPage(ann, L);
    await ann.start(L, timed.id);
    w.clock.advance(93);
    const res = await ann.answer(L, timed.id, [1]);
    expect(res.statusCode).toBe(409);
    expect(code(res)).toBe('LESSON_PAGE_SKIPPED');
  });

  it('ben, without accommodation, is late at 80 s on the same page', async () => {
    const B = await freshPractice('ben');
    const timed = await toTimedPage(ben, B);
    expect(timed.attributes.timeLimit).toBe(60);
    await ben.start(B, timed.id);
    w.clock.advance(80);
    expect(code(await ben.answer(B, timed.id, [1]))).toBe('LESSON_PAGE_SKIPPED');
  });

  it("the lesson's own limit too: 120 s becomes 180 s", async () => {
    const L = await freshPractice('ann');
    await w.tdb.db.updateTable('lessons').set({ timeLimit: 120 }).where('id', '=', L).execute();
    const page = doc(await ann.current(L));
    expect(page.attributes).toMatchObject({ lessonTimeLimit: 180, lessonRemainingSeconds: 180 });
    w.clock.advance(150);
    expect((await ann.answer(L, page.id)).statusCode).toBe(200);
    const next = doc(await ann.next(L, page.id));
    w.clock.advance(33); // 183 s: past 180 + 2
    expect(code(await ann.answer(L, next.id, [[0, 2]]))).toBe('LESSON_SKIPPED');
  });
});

describe('no time limit', () => {
  it('a timed page and a timed lesson never expire; no clock is started', async () => {
    const set = await setFor('tess', w.users.ann, { timeFactor: null, noTimeLimit: true });
    expect(set.statusCode).toBe(200);
    expect(await storedOf(w.users.ann)).toEqual({ timeFactor: null, noTimeLimit: 1 });
    const L = await freshPractice('ann');
    await w.tdb.db.updateTable('lessons').set({ timeLimit: 120 }).where('id', '=', L).execute();
    const timed = await toTimedPage(ann, L);
    expect(timed.attributes).toMatchObject({
      timeLimit: null,
      remainingSeconds: null,
      lessonTimeLimit: null,
      lessonRemainingSeconds: null,
    });
    expect((timed.attributes.node.settings as { timeLimit: unknown }).timeLimit).toBeNull();
    expect(doc(await ann.start(L, timed.id)).attributes.startedAt).toBeNull();
    w.clock.advance(24 * 3600);
    const res = await ann.answer(L, timed.id, [1]);
    expect(res.statusCode).toBe(200);
    expect(doc(res).attributes.results!.score).toEqual({ actual: 10, max: 10 });
  });

  it('removing the accommodation (factor null) brings the plain limits back at once', async () => {
    expect((await setFor('tess', w.users.ann, { timeFactor: null, noTimeLimit: false })).statusCode).toBe(
      200,
    );
    expect(await storedOf(w.users.ann)).toEqual({ timeFactor: null, noTimeLimit: 0 });
    const L = await freshPractice('ann');
    expect((await toTimedPage(ann, L)).attributes.timeLimit).toBe(60);
  });
});

describe('the lesson list sends the learner’s own lesson limit', () => {
  const listed = async (lessonId: string) => {
    const res = await ann.send('GET', '/api/lessons?page[size]=100');
    expect(res.statusCode).toBe(200);
    const rows = (res.json() as { data: { id: string; attributes: { timeLimit: number | null } }[] }).data;
    return rows.find((r) => r.id === lessonId)?.attributes.timeLimit;
  };

  it('a teacher’s change shows at the learner’s next read, though that read is served from memory', async () => {
    const L = w.lessons.ann.practice;
    await w.tdb.db.updateTable('lessons').set({ timeLimit: 120 }).where('id', '=', L).execute();
    expect(await listed(L)).toBe(120);
    expect(await listed(L)).toBe(120); // now kept by the answer cache (decision 0015)
    // The class_users triggers of migration 0014 move ann's stamp: the kept answer is not served.
    expect((await setFor('tess', w.users.ann, { timeFactor: 1.5, noTimeLimit: false })).statusCode).toBe(200);
    expect(await listed(L)).toBe(180);
    expect((await ann.lesson(L)).json()).toMatchObject({ data: { attributes: { timeLimit: 180 } } });
    expect((await setFor('tess', w.users.ann, { timeFactor: null, noTimeLimit: true })).statusCode).toBe(200);
    expect(await listed(L)).toBeNull();
    expect((await setFor('tess', w.users.ann, { timeFactor: null, noTimeLimit: false })).statusCode).toBe(
      200,
    );
    expect(await listed(L)).toBe(120);
  });
});
