import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { uploadPng } from '../helpers/uploads';

/**
 * Issue 29 item 9 (GDPR articles 15, 17 and 20): a learner downloads all their data as JSON; a
 * tenant administrator erases a learner — personal data removed or anonymous, figures kept.
 * Runs on SQLite and on PostgreSQL (DATABASE_URL).
 */
let t: TestContext;
let anna: string;
let bob: string;
let admin: string;
let annaFile: string;

const upload = (token: string) => uploadPng(t.app, hosts.alpha, token);

const post = (url: string, token: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { host: hosts.alpha, 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify(payload),
  });

beforeAll(async () => {
  t = await startTestApp();
  anna = await login(t.app, 'anna@example.test');
  bob = await login(t.app, 'bob@example.test');
  admin = await login(t.app, 'admin@example.test');
  annaFile = ((await upload(anna)).json() as { data: { id: string } }).data.id;
  expect(
    (
      await post('/api/log-book-records', anna, {
        title: 'Mon stage',
        message: 'Chez Acme',
        attachmentIds: [annaFile],
      })
    ).statusCode,
  ).toBe(201);
  expect((await post('/api/log-book-records', bob, { title: 'Bob writes', message: '' })).statusCode).toBe(
    201,
  );
  const statement = (userId: string, id: string) => ({
    contextId: ids.ctxA,
    id,
    userId,
    actorKey: `account:http://alpha.test|${userId}`,
    verbId: 'http://adlnet.gov/expapi/verbs/experienced',
    activityId: 'http://example.com/a',
    refId: null,
    registration: null,
    voiding: 0,
    voided: 0,
    stored: new Date().toISOString(),
    body: JSON.stringify({
      id,
      actor: { account: { name: userId } },
      verb: { id: 'x' },
      object: { id: 'y' },
    }),
  });
  await t.tdb.db
    .insertInto('xapiStatements')
    .values([
      statement(ids.learnerA, '11111111-1111-4111-8111-111111111111'),
      statement(ids.learnerB, '22222222-2222-4222-8222-222222222222'),
    ])
    .execute();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/users/me/data-export', () => {
  it("downloads the learner's own data as JSON, and nobody else's", async () => {
    const res = await get(t.app, '/api/users/me/data-export', anna);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="parcours-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json() as Record<string, unknown> & {
      profile: { id: string; email: string };
      lessons: { id: string }[];
      notes: { title: string }[];
      uploads: { id: string }[];
      statements: { id: string }[];
      enrolments: { classId: string }[];
    };
    expect(data.format).toBe('parcours-learner-data/1');
    expect(data.profile).toMatchObject({ id: ids.learnerA, email: 'anna@example.test' });
    expect(data.lessons.map((l) => l.id)).toContain(ids.lessonA1);
    expect(data.lessons.map((l) => l.id)).not.toContain(ids.lessonB1);
    expect(data.enrolments.map((e) => e.classId)).toContain(ids.classCurrent);
    expect(data.notes.map((n) => n.title)).toEqual(['Mon stage']);
    expect(data.uploads.map((u) => u.id)).toEqual([annaFile]);
    expect(data.statements.map((s) => s.id)).toEqual(['11111111-1111-4111-8111-111111111111']);
    for (const key of ['pages', 'certificates', 'reviews', 'records', 'companies'])
      expect(data).toHaveProperty(key);
    expect(res.body).not.toMatch(/passwordHash|argon2|scrypt|launchToken/);
    expect(res.body).not.toContain('Bob writes');
    expect((await get(t.app, '/api/users/me/data-export')).statusCode).toBe(401);
  });
});

describe('POST /api/users/{id}/erasure', () => {
  it('is for administrators of the tenant only, never on an administrator', async () => {
    expect((await post(`/api/users/${ids.learnerA}/erasure`, bob, {})).statusCode).toBe(403);
    expect((await post(`/api/users/${ids.betaUser}/erasure`, admin, {})).statusCode).toBe(404);
    expect((await post('/api/users/nobody/erasure', admin, {})).statusCode).toBe(404);
    expect((await post(`/api/users/${ids.admin}/erasure`, admin, {})).statusCode).toBe(403);
  });

  it('removes or anonymises the personal data, keeps the figures, and leaves classmates alone', async () => {
    const db = t.tdb.db;
    const filePath = path.join(
      t.world.filesDir,
      (
        await db
          .selectFrom('files')
          .select('storagePath')
          .where('id', '=', annaFile)
          .executeTakeFirstOrThrow()
      ).storagePath,
    );
    const lessonsBefore = await db
      .selectFrom('lessons')
      .select('id')
      .where('userId', '=', ids.learnerA)
      .execute();
    expect(lessonsBefore.length).toBeGreaterThan(0);

    const res = await post(`/api/users/${ids.learnerA}/erasure`, admin, {});
    expect(res.statusCode, res.body).toBe(204);

    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', ids.learnerA)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      email: `erased-${ids.learnerA}@invalid`,
      username: null,
      firstname: null,
      lastname: null,
      birthday: null,
      passwordHash: null,
      oidcSubject: null,
    });
    // Every session ends; signing in is impossible.
    expect((await get(t.app, '/api/users/me', anna)).statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: hosts.alpha },
      payload: { email: 'anna@example.test', password: 'whatever-1A!' },
    });
    expect(signIn.statusCode).toBe(401);
    // Notes, uploads (bytes too) and learning records are gone.
    expect(
      await db
        .selectFrom('logBookRecords')
        .select('id')
        .where((eb) => eb.or([eb('studentId', '=', ids.learnerA), eb('userId', '=', ids.learnerA)]))
        .execute(),
    ).toEqual([]);
    expect(await db.selectFrom('files').select('id').where('ownerId', '=', ids.learnerA).execute()).toEqual(
      [],
    );
    expect(existsSync(filePath)).toBe(false);
    expect(
      await db.selectFrom('xapiStatements').select('id').where('userId', '=', ids.learnerA).execute(),
    ).toEqual([]);
    // Figures stay: the lessons and their scores.
    const lessonsAfter = await db
      .selectFrom('lessons')
      .select('id')
      .where('userId', '=', ids.learnerA)
      .execute();
    expect(lessonsAfter.length).toBe(lessonsBefore.length);
    // A classmate keeps everything.
    expect(
      (
        await db.selectFrom('logBookRecords').select('title').where('userId', '=', ids.learnerB).execute()
      ).map((r) => r.title),
    ).toContain('Bob writes');
    expect(
      await db.selectFrom('xapiStatements').select('id').where('userId', '=', ids.learnerB).execute(),
    ).toHaveLength(1);
    expect((await get(t.app, '/api/users/me', bob)).statusCode).toBe(200);
  });
});
