import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, statementOf, xapi } from './world';
import type { Launched } from './world';

/**
 * LRS clients with xAPI scopes (issue 28, decision 0040): a tenant administrator creates them
 * (the secret shown once, stored hashed), lists and revokes them; each scope opens what
 * xAPI-Communication.md §4.2 says and nothing more; launch credentials keep their narrow scope.
 */
let w: TincanWorld;
let admin: string;
let mine: Launched;

beforeAll(async () => {
  w = await startTincanWorld('lrs-clients');
  admin = await w.login('admin@example.com', 'Admin#2026');
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  await flushEmitted(w.t.db);
});
afterAll(async () => {
  await w?.close();
});

const clients = (token: string, method: 'GET' | 'POST' | 'DELETE', payload?: object, key = '') =>
  w.app.inject({
    method,
    url: `/api/xapi/clients${key ? `/${key}` : ''}`,
    headers: { host: TINCAN_HOST, authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

async function newClient(scopes: string[]) {
  const res = await clients(admin, 'POST', { name: `tool ${scopes.join(' ')}`, scopes });
  expect(res.statusCode, res.body).toBe(201);
  const c = res.json() as { key: string; secret: string };
  return { ...c, auth: `Basic ${Buffer.from(`${c.key}:${c.secret}`).toString('base64')}` };
}
/** Calls as the client: `xapi` with its Authorization instead of the launch's. */
const as = (auth: string) => ({ ...mine, auth });
const other = () => ({
  id: randomUUID(),
  actor: { objectType: 'Agent', mbox: `mailto:${randomUUID()}@example.com` },
  verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
  object: { objectType: 'Activity', id: 'http://example.com/tool' },
});

describe('managing clients', () => {
  it('lets only a tenant administrator create, list and revoke; the secret is shown once and kept hashed', async () => {
    expect((await clients(w.learnerToken, 'POST', { name: 'x', scopes: ['all'] })).statusCode).toBe(403);
    expect((await clients(w.learnerToken, 'GET')).statusCode).toBe(403);
    expect((await clients(admin, 'POST', { name: 'x', scopes: ['everything'] })).statusCode).toBe(400);
    const c = await newClient(['all']);
    const row = await w.t.db
      .selectFrom('xapiClients')
      .selectAll()
      .where('key', '=', c.key)
      .executeTakeFirstOrThrow();
    expect(row.secretHash).not.toContain(c.secret);
    const list = (await clients(admin, 'GET')).json() as { clients: Record<string, unknown>[] };
    const listed = list.clients.find((x) => x.key === c.key);
    expect(listed).toMatchObject({ scopes: ['all'] });
    expect(listed).not.toHaveProperty('secret');
    expect((await xapi(w, as(c.auth))).statusCode).toBe(200);
    expect((await clients(admin, 'DELETE', undefined, c.key)).statusCode).toBe(204);
    expect((await clients(admin, 'DELETE', undefined, c.key)).statusCode).toBe(404);
    expect((await xapi(w, as(c.auth))).statusCode).toBe(401);
  });
});

describe('scopes (xAPI-Communication.md §4.2)', () => {
  it('all: writes statements about anyone and reads every statement of the tenant', async () => {
    const c = await newClient(['all']);
    const s = other();
    const res = await xapi(w, as(c.auth), { method: 'POST', payload: s });
    expect(res.statusCode, res.body).toBe(200);
    const got = await xapi(w, as(c.auth), { query: { statementId: s.id } });
    expect((got.json() as { authority: { name: string } }).authority.name).toBe('tool all');
    // The learner's own statements too.
    const learnerS = statementOf(mine);
    expect((await xapi(w, mine, { method: 'POST', payload: learnerS })).statusCode).toBe(200);
    expect((await xapi(w, as(c.auth), { query: { statementId: learnerS.id } })).statusCode).toBe(200);
  });

  it('statements/write cannot read; statements/read cannot write; read/mine reads what it wrote', async () => {
    const writer = await newClient(['statements/write', 'statements/read/mine']);
    const reader = await newClient(['statements/read']);
    const s = other();
    expect((await xapi(w, as(reader.auth), { method: 'POST', payload: s })).statusCode).toBe(403);
    expect((await xapi(w, as(writer.auth), { method: 'POST', payload: s })).statusCode).toBe(200);
    expect((await xapi(w, as(writer.auth), { query: { statementId: s.id } })).statusCode).toBe(200);
    const learnerS = statementOf(mine);
    expect((await xapi(w, mine, { method: 'POST', payload: learnerS })).statusCode).toBe(200);
    expect((await xapi(w, as(writer.auth), { query: { statementId: learnerS.id } })).statusCode).toBe(403);
    const page = (await xapi(w, as(writer.auth))).json() as { statements: { id: string }[] };
    expect(page.statements.map((x) => x.id)).toEqual([s.id]);
    expect((await xapi(w, as(reader.auth), { query: { statementId: learnerS.id } })).statusCode).toBe(200);
    const writeOnly = await newClient(['statements/write']);
    expect((await xapi(w, as(writeOnly.auth))).statusCode).toBe(403);
  });

  it('state and profile scopes open their documents only', async () => {
    const state = await newClient(['state']);
    const q = new URLSearchParams({
      activityId: 'http://example.com/tool',
      agent: JSON.stringify({ mbox: 'mailto:someone@example.com' }),
      stateId: 'bookmark',
    });
    // POST (merge): a profile PUT would also need If-None-Match.
    const put = (auth: string, url: string) =>
      xapi(w, as(auth), { method: url.includes('/state?') ? 'PUT' : 'POST', url, payload: { page: 3 } });
    expect((await put(state.auth, `/api/xapi/activities/state?${q}`)).statusCode).toBe(204);
    expect((await xapi(w, as(state.auth))).statusCode).toBe(403);
    const profileUrl = `/api/xapi/activities/profile?activityId=http://example.com/tool&profileId=p`;
    expect((await put(state.auth, profileUrl)).statusCode).toBe(403);
    const profile = await newClient(['profile']);
    expect((await put(profile.auth, profileUrl)).statusCode).toBe(204);
    expect((await put(profile.auth, `/api/xapi/activities/state?${q}`)).statusCode).toBe(403);
    const readAll = await newClient(['all/read']);
    expect((await xapi(w, as(readAll.auth), { url: `/api/xapi/activities/state?${q}` })).statusCode).toBe(
      200,
    );
    expect((await put(readAll.auth, `/api/xapi/activities/state?${q}`)).statusCode).toBe(403);
  });

  it('launch credentials keep their narrow scope: their learner only', async () => {
    expect((await xapi(w, mine, { method: 'POST', payload: other() })).statusCode).toBe(403);
    const q = new URLSearchParams({
      activityId: 'http://example.com/tool',
      agent: JSON.stringify({ mbox: 'mailto:someone@example.com' }),
      stateId: 'bookmark',
    });
    expect((await xapi(w, mine, { url: `/api/xapi/activities/state?${q}` })).statusCode).toBe(403);
    expect((await clients(w.learnerToken, 'GET')).statusCode).toBe(403);
  });
});
