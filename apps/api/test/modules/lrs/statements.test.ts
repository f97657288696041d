import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredCredentials } from '../../../src/modules/lrs/credentials';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { VERBS, countStatements, launchFor, statementOf, xapi } from './world';
import type { Launched } from './world';

/**
 * The statements resource (xAPI 1.0.3, docs/api.md "Learning records") on the demo world: the
 * demo learner launches the module page of "Health and safety at work" and gets credentials for
 * that launch; the teacher, as a second learner, gets their own.
 */
let w: TincanWorld;
let mine: Launched;
let theirs: Launched;

beforeAll(async () => {
  w = await startTincanWorld('lrs-statements');
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  theirs = await launchFor(w, await w.login('teacher@example.com', 'Teacher#2026'), w.teacherId);
  await flushEmitted(w.t.db);
});
afterAll(async () => {
  await w?.close();
});

interface Result {
  statements: { id: string; verb: { id: string }; stored: string }[];
  more: string;
}

describe('launch parameters (SPEC §7)', () => {
  it('gives the endpoint, Basic auth, the learner as an account agent and the block as registration', async () => {
    expect(mine.endpoint).toBe('http://en.localhost/api/xapi/');
    expect(mine.auth).toMatch(/^Basic [A-Za-z0-9+/=]+$/);
    expect(mine.actor.account.name).toBe(w.learnerId);
    expect(mine.actor.account.homePage).toMatch(/^http:\/\/en\.localhost/);
    const node = await w.t.db
      .selectFrom('lessonPages as p')
      .innerJoin('courseNodes as n', 'n.id', 'p.nodeId')
      .select('n.blockId')
      .where('p.id', '=', mine.pageId)
      .executeTakeFirstOrThrow();
    expect(mine.registration).toBe(node.blockId);
    expect(Date.parse(mine.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('refuses a launch that is not the page’s, and another learner’s page', async () => {
    const bad = await w.app.inject({
      method: 'POST',
      url: '/api/xapi/launches',
      headers: { host: 'en.localhost', authorization: `Bearer ${w.learnerToken}` },
      payload: { lessonId: mine.lessonId, pageId: mine.pageId, launch: 'not-the-launch' },
    });
    expect(bad.statusCode).toBe(403);
    const foreign = await w.app.inject({
      method: 'POST',
      url: '/api/xapi/launches',
      headers: { host: 'en.localhost', authorization: `Bearer ${w.learnerToken}` },
      payload: { lessonId: theirs.lessonId, pageId: theirs.pageId, launch: 'x' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('records a launched statement for the learner', async () => {
    const res = await xapi(w, mine, { query: { verb: VERBS.launched } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Result;
    expect(body.statements).toHaveLength(1);
  });
});

describe('version header, authentication', () => {
  it('sends X-Experience-API-Version on every answer and requires it on requests', async () => {
    const missing = await xapi(w, mine, { version: null });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['x-experience-api-version']).toBe('1.0.3');
    expect((await xapi(w, mine, { version: '1.1.0' })).statusCode).toBe(400);
    expect((await xapi(w, mine, { version: '0.95' })).statusCode).toBe(400);
    const ok = await xapi(w, mine, { version: '1.0' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-experience-api-version']).toBe('1.0.3');
    expect(ok.headers['x-experience-api-consistent-through']).toBeTruthy();
  });

  it('answers 401 without credentials or with a wrong secret', async () => {
    expect((await xapi(w, mine, { auth: null })).statusCode).toBe(401);
    const [key] = Buffer.from(mine.auth.slice(6), 'base64').toString().split(':');
    const wrong = `Basic ${Buffer.from(`${key}:nope`).toString('base64')}`;
    const res = await xapi(w, mine, { auth: wrong });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-experience-api-version']).toBe('1.0.3');
  });

  it('answers 401 once the credentials expired, and a day later they are purged', async () => {
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const [key] = Buffer.from(l.auth.slice(6), 'base64').toString().split(':');
    const past = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    await w.t.db.updateTable('xapiCredentials').set({ expiresAt: past }).where('key', '=', key!).execute();
    expect((await xapi(w, l)).statusCode).toBe(401);
    expect(await purgeExpiredCredentials(w.t.db, new Date())).toBe(1);
    expect((await xapi(w, mine)).statusCode).toBe(200);
  });

  it('answers CORS preflights (modules run in an opaque origin)', async () => {
    const res = await w.app.inject({
      method: 'OPTIONS',
      url: '/api/xapi/statements',
      headers: { host: 'en.localhost', origin: 'null' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
  });
});

describe('statements round trips', () => {
  it('POST assigns ids when missing, keeps given ones, and GET returns them with stored and authority', async () => {
    const given = statementOf(mine);
    const { id: _omit, ...noId } = statementOf(mine);
    const res = await xapi(w, mine, { method: 'POST', payload: [given, noId] });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json() as string[];
    expect(ids[0]).toBe(given.id);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    for (const id of ids) {
      const got = await xapi(w, mine, { query: { statementId: id } });
      expect(got.statusCode, got.body).toBe(200);
      const s = got.json() as {
        id: string;
        stored: string;
        authority: unknown;
        actor: unknown;
        version: string;
      };
      expect(s.id).toBe(id);
      expect(s.actor).toEqual(mine.actor);
      expect(s.stored).toBeTruthy();
      expect(s.authority).toBeTruthy();
      expect(s.version).toBe('1.0.0');
    }
  });

  it('PUT stores under statementId (204); the same again is 204, another content 409, nothing changed', async () => {
    const s = statementOf(mine);
    const put = (body: unknown) =>
      xapi(w, mine, { method: 'PUT', query: { statementId: s.id }, payload: body });
    expect((await put(s)).statusCode).toBe(204);
    const first = (await xapi(w, mine, { query: { statementId: s.id } })).json() as { stored: string };
    const n = await countStatements(w);
    // Key order and a missing id (given by statementId) do not make another statement.
    const { id: _id, ...sameWithoutId } = s;
    expect((await put(Object.fromEntries(Object.entries(sameWithoutId).reverse()))).statusCode).toBe(204);
    const other = await put({ ...s, verb: { id: VERBS.completed } });
    expect(other.statusCode).toBe(409);
    expect(await countStatements(w)).toBe(n);
    const again = (await xapi(w, mine, { query: { statementId: s.id } })).json() as {
      stored: string;
      verb: { id: string };
    };
    expect(again.stored).toBe(first.stored);
    expect(again.verb.id).toBe(VERBS.experienced);
    // POST of an existing id with another content: 409 too, and the batch's new statement is not stored.
    const fresh = statementOf(mine);
    const batch = await xapi(w, mine, {
      method: 'POST',
      payload: [fresh, { ...s, verb: { id: VERBS.completed } }],
    });
    expect(batch.statusCode).toBe(409);
    expect((await xapi(w, mine, { query: { statementId: fresh.id } })).statusCode).toBe(404);
  });

  it('PUT refuses a statement whose id differs from statementId, and a batch repeating an id', async () => {
    const s = statementOf(mine);
    expect(
      (await xapi(w, mine, { method: 'PUT', query: { statementId: randomUUID() }, payload: s })).statusCode,
    ).toBe(400);
    expect((await xapi(w, mine, { method: 'POST', payload: [s, s] })).statusCode).toBe(400);
  });

  it('GET with statementId and another parameter, or both ids, is 400; an unknown id 404', async () => {
    expect(
      (await xapi(w, mine, { query: { statementId: randomUUID(), verb: VERBS.completed } })).statusCode,
    ).toBe(400);
    expect(
      (await xapi(w, mine, { query: { statementId: randomUUID(), voidedStatementId: randomUUID() } }))
        .statusCode,
    ).toBe(400);
    expect((await xapi(w, mine, { query: { statementId: randomUUID() } })).statusCode).toBe(404);
  });
});

describe('malformed statements: 400 and nothing stored', () => {
  const cases: [string, (l: Launched) => unknown][] = [
    ['no actor', (l) => ({ ...statementOf(l), actor: undefined })],
    ['no verb', (l) => ({ ...statementOf(l), verb: undefined })],
    ['verb id not an IRI', (l) => ({ ...statementOf(l), verb: { id: 'completed' } })],
    ['object id not an IRI', (l) => ({ ...statementOf(l), object: { id: 'fire triangle' } })],
    ['id not a UUID', (l) => ({ ...statementOf(l), id: 'abc' })],
    [
      'agent with two identifiers',
      (l) => ({ ...statementOf(l), actor: { ...l.actor, mbox: 'mailto:a@example.com' } }),
    ],
    ['unknown property', (l) => ({ ...statementOf(l), mood: 'happy' })],
    ['scaled above 1', (l) => ({ ...statementOf(l), result: { score: { scaled: 1.5 } } })],
    ['raw above max', (l) => ({ ...statementOf(l), result: { score: { raw: 11, min: 0, max: 10 } } })],
    ['min not below max', (l) => ({ ...statementOf(l), result: { score: { min: 5, max: 5 } } })],
    ['registration not a UUID', (l) => ({ ...statementOf(l), context: { registration: 'block-1' } })],
    ['bad timestamp', (l) => ({ ...statementOf(l), timestamp: 'yesterday' })],
    ['voiding without StatementRef', (l) => ({ ...statementOf(l), verb: { id: VERBS.voided } })],
    ['version 2.0', (l) => ({ ...statementOf(l), version: '2.0.0' })],
  ];
  it.each(cases)('%s', async (_name, make) => {
    const n = await countStatements(w);
    // The good statement before the bad one is not stored either.
    const good = statementOf(mine);
    const res = await xapi(w, mine, { method: 'POST', payload: [good, make(mine)] });
    expect(res.statusCode, res.body).toBe(400);
    expect(await countStatements(w)).toBe(n);
  });

  it('a body that is not a statement at all', async () => {
    expect((await xapi(w, mine, { method: 'POST', payload: [] })).statusCode).toBe(400);
    expect((await xapi(w, mine, { method: 'POST', payload: { hello: 'world' } })).statusCode).toBe(400);
  });
});

describe("one learner's credentials and another's statements", () => {
  it('refuses to write a statement whose actor is another learner (403)', async () => {
    const n = await countStatements(w);
    const res = await xapi(w, mine, { method: 'POST', payload: statementOf(theirs) });
    expect(res.statusCode).toBe(403);
    expect(await countStatements(w)).toBe(n);
  });

  it("refuses to read another learner's statement or query by their agent (403)", async () => {
    const s = statementOf(theirs);
    expect((await xapi(w, theirs, { method: 'POST', payload: s })).statusCode).toBe(200);
    expect((await xapi(w, mine, { query: { statementId: s.id } })).statusCode).toBe(403);
    expect((await xapi(w, mine, { query: { agent: JSON.stringify(theirs.actor) } })).statusCode).toBe(403);
    // Their own query never lists the other learner's statements.
    const list = (await xapi(w, mine, { query: { limit: '500' } })).json() as Result;
    expect(list.statements.some((x) => x.id === s.id)).toBe(false);
    // Voiding their statement with my credentials: 403.
    const voiding = statementOf(mine, {
      verb: { id: VERBS.voided },
      object: { objectType: 'StatementRef', id: s.id },
    });
    expect((await xapi(w, mine, { method: 'POST', payload: voiding })).statusCode).toBe(403);
  });
});

describe('voiding', () => {
  it('hides the target from GET and queries, shows it by voidedStatementId; a voiding statement cannot be voided', async () => {
    const target = statementOf(mine, { verb: { id: VERBS.passed } });
    expect((await xapi(w, mine, { method: 'POST', payload: target })).statusCode).toBe(200);
    const voiding = statementOf(mine, {
      verb: { id: VERBS.voided },
      object: { objectType: 'StatementRef', id: target.id },
    });
    expect((await xapi(w, mine, { method: 'POST', payload: voiding })).statusCode).toBe(200);

    expect((await xapi(w, mine, { query: { statementId: target.id } })).statusCode).toBe(404);
    const byVoided = await xapi(w, mine, { query: { voidedStatementId: target.id } });
    expect(byVoided.statusCode).toBe(200);
    expect((byVoided.json() as { id: string }).id).toBe(target.id);
    const listed = (await xapi(w, mine, { query: { verb: VERBS.passed } })).json() as Result;
    expect(listed.statements.map((s) => s.id)).not.toContain(target.id);
    // The voiding statement stays visible, and is not "voided".
    expect((await xapi(w, mine, { query: { statementId: voiding.id } })).statusCode).toBe(200);
    expect((await xapi(w, mine, { query: { voidedStatementId: voiding.id } })).statusCode).toBe(404);

    const n = await countStatements(w);
    const voidTheVoiding = statementOf(mine, {
      verb: { id: VERBS.voided },
      object: { objectType: 'StatementRef', id: voiding.id },
    });
    expect((await xapi(w, mine, { method: 'POST', payload: voidTheVoiding })).statusCode).toBe(400);
    expect(await countStatements(w)).toBe(n);
    expect((await xapi(w, mine, { query: { statementId: voiding.id } })).statusCode).toBe(200);
  });
});

describe('voiding before the target arrives', () => {
  it('is refused (400): a voiding statement must target a stored statement (issue 29, R3-03)', async () => {
    const lateId = randomUUID();
    const voiding = statementOf(mine, {
      verb: { id: VERBS.voided },
      object: { objectType: 'StatementRef', id: lateId },
    });
    expect((await xapi(w, mine, { method: 'POST', payload: voiding })).statusCode).toBe(400);
    const late = statementOf(mine, { id: lateId });
    expect((await xapi(w, mine, { method: 'POST', payload: late })).statusCode).toBe(200);
    expect((await xapi(w, mine, { query: { statementId: lateId } })).statusCode).toBe(200);
  });
});

describe('queries and paging', () => {
  it('filters by verb, activity, registration, agent and time, newest first or ascending, paged by more', async () => {
    const activity = `http://example.com/paging/${randomUUID()}`;
    const sent: string[] = [];
    for (let i = 0; i < 7; i++) {
      const s = statementOf(mine, { object: { id: activity } });
      expect((await xapi(w, mine, { method: 'POST', payload: s })).statusCode).toBe(200);
      sent.push(s.id);
    }
    const seen: string[] = [];
    let res = await xapi(w, mine, {
      query: { activity, limit: '3', agent: JSON.stringify(mine.actor), registration: mine.registration },
    });
    for (let guard = 0; guard < 5; guard++) {
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as Result;
      expect(body.statements.length).toBeLessThanOrEqual(3);
      seen.push(...body.statements.map((s) => s.id));
      if (!body.more) break;
      expect(body.more.startsWith('/api/xapi/statements?')).toBe(true);
      res = await xapi(w, mine, { url: body.more });
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(sent));
    // Newest first: stored never increases along the pages.
    const stored = await Promise.all(
      seen.map(
        async (id) =>
          ((await xapi(w, mine, { query: { statementId: id } })).json() as { stored: string }).stored,
      ),
    );
    expect([...stored].sort().reverse()).toEqual(stored);

    const asc = (
      await xapi(w, mine, { query: { activity, ascending: 'true', limit: '500' } })
    ).json() as Result;
    expect(asc.statements.map((s) => s.id)).toEqual([...seen].reverse());
    expect(asc.more).toBe('');

    const cut = stored[3] as string;
    const since = (await xapi(w, mine, { query: { activity, since: cut } })).json() as Result;
    expect(since.statements.every((s) => s.stored > cut)).toBe(true);
    const until = (await xapi(w, mine, { query: { activity, until: cut } })).json() as Result;
    expect(until.statements.every((s) => s.stored <= cut)).toBe(true);
    expect(since.statements.length + until.statements.length).toBe(7);

    expect(
      ((await xapi(w, mine, { query: { activity, verb: VERBS.completed } })).json() as Result).statements,
    ).toEqual([]);
    expect(
      ((await xapi(w, mine, { query: { registration: randomUUID() } })).json() as Result).statements,
    ).toEqual([]);
  });

  it('refuses unknown parameters and malformed filters with 400', async () => {
    expect((await xapi(w, mine, { query: { colour: 'blue' } })).statusCode).toBe(400);
    expect((await xapi(w, mine, { query: { since: 'last week' } })).statusCode).toBe(400);
    expect((await xapi(w, mine, { query: { agent: '{"name":"nobody"}' } })).statusCode).toBe(400);
    expect((await xapi(w, mine, { query: { cursor: 'garbage' } })).statusCode).toBe(400);
  });
});

describe('junk with valid credentials never reaches a 5xx', () => {
  const junk: unknown[] = [
    null,
    'statement',
    42,
    [null],
    [[]],
    { actor: null, verb: null, object: null },
    { actor: { account: { homePage: 'x:y', name: 5 } }, verb: { id: 'x:y' }, object: { id: 'x:y' } },
    { actor: { mbox: 'mailto:a@b.c' }, verb: { id: 'x:y', display: { '': 1 } }, object: { id: 'x:y' } },
    { actor: { objectType: 'Group' }, verb: { id: 'x:y' }, object: { id: 'x:y' } },
    { actor: { mbox: 'mailto:a@b.c' }, verb: { id: 'x:y' }, object: { objectType: 'SubStatement' } },
    {
      actor: { mbox: 'mailto:a@b.c' },
      verb: { id: 'x:y' },
      object: { id: 'x:y' },
      result: { score: { raw: 1e308, max: -1e308 } },
    },
    {
      actor: { mbox: 'mailto:a@b.c' },
      verb: { id: 'x:y' },
      object: { id: 'x:y' },
      timestamp: '2026-13-45T99:99:99Z',
    },
  ];
  it.each(junk.map((j) => [JSON.stringify(j)?.slice(0, 60), j]))('POST %s', async (_name, body) => {
    const res = await xapi(w, mine, { method: 'POST', payload: body === null ? 'null' : body });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
  it.each<Record<string, string>>([
    { agent: '[]' },
    { agent: 'null' },
    { limit: '-1' },
    { limit: 'abc' },
    { until: '2026-02-30T00:00:00Z' },
    { ascending: 'maybe' },
    { statementId: '../../etc' },
    { voidedStatementId: '' },
    { cursor: Buffer.from('{"q":{},"after":{}}').toString('base64url') },
  ])('GET %o', async (query) => {
    const res = await xapi(w, mine, { query });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
