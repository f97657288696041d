import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, statementOf, xapi } from './world';
import type { Launched } from './world';

/**
 * The statements resource's defects at the HTTP level that ADL's conformance suite found
 * (issue 28): the version a statement was sent with, contextActivities as arrays, the
 * consistent-through header on every answer, 400 for a body that is not JSON, and the
 * endpoint a client builds from `…/xapi/` + `/statements`.
 */
let w: TincanWorld;
let mine: Launched;

beforeAll(async () => {
  w = await startTincanWorld('lrs-conformance-http');
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  await flushEmitted(w.t.db);
});
afterAll(async () => {
  await w?.close();
});

const get = async (id: string) =>
  (await xapi(w, mine, { query: { statementId: id } })).json() as Record<string, unknown>;

describe('statements as sent (xAPI-Data.md §2.4.10, §2.4.6.2)', () => {
  it('keeps the version a statement was sent with, and sets 1.0.0 when there was none', async () => {
    const sent = statementOf(mine, { version: '1.0.3' });
    const none = statementOf(mine);
    expect((await xapi(w, mine, { method: 'POST', payload: [sent, none] })).statusCode).toBe(200);
    expect((await get(sent.id)).version).toBe('1.0.3');
    expect((await get(none.id)).version).toBe('1.0.0');
  });

  it('returns a single contextActivities object as an array of one', async () => {
    const parent = { objectType: 'Activity', id: 'http://example.com/course' };
    const s = statementOf(mine, {
      context: { registration: mine.registration, contextActivities: { parent, grouping: [parent] } },
    });
    expect((await xapi(w, mine, { method: 'POST', payload: s })).statusCode).toBe(200);
    const ctx = (await get(s.id)).context as { contextActivities: Record<string, unknown> };
    expect(ctx.contextActivities.parent).toEqual([parent]);
    expect(ctx.contextActivities.grouping).toEqual([parent]);
  });
});

describe('headers and bodies (xAPI-Communication.md §1.5, §2.1.3)', () => {
  it('sends X-Experience-API-Consistent-Through on errors too', async () => {
    const missing = await xapi(w, mine, { version: null });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['x-experience-api-consistent-through']).toBeTruthy();
    const anonymous = await xapi(w, mine, { auth: null });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-experience-api-consistent-through']).toBeTruthy();
  });

  it('answers 400, not 415, to a statement body that is not JSON', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/xapi/statements',
      headers: {
        host: TINCAN_HOST,
        authorization: mine.auth,
        'x-experience-api-version': '1.0.3',
        'content-type': 'application/xml',
      },
      payload: 'not a statement',
    });
    expect(res.statusCode, res.body).toBe(400);
  });

  it('answers on /api/xapi//statements, what a client builds from an endpoint ending in /', async () => {
    const res = await xapi(w, mine, { url: '/api/xapi//statements' });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('Alternate Request Syntax (xAPI-Communication.md §1.3)', () => {
  const form = (fields: Record<string, string>, query = '?method=PUT') =>
    w.app.inject({
      method: 'POST',
      url: `/api/xapi/statements${query}`,
      headers: { host: TINCAN_HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('turns a form POST into the request it stands for, headers and content from the form', async () => {
    const s = statementOf(mine);
    const put = await form({
      statementId: s.id,
      content: JSON.stringify(s),
      Authorization: mine.auth,
      'X-Experience-API-Version': '1.0.3',
    });
    expect(put.statusCode, put.body).toBe(204);
    const got = await form(
      { statementId: s.id, Authorization: mine.auth, 'X-Experience-API-Version': '1.0.3' },
      '?method=GET',
    );
    expect(got.statusCode).toBe(200);
    expect((got.json() as { id: string }).id).toBe(s.id);
  });

  it('refuses anything else in the query, a body that is not a form, and a wrong version in the form', async () => {
    const s = statementOf(mine);
    const fields = {
      content: JSON.stringify(s),
      Authorization: mine.auth,
      'X-Experience-API-Version': '1.0.3',
    };
    expect((await form(fields, `?method=PUT&statementId=${s.id}`)).statusCode).toBe(400);
    expect((await form({ ...fields, statementId: s.id, 'X-Experience-API-Version': '0.8' })).statusCode).toBe(
      400,
    );
    const notForm = await w.app.inject({
      method: 'POST',
      url: '/api/xapi/statements?method=PUT',
      headers: { host: TINCAN_HOST, 'content-type': 'application/json', authorization: mine.auth },
      payload: s,
    });
    expect(notForm.statusCode).toBe(400);
  });
});
