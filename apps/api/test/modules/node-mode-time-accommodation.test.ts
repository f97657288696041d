import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSqliteStatements, sqliteDatabaseOf } from '../../src/db/prepared';
import { hashPassword } from '../../src/lib/password';
import { PLAY_PASSWORD, playLoginAs, player, startPlayWorld } from '../helpers/player';
import type { PlayWorld } from '../helpers/player';

/**
 * Node mode and time accommodation (decision 0019, follow-up): a node id carries no enrolment, so
 * the learner gets the most generous accommodation of their STUDENT enrolments whose classes'
 * programs include the node's course, on every node sent (included ones too). Staff and
 * administrators get the content's limits.
 *
 * World: class c1 (both programs: Practice and Exam courses) with ann and ben; c2 (Practice path)
 * and c3 (Exam path: the Exam course only) with ann; tom teaches c1; ada is an administrator and
 * a learner of c1.
 */
interface Res {
  id: string;
  type: string;
  attributes: { title: string | null; settings: { timeLimit?: number | null } };
}
interface Doc<T> {
  data: T;
  included?: Res[];
}

let w: PlayWorld;
const tokens: Record<string, string> = {};
/** "Last one" (30 s here), the multiblock "Against the clock" (children 60 s), the exam page (30 s here). */
let lastId: string;
let chronoId: string;
let examId: string;
let c1Id: string;

async function accommodate(classId: string, userId: string, timeFactor: number | null, noTimeLimit: 0 | 1) {
  await w.tdb.db
    .updateTable('classUsers')
    .set({ timeFactor, noTimeLimit })
    .where('classId', '=', classId)
    .where('userId', '=', userId)
    .execute();
}

async function get<T>(who: string, url: string): Promise<Doc<T>> {
  const res = await player(w.app, tokens[who]!).send('GET', url);
  expect(res.statusCode).toBe(200);
  return res.json() as Doc<T>;
}
const limit = (r: Res | undefined) => r?.attributes.settings.timeLimit;

/** The limits `who` sees: "Last one" (with its parent), the multiblock's children, the exam page. */
async function seen(who: string) {
  const last = await get<Res>(who, `/api/course-nodes/${lastId}?include=parent`);
  const chrono = await get<Res>(who, `/api/course-nodes/${chronoId}?include=children`);
  const list = await get<Res[]>(who, `/api/course-nodes?filter[id]=${lastId},${examId}`);
  return {
    last: limit(last.data),
    parent: limit(last.included?.[0]),
    children: (chrono.included ?? []).map(limit),
    listed: Object.fromEntries(list.data.map((r) => [r.id === examId ? 'exam' : 'last', limit(r)])),
  };
}

beforeAll(async () => {
  w = await startPlayWorld();
  const db = w.tdb.db;
  const nodeOf = (title: string) =>
    db
      .selectFrom('courseNodes as n')
      .leftJoin('courseBlocks as b', 'b.id', 'n.blockId')
      .select('n.id')
      .where((eb) => eb.or([eb('b.title', '=', title), eb('n.title', '=', title)]))
      .executeTakeFirstOrThrow();
  lastId = (await nodeOf('Last one')).id;
  chronoId = (await nodeOf('Against the clock')).id;
  examId = (await nodeOf('Exam question')).id;
  await db
    .updateTable('courseNodes')
    .set({ settings: JSON.stringify({ timeLimit: 30 }) })
    .where('id', 'in', [lastId, examId])
    .execute();

  const ann = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', w.users.ann)
    .executeTakeFirstOrThrow();
  const hash = await hashPassword(PLAY_PASSWORD);
  const user = (id: string) => ({ ...ann, id, email: `${id}@play.test`, username: null, passwordHash: hash });
  await db
    .insertInto('users')
    .values([user('tom'), user('ada')])
    .execute();
  const c1 = await db
    .selectFrom('classes')
    .selectAll()
    .where('name', '=', 'Class one')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('classes')
    .values([
      { ...c1, id: 'c2', name: 'Class two' },
      { ...c1, id: 'c3', name: 'Class three' },
    ])
    .execute();
  const programId = async (name: string) =>
    (await db.selectFrom('programs').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  await db
    .insertInto('classPrograms')
    .values([
      { id: 'cp-c2', classId: 'c2', programId: await programId('Practice path') },
      { id: 'cp-c3', classId: 'c3', programId: await programId('Exam path') },
    ])
    .execute();
  const enrol = (id: string, classId: string, userId: string, role: string) => ({
    id,
    classId,
    userId,
    role,
    createdAt: ann.createdAt,
    // All keys in every row: a multi-row insert writes NULL for a key a row lacks.
    timeFactor: null as number | null,
    noTimeLimit: 0,
  });
  await db
    .insertInto('classUsers')
    .values([
      enrol('cu-ann-c2', 'c2', w.users.ann, 'STUDENT'),
      enrol('cu-ann-c3', 'c3', w.users.ann, 'STUDENT'),
      // Hand-written data: a teacher's row holding a factor still gives no accommodation.
      { ...enrol('cu-tom', c1.id, 'tom', 'TEACHER'), timeFactor: 3 },
      { ...enrol('cu-ada', c1.id, 'ada', 'STUDENT'), noTimeLimit: 1 },
    ])
    .execute();
  const role = await db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirst();
  const roleId = role?.id ?? 'role-admin-play';
  if (!role) await db.insertInto('roles').values({ id: roleId, name: 'admin', description: null }).execute();
  await db
    .insertInto('roleUsers')
    .values({ id: 'ru-ada', roleId, principalType: 'USER', principalId: 'ada', scopeId: ann.contextId })
    .execute();
  for (const who of ['ann', 'ben', 'tom', 'ada']) tokens[who] = await playLoginAs(w.app, `${who}@play.test`);
  c1Id = c1.id;
  await accommodate(c1Id, w.users.ann, 1.5, 0);
});
afterAll(async () => {
  await w?.close();
});

/** What `seen` answers: "Last one" and the exam page at `last` (or `exam`), each child at `child`. */
const sees = (last: number | null, child: number | null, exam = last) => ({
  last,
  parent: null,
  children: [child, child],
  listed: { last, exam },
});
const PLAIN = sees(30, 60);

describe('node mode with a time accommodation', () => {
  it('×1.5 in one class: 45 for a 30 s node, on included nodes too; another learner has the plain limits', async () => {
    expect(await seen('ann')).toEqual(sees(45, 90));
    expect(await seen('ben')).toEqual(PLAIN);
  });

  it('no time limit: every limit is null (no countdown)', async () => {
    await accommodate(c1Id, w.users.ann, null, 1);
    try {
      expect(await seen('ann')).toEqual(sees(null, null));
    } finally {
      await accommodate(c1Id, w.users.ann, 1.5, 0);
    }
  });

  it('×1.5 and ×2 in two classes of the course: ×2; a learner of the other class keeps the plain limits', async () => {
    await accommodate('c2', w.users.ann, 2, 0);
    expect(await seen('ann')).toEqual(sees(60, 120));
    expect(await seen('ben')).toEqual(PLAIN);
  });

  it("per course: no limit in a class whose program has only the Exam course leaves Practice's nodes at ×2", async () => {
    await accommodate('c3', w.users.ann, null, 1);
    try {
      expect(await seen('ann')).toEqual(sees(60, 120, null));
    } finally {
      await accommodate('c3', w.users.ann, null, 0);
    }
  });

  it('staff and administrators get the plain limits', async () => {
    expect(await seen('tom')).toEqual(PLAIN);
    expect(await seen('ada')).toEqual(PLAIN);
  });

  it.runIf(!process.env.DATABASE_URL)(
    'reads the accommodation in one statement per request, none when no node sent is timed (SQLite)',
    async () => {
      const reads = async (url: string) => {
        const counter = countSqliteStatements(sqliteDatabaseOf(w.tdb.db)!);
        let statements: string[] = [];
        try {
          await get('ann', url);
        } finally {
          statements = counter.stop();
        }
        expect(statements.length).toBeGreaterThan(0);
        return statements.filter((s) => s.includes('time_factor')).length;
      };
      // Two courses, timed nodes in data and included: one statement.
      expect(
        await reads(`/api/course-nodes?filter[id]=${lastId},${examId},${chronoId}&include=children,parent`),
      ).toBe(1);
      // No timed node: no statement at all.
      const section = await w.tdb.db
        .selectFrom('courseNodes')
        .select('parentId')
        .where('id', '=', lastId)
        .executeTakeFirstOrThrow();
      expect(await reads(`/api/course-nodes/${section.parentId}`)).toBe(0);
    },
  );
});
