import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeVersionsOf } from '../../src/lib/home-versions';
import { findHomeViewer, findViewer } from '../../src/modules/users/repository';
import { ids } from '../helpers/fixtures';
import { get, login, settled, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

/**
 * The home's two reads authenticate with `requireHomeUser`, which reads the viewer and the
 * answer cache's version stamps in one statement (decision 0015, follow-up). A cached answer
 * must still never be sent to a revoked token: revocation is read on every request (0006).
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const HOME = {
  lessons: `/api/lessons?filter[userId]=${ids.learnerB}&include=course`,
  classUsers:
    '/api/class-users?filter[role]=STUDENT&filter[expired]=false&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers',
};

// A write by plain SQL reaches the app's viewer copy within the notification's delay (0059).
const revokeBob = async (at: string | null) => {
  await t.tdb.db.updateTable('users').set({ tokensValidAfter: at }).where('id', '=', ids.learnerB).execute();
  await settled(t.tdb.db);
};

describe('home reads and revocation', () => {
  it('refuses a revoked token on both home reads while their answers are cached', async () => {
    const token = await login(t.app, 'bob@example.test');
    const warm: Record<string, string> = {};
    for (const [name, url] of Object.entries(HOME)) {
      const first = await get(t.app, url, token);
      expect(first.statusCode).toBe(200);
      // Second call: served from the answer cache, byte for byte the same.
      const again = await get(t.app, url, token);
      expect(again.body).toBe(first.body);
      warm[name] = first.body;
    }
    await revokeBob(new Date(Date.now() + 5000).toISOString());
    try {
      for (const url of Object.values(HOME)) {
        const res = await get(t.app, url, token);
        expect(res.statusCode).toBe(401);
        expect((res.json() as ErrorDoc).errors[0]?.code).toBe('UNAUTHORIZED');
      }
    } finally {
      await revokeBob(null);
    }
    for (const [name, url] of Object.entries(HOME))
      expect((await get(t.app, url, token)).body).toBe(warm[name]);
  });

  it("refuses a user moved out of the token's tenant while their home answer is cached", async () => {
    const token = await login(t.app, 'bob@example.test');
    expect((await get(t.app, HOME.lessons, token)).statusCode).toBe(200);
    const row = await t.tdb.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', ids.learnerB)
      .executeTakeFirstOrThrow();
    // Another tenant's token for the same id is refused too (the viewer is read per tenant).
    await t.tdb.db.updateTable('users').set({ contextId: ids.ctxB }).where('id', '=', ids.learnerB).execute();
    await settled(t.tdb.db);
    try {
      expect((await get(t.app, HOME.lessons, token)).statusCode).toBe(401);
    } finally {
      await t.tdb.db
        .updateTable('users')
        .set({ contextId: row.contextId })
        .where('id', '=', ids.learnerB)
        .execute();
      await settled(t.tdb.db);
    }
  });
});

describe('findHomeViewer', () => {
  it('reads the same user, roles and stamps as the separate reads, in one statement', async () => {
    const { contextId } = await t.tdb.db
      .selectFrom('users')
      .select('contextId')
      .where('id', '=', ids.learnerB)
      .executeTakeFirstOrThrow();
    const plain = await findViewer(t.tdb.db, contextId, ids.learnerB);
    const home = await findHomeViewer(t.tdb.db, contextId, ids.learnerB);
    expect(home && { row: home.row, roleNames: home.roleNames, endedSessions: home.endedSessions }).toEqual(
      plain,
    );
    expect(plain?.versions).toBeUndefined();
    const viewer = { userId: ids.learnerB, contextId } as Parameters<typeof homeVersionsOf>[1];
    expect(home?.versions).toEqual(await homeVersionsOf(t.tdb.db, viewer));
    // A write the home shows moves the stamp read with the viewer (migration 0014's triggers).
    const before = home?.versions?.user;
    await t.tdb.db
      .updateTable('classUsers')
      .set({ role: 'STUDENT' })
      .where('userId', '=', ids.learnerB)
      .execute();
    const after = await findHomeViewer(t.tdb.db, contextId, ids.learnerB);
    expect(after?.versions?.user).not.toBe(before);
    expect(await findHomeViewer(t.tdb.db, contextId, 'no-such-user')).toBeUndefined();
  });
});
