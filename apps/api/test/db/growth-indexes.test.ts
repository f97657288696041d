import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db';
import { findClassTeachers, findUsersForLogin } from '../../src/modules/users/repository';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';

/**
 * Migration 0015 (decision 0022): sign-in must not read every user of a big tenant. The plan the
 * database really chooses for the query sign-in sends (captured from findUsersForLogin, then
 * EXPLAINed) uses the index on lower(email), on both databases, once the tenant has thousands of
 * learners and the planner knows it. Plans, not timings: the test says the same on any machine.
 */
const USERS = 5000;
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  const at = '2026-01-01T00:00:00.000Z';
  await t.db
    .insertInto('contexts')
    .values({
      id: 'big',
      alias: 'big',
      name: 'Big',
      hosts: '[]',
      assets: '{}',
      metas: '{}',
      settings: '{}',
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  for (let start = 0; start < USERS; start += 500) {
    await t.db
      .insertInto('users')
      .values(
        Array.from({ length: 500 }, (_, k) => ({
          id: `u-${start + k}`,
          contextId: 'big',
          email: `Learner.${start + k}@Example.com`,
          username: k % 2 ? `learner${start + k}` : null,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .execute();
  }
  // One company-wide class: every learner a student, two teachers.
  await t.db
    .insertInto('classes')
    .values({ id: 'all', contextId: 'big', name: 'Everyone', settings: '{}', createdAt: at, updatedAt: at })
    .execute();
  for (let start = 0; start < USERS; start += 500) {
    await t.db
      .insertInto('classUsers')
      .values(
        Array.from({ length: 500 }, (_, k) => ({
          id: `cu-${start + k}`,
          classId: 'all',
          userId: `u-${start + k}`,
          role: start + k < 2 ? 'TEACHER' : 'STUDENT',
          createdAt: at,
        })),
      )
      .execute();
  }
  // PostgreSQL's autovacuum gathers planner statistics after such a load; SQLite is never analyzed.
  if (t.kind === 'postgres') await sql`analyze`.execute(t.db);
}, 60_000);

afterAll(async () => {
  await t.close();
});

/** The SQL and parameters `run` sends (its last query), as the database receives them. */
async function captured(run: (db: Db) => Promise<unknown>): Promise<CompiledQuery> {
  let last: CompiledQuery | undefined;
  const spy = t.db.withPlugin({
    transformQuery: ({ node, queryId }) => {
      last = t.db.getExecutor().compileQuery(node, queryId);
      return node;
    },
    transformResult: async ({ result }) => result,
  }) as Db;
  await run(spy);
  return last!;
}

async function loginQuery(identifier: string): Promise<CompiledQuery> {
  return captured(async (db) => {
    const rows = await findUsersForLogin(db, 'big', identifier);
    expect(rows.map((r) => r.id)).toEqual(['u-4242']);
  });
}

async function plan(query: CompiledQuery): Promise<string> {
  const explain = t.kind === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await t.db.executeQuery(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
  return rows.map((r) => Object.values(r as Record<string, unknown>).join(' ')).join('\n');
}

describe('sign-in in a tenant of thousands of learners', () => {
  it('finds the learner through the lower(email) index, never a scan of the tenant', async () => {
    const text = await plan(await loginQuery('LEARNER.4242@example.com'));
    expect(text).toContain('users_context_email_lower_idx');
    if (t.kind === 'sqlite') {
      // Each arm of the UNION on its own index: the e-mail one and the username one.
      expect(text).toMatch(/users_context_email_lower_idx \(context_id=\? AND <expr>=\?\)/);
      expect(text).toContain('users_context_username_uq (context_id=? AND username=?)');
    } else {
      expect(text).not.toMatch(/Seq Scan on users/);
    }
  });

  it('finds a learner by username, and one account matching both ways once', async () => {
    expect((await findUsersForLogin(t.db, 'big', 'learner4243')).map((r) => r.id)).toEqual(['u-4243']);
    await t.db
      .updateTable('users')
      .set({ username: 'learner.4245@example.com' })
      .where('id', '=', 'u-4245')
      .execute();
    expect((await findUsersForLogin(t.db, 'big', 'learner.4245@example.com')).map((r) => r.id)).toEqual([
      'u-4245',
    ]);
  });
});

describe('the teachers of a class of thousands of learners', () => {
  it('are read through (class_id, role), not by reading every member of the class', async () => {
    const query = await captured(async (db) => {
      const rows = await findClassTeachers(db, 'all');
      expect(rows.map((r) => r.id)).toEqual(['u-0', 'u-1']);
    });
    const text = await plan(query);
    expect(text).toContain('class_users_class_role_idx');
    if (t.kind === 'sqlite') expect(text).toContain('class_id=? AND role=?');
    else expect(text).not.toMatch(/Seq Scan on class_users/);
  });
});
