import type { Db } from '../../src/db/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../helpers/fixtures';
import { get, login, settled, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

/**
 * `GET /api/users/me` is served from the answer cache (issue 38) while the viewer's stamps say
 * nothing it shows changed. Every kind of write it shows must reach the next read: the user's row
 * and roles (migration 0028), their companies and a company's name (migration 0032). The cached
 * answer is the built one byte for byte (`noCache` builds it anew).
 */
let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await login(t.app, 'bob@example.test');
});
afterAll(async () => t.close());

interface Me {
  profile: { firstname: string; companies: { id: string; name: string; role: string }[]; roles: string[] };
}
const me = async (query = '') => {
  const res = await get(t.app, `/api/users/me${query}`, token);
  expect(res.statusCode).toBe(200);
  return res;
};

const CASES: { name: string; write: (db: Db) => Promise<unknown>; shows: (m: Me) => boolean }[] = [
  {
    name: 'a company joined',
    write: (db) =>
      db
        .insertInto('companyUsers')
        .values({ id: 'cou-me', companyId: ids.company, userId: ids.learnerB, role: 'ADMIN' })
        .execute(),
    shows: (m) => m.profile.companies.some((c) => c.id === ids.company && c.name === 'Acme'),
  },
  {
    name: 'a company renamed',
    write: (db) =>
      db.updateTable('companies').set({ name: 'Acme Formation' }).where('id', '=', ids.company).execute(),
    shows: (m) => m.profile.companies.some((c) => c.name === 'Acme Formation'),
  },
  {
    name: 'a role in a company changed',
    write: (db) => db.updateTable('companyUsers').set({ role: 'OWNER' }).where('id', '=', 'cou-me').execute(),
    shows: (m) => m.profile.companies.some((c) => c.role === 'OWNER'),
  },
  {
    name: 'a company left',
    write: (db) => db.deleteFrom('companyUsers').where('id', '=', 'cou-me').execute(),
    shows: (m) => m.profile.companies.length === 0,
  },
  {
    name: 'a name changed',
    write: (db) =>
      db.updateTable('users').set({ firstname: 'Robert' }).where('id', '=', ids.learnerB).execute(),
    shows: (m) => m.profile.firstname === 'Robert',
  },
];

describe('users/me from the answer cache', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('shows %s at the next read', async (_name, c) => {
    const before = await me();
    // Warm: the second read is the cache's, the same bytes.
    expect((await me()).body).toBe(before.body);
    expect(c.shows(before.json() as Me)).toBe(false);
    await c.write(t.tdb.db);
    await settled(t.tdb.db);
    const after = await me();
    expect(c.shows(after.json() as Me)).toBe(true);
    // What the cache sends is what the route builds.
    expect(after.body).toBe((await me('?noCache=1')).body);
  });
});
