import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, statementOf, xapi } from './world';
import type { Launched } from './world';

/**
 * The document resources (xAPI-Communication.md §2.3 State, §2.6 Agent Profile, §2.7 Activity
 * Profile) with the concurrency rules of §3.1, and the Agents (§2.4) and Activities (§2.5)
 * resources (issue 28). The learner's launch credentials keep a module's bookmark.
 */
let w: TincanWorld;
let mine: Launched;
let all: string;

beforeAll(async () => {
  w = await startTincanWorld('lrs-documents');
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  await flushEmitted(w.t.db);
  const admin = await w.login('admin@example.com', 'Admin#2026');
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/xapi/clients',
    headers: { host: TINCAN_HOST, authorization: `Bearer ${admin}` },
    payload: { name: 'all', scopes: ['all'] },
  });
  const c = res.json() as { key: string; secret: string };
  all = `Basic ${Buffer.from(`${c.key}:${c.secret}`).toString('base64')}`;
});
afterAll(async () => {
  await w?.close();
});

const ACTIVITY = 'http://example.com/modules/fire-triangle';
const stateUrl = (l: Launched, extra: Record<string, string> = {}) =>
  `/api/xapi/activities/state?${new URLSearchParams({
    activityId: ACTIVITY,
    agent: JSON.stringify(l.actor),
    registration: l.registration,
    ...extra,
  })}`;
const send = (
  auth: string,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD',
  url: string,
  payload?: string,
  headers: Record<string, string> = {},
) =>
  w.app.inject({
    method,
    url,
    headers: {
      host: TINCAN_HOST,
      authorization: auth,
      'x-experience-api-version': '1.0.3',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload }),
  });

describe('State (§2.3)', () => {
  it('keeps a bookmark: PUT, GET with its ETag, POST merges JSON, the id list, DELETE', async () => {
    const url = stateUrl(mine, { stateId: 'bookmark' });
    expect((await send(mine.auth, 'GET', url)).statusCode).toBe(404);
    expect((await send(mine.auth, 'PUT', url, JSON.stringify({ page: 3 }))).statusCode).toBe(204);
    const got = await send(mine.auth, 'GET', url);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ page: 3 });
    expect(got.headers.etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(got.headers['x-experience-api-consistent-through']).toBeTruthy();
    expect((await send(mine.auth, 'POST', url, JSON.stringify({ score: 1 }))).statusCode).toBe(204);
    expect((await send(mine.auth, 'GET', url)).json()).toEqual({ page: 3, score: 1 });
    const head = await send(mine.auth, 'HEAD', url);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    await send(mine.auth, 'PUT', stateUrl(mine, { stateId: 'suspend' }), '"x"');
    const ids = await send(mine.auth, 'GET', stateUrl(mine));
    expect(ids.json()).toEqual(['bookmark', 'suspend']);
    expect((await send(mine.auth, 'DELETE', url)).statusCode).toBe(204);
    expect((await send(mine.auth, 'GET', stateUrl(mine))).json()).toEqual(['suspend']);
    expect((await send(mine.auth, 'DELETE', stateUrl(mine))).statusCode).toBe(204);
    expect((await send(mine.auth, 'GET', stateUrl(mine))).json()).toEqual([]);
  });

  it('keeps every key of 20 merges sent at once (issue 36: PostgreSQL kept 2 of 20)', async () => {
    const url = stateUrl(mine, { stateId: `merged-${randomUUID()}` });
    const merges = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(mine.auth, 'POST', url, JSON.stringify({ [`k${i}`]: i }))),
    );
    expect(merges.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 204));
    const kept = (await send(mine.auth, 'GET', url)).json() as Record<string, number>;
    expect(Object.keys(kept).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`).sort());
  });

  it('honours If-Match and If-None-Match (412), and refuses merging what is not a JSON object (400)', async () => {
    const url = stateUrl(mine, { stateId: `s-${randomUUID()}` });
    expect((await send(mine.auth, 'PUT', url, '{"a":1}')).statusCode).toBe(204);
    const etag = (await send(mine.auth, 'GET', url)).headers.etag as string;
    expect((await send(mine.auth, 'PUT', url, '{"a":2}', { 'if-match': '"nope"' })).statusCode).toBe(412);
    expect((await send(mine.auth, 'PUT', url, '{"a":2}', { 'if-none-match': '*' })).statusCode).toBe(412);
    expect((await send(mine.auth, 'PUT', url, '{"a":2}', { 'if-match': etag })).statusCode).toBe(204);
    expect((await send(mine.auth, 'POST', url, '[1]')).statusCode).toBe(400);
    expect((await send(mine.auth, 'GET', url)).json()).toEqual({ a: 2 });
  });

  it('refuses malformed parameters (400) and another learner’s agent with launch credentials (403)', async () => {
    expect((await send(mine.auth, 'GET', stateUrl(mine, { registration: 'nope' }))).statusCode).toBe(400);
    const bad = `/api/xapi/activities/state?activityId=${ACTIVITY}&agent=notjson&stateId=x`;
    expect((await send(mine.auth, 'GET', bad)).statusCode).toBe(400);
    const foreign = `/api/xapi/activities/state?${new URLSearchParams({
      activityId: ACTIVITY,
      agent: JSON.stringify({ mbox: 'mailto:other@example.com' }),
      stateId: 'x',
    })}`;
    expect((await send(mine.auth, 'GET', foreign)).statusCode).toBe(403);
    expect((await send(all, 'GET', foreign)).statusCode).toBe(404);
  });
});

describe('Activity and Agent Profiles (§2.6, §2.7, §3.1)', () => {
  it('a PUT needs If-Match or If-None-Match: 400 for a new document, 409 over an existing one', async () => {
    for (const base of [
      `/api/xapi/activities/profile?activityId=${encodeURIComponent(ACTIVITY)}`,
      `/api/xapi/agents/profile?agent=${encodeURIComponent(JSON.stringify({ mbox: 'mailto:p@example.com' }))}`,
    ]) {
      const url = `${base}&profileId=${randomUUID()}`;
      expect((await send(all, 'PUT', url, '{"v":1}')).statusCode).toBe(400);
      expect((await send(all, 'PUT', url, '{"v":1}', { 'if-none-match': '*' })).statusCode).toBe(204);
      expect((await send(all, 'PUT', url, '{"v":2}')).statusCode).toBe(409);
      const etag = (await send(all, 'GET', url)).headers.etag as string;
      expect((await send(all, 'PUT', url, '{"v":2}', { 'if-match': etag })).statusCode).toBe(204);
      expect((await send(all, 'GET', url)).json()).toEqual({ v: 2 });
      expect((await send(all, 'GET', base)).json()).toContain(
        new URL(url, 'http://x').searchParams.get('profileId'),
      );
      expect((await send(all, 'DELETE', url, undefined, { 'if-match': '"old"' })).statusCode).toBe(412);
      expect((await send(all, 'DELETE', url)).statusCode).toBe(204);
      expect((await send(all, 'GET', url)).statusCode).toBe(404);
    }
    // Launch credentials read activity profiles, never write them.
    const p = `/api/xapi/activities/profile?activityId=${encodeURIComponent(ACTIVITY)}&profileId=x`;
    expect((await send(mine.auth, 'PUT', p, '{}', { 'if-none-match': '*' })).statusCode).toBe(403);
  });
});

describe('Agents (§2.4) and Activities (§2.5)', () => {
  it('answers a Person object for an agent', async () => {
    const agent = { name: 'Ada', mbox: 'mailto:ada@example.com' };
    const res = await send(all, 'GET', `/api/xapi/agents?agent=${encodeURIComponent(JSON.stringify(agent))}`);
    expect(res.json()).toEqual({ objectType: 'Person', name: ['Ada'], mbox: ['mailto:ada@example.com'] });
  });

  it('answers an activity with every language of its definition sent in statements', async () => {
    const id = `http://example.com/activities/${randomUUID()}`;
    const withName = (lang: string, name: string) =>
      statementOf(mine, { object: { objectType: 'Activity', id, definition: { name: { [lang]: name } } } });
    const res = await xapi(w, mine, {
      method: 'POST',
      payload: [withName('en-GB', 'Fire'), withName('fr', 'Feu')],
    });
    expect(res.statusCode, res.body).toBe(200);
    const got = await send(all, 'GET', `/api/xapi/activities?activityId=${encodeURIComponent(id)}`);
    expect(got.json()).toEqual({
      objectType: 'Activity',
      id,
      definition: { name: { 'en-GB': 'Fire', fr: 'Feu' } },
    });
  });
});
