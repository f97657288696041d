import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatabaseOf } from '../../src/db/prepared';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { playLogin, player, startPlayWorld } from '../helpers/player';

/**
 * Decision 0016: one answer (PATCH …/pages/current, a fresh page that does not end the lesson)
 * executes at most 5 SQL statements on SQLite, counted at better-sqlite3 itself — every
 * statement run, whoever runs it (Kysely, prepared queries, the write batcher's BEGIN/COMMIT),
 * authentication included. A trigger's body runs inside the statement that fires it and is not
 * a statement of its own; what it writes is checked here too (XP, lesson score).
 * Not timed: statements are counted, not measured.
 */
let w: PlayWorld;
let token: string;
const executed: string[] = [];
let counting = false;

beforeAll(async () => {
  w = await startPlayWorld();
  token = await playLogin(w.app, 'ann');
});
afterAll(async () => {
  unwrap();
  await w?.close();
});

// Statement methods live on one prototype shared by every statement of the process.
const proto = SQLite.prototype.prepare.call(new SQLite(':memory:'), 'select 1').constructor
  .prototype as Record<string, (...a: unknown[]) => unknown>;
const originals = new Map<string, (...a: unknown[]) => unknown>();
function wrap(database: SQLite.Database): void {
  for (const m of ['run', 'get', 'all', 'iterate']) {
    const orig = proto[m]!;
    originals.set(m, orig);
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      if (counting) executed.push(this.source);
      return orig.apply(this, args);
    };
  }
  const exec = database.exec.bind(database);
  database.exec = (source: string) => {
    if (counting) executed.push(source);
    return exec(source);
  };
}
function unwrap(): void {
  for (const [m, orig] of originals) proto[m] = orig;
}

async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  executed.length = 0;
  counting = true;
  try {
    const value = await fn();
    return { value, statements: [...executed] };
  } finally {
    counting = false;
  }
}

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;

describe.runIf(!process.env.DATABASE_URL)('statements per answer (SQLite)', () => {
  it('answering a fresh page runs at most 5 statements, and still credits XP and the lesson', async () => {
    const database = sqliteDatabaseOf(w.tdb.db);
    expect(database).toBeDefined();
    wrap(database!);
    const L = w.lessons.ann.practice;
    const p = player(w.app, token);
    const intro = doc(await p.current(L));
    expect((await p.answer(L, intro.id)).statusCode).toBe(200);
    const mc = doc(await p.next(L, intro.id));

    // Sanity: the counter sees statements at all (a read of the current page runs several).
    const read = await counted(() => p.current(L));
    expect(read.statements.length).toBeGreaterThan(0);

    const { value: res, statements } = await counted(() => p.answer(L, mc.id, [[0, 2]]));
    expect(res.statusCode).toBe(200);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(5);

    const user = await w.tdb.db
      .selectFrom('users')
      .select(['scoring', 'donePageCount'])
      .where('id', '=', w.users.ann)
      .executeTakeFirstOrThrow();
    expect(Number((JSON.parse(user.scoring) as { xp?: number }).xp)).toBe(10);
    expect(user.donePageCount).toBe(2);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['scoring', 'progress', 'startedAt'])
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(lesson.scoring) as { global: unknown }).global).toEqual({ actual: 10, max: 10 });
    expect(lesson.progress).toBe('ONGOING');
    expect(lesson.startedAt).not.toBeNull();
    // The response's lesson score is the one written.
    expect(
      (res.json() as { data: { attributes: { lessonScoring?: unknown } } }).data.attributes.lessonScoring,
    ).toEqual({
      global: { actual: 10, max: 10 },
    });
  });
});
