import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TestClock } from '../../helpers/player';
import { auSession, CMI5_CATEGORY, MOVEON_CATEGORY } from '../../helpers/cmi5-au';
import { bridge, launchOf, PK_HOST, startPackageWorld } from '../../helpers/packages';
import type { PackageWorld, PageData } from '../../helpers/packages';

/**
 * Issue 31 item 4: cmi5 (launch URL, one-time fetch, LMS.LaunchData, learner preferences, the
 * LMS's statements, moveOn) and xAPI packages launched like a tincan module.
 */
let w: PackageWorld;
const clock = new TestClock(Date.now());
beforeAll(async () => {
  w = await startPackageWorld('cmi5', clock.now);
});
afterAll(async () => w?.close());

const CMI5 = CMI5_CATEGORY;
const MOVEON = MOVEON_CATEGORY;
const EXT = 'https://w3id.org/xapi/cmi5/context/extensions/';

/** The AU's view: its launch parameters and an LRS client with the fetched token. */
async function startAu() {
  return startAuOf(await w.toPackage('cmi5'));
}

async function startAuOf(p: Awaited<ReturnType<PackageWorld['toPackage']>>) {
  const { key, secret } = await launchOf(w, p);
  const b = bridge(w, key, secret);
  const start = await b('POST', '/start');
  expect(start.statusCode, start.body).toBe(200);
  const { entry } = start.json() as { entry: string };
  const au = await auSession(w, entry);
  const { url, q, fetchToken, auth, actor, registration, activityId, lrs } = au;
  const statement = (verb: string, extra: Record<string, unknown> = {}, moveOn = false) =>
    au.statement(verb, extra, {
      moveOn,
      extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore': 0.7 },
    });
  return {
    p,
    b,
    url,
    q,
    fetchToken,
    actor,
    registration,
    activityId,
    lrs,
    launchData: au.launchData,
    statement,
    key,
    secret,
    auth,
  };
}

async function pageOf(token: string, lessonId: string, pageId: string): Promise<PageData> {
  const res = await w.api(token)('GET', `/api/lessons/${lessonId}/pages/current?pageId=${pageId}`);
  return (res.json() as { data: PageData }).data;
}

describe('cmi5', () => {
  it('launches with endpoint, fetch, actor, registration and activityId; the token once; LaunchData and preferences first', async () => {
    const au = await startAu();
    expect(au.url.pathname).toMatch(/^\/p\/[\w-]+\/[0-9a-f]{32}\/au\/index\.html$/);
    expect(au.q.get('lang')).toBe('en');
    expect(au.q.get('endpoint')).toBe('http://pk.test/api/xapi');
    expect(au.actor).toEqual({
      objectType: 'Agent',
      account: { homePage: 'http://pk.test', name: w.users.ann },
    });
    expect(au.registration).toMatch(/^[0-9a-f-]{36}$/);
    expect(au.activityId).toMatch(
      /^urn:parcours:block:[\w-]+\/au\/https%3A%2F%2Fexample\.org%2Fcourses%2Ffire%2Fau%2F1$/,
    );

    // §8.2: once; then error 1; a token never issued: error 2. Always 200, readable from the AU's origin.
    const again = await au.fetchToken();
    expect(again.statusCode).toBe(200);
    expect(again.headers['access-control-allow-origin']).toBe('*');
    expect(again.json()).toMatchObject({ 'error-code': '1' });
    const unknown = await w.app.inject({
      method: 'POST',
      url: `/api/packages/fetch/${'x'.repeat(43)}`,
      headers: { host: PK_HOST },
    });
    expect(unknown.json()).toMatchObject({ 'error-code': '2' });
    // The bridge starts a launch once.
    expect((await au.b('POST', '/start')).statusCode).toBe(409);

    expect(au.launchData).toMatchObject({
      contextTemplate: {
        contextActivities: { grouping: [{ id: 'https://example.org/courses/fire/au/1' }] },
        extensions: { [`${EXT}sessionid`]: expect.any(String) },
      },
      launchMode: 'Normal',
      moveOn: 'Passed',
      masteryScore: 0.7,
      launchParameters: 'mode=quiz',
    });
    // The AU may not change it.
    const forged = await au.lrs(
      'PUT',
      `activities/state?stateId=LMS.LaunchData&activityId=${encodeURIComponent(au.activityId)}&agent=${encodeURIComponent(JSON.stringify(au.actor))}&registration=${au.registration}`,
      { moveOn: 'NotApplicable' },
    );
    expect(forged.statusCode).toBe(403);
    const prefs = await au.lrs(
      'GET',
      `agents/profile?profileId=cmi5LearnerPreferences&agent=${encodeURIComponent(JSON.stringify(au.actor))}`,
    );
    expect(prefs.json()).toEqual({ languagePreference: 'en-US,en,fr-FR,fr', audioPreference: 'on' });

    // launched, with the template and the launch's extensions, before the AU runs.
    const launched = await au.lrs(
      'GET',
      `statements?verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/launched')}&registration=${au.registration}`,
    );
    const [st] = (
      launched.json() as {
        statements: {
          context: { extensions: Record<string, unknown>; contextActivities: Record<string, unknown> };
        }[];
      }
    ).statements;
    expect(st?.context.extensions).toMatchObject({
      [`${EXT}sessionid`]: expect.any(String),
      [`${EXT}launchmode`]: 'Normal',
      [`${EXT}moveon`]: 'Passed',
      [`${EXT}masteryscore`]: 0.7,
      [`${EXT}launchparameters`]: 'mode=quiz',
      [`${EXT}launchurl`]: expect.stringMatching(
        /^http:\/\/packages\.pk\.test\/p\/.+\/au\/index\.html\?lang=en$/,
      ),
    });
    expect(st?.context.contextActivities).toMatchObject({ category: [{ id: CMI5 }] });
  });

  it('moveOn Passed: a failed session leaves the page open; a passed one scores it, records satisfied; terminated ends the session', async () => {
    const first = await startAu();
    const post = async (au: Awaited<ReturnType<typeof startAu>>, ...statements: unknown[]) =>
      au.lrs('POST', 'statements', statements);
    const ok = async (au: Awaited<ReturnType<typeof startAu>>, ...statements: unknown[]) => {
      const res = await post(au, ...statements);
      expect(res.statusCode, res.body).toBe(200);
    };
    await ok(
      first,
      first.statement('initialized'),
      first.statement(
        'failed',
        { result: { success: false, score: { scaled: 0.4 }, duration: 'PT1M' } },
        true,
      ),
    );
    expect((await pageOf(first.p.token, first.p.lessonId, first.p.pageId)).attributes.answeredAt).toBeNull();
    expect((await first.b('GET', '/status')).json()).toMatchObject({
      terminated: false,
      progress: 2,
      scored: false,
    });
    // One of passed or failed per session (cmi5 §9.3): refused before it is stored.
    const again = await post(
      first,
      first.statement(
        'passed',
        { result: { success: true, score: { scaled: 0.9 }, duration: 'PT2M' } },
        true,
      ),
    );
    expect(again.statusCode).toBe(403);
    await ok(first, first.statement('terminated', { result: { duration: 'PT3M' } }));
    expect((await first.b('GET', '/status')).json()).toEqual({
      terminated: true,
      finished: false,
      progress: 3,
      scored: false,
    });
    // Terminated ends the session's credentials at once (cmi5 §9.3.8).
    expect((await post(first, first.statement('experienced'))).statusCode).toBe(401);

    const au = await startAuOf(first.p);
    await ok(
      au,
      au.statement('initialized'),
      au.statement('passed', { result: { success: true, score: { scaled: 0.9 }, duration: 'PT2M' } }, true),
    );
    const page = await pageOf(au.p.token, au.p.lessonId, au.p.pageId);
    expect(page.attributes.results?.score).toEqual({ actual: 9, max: 10 });
    await flushEmitted(w.t.db);
    const satisfied = await w.t.db
      .selectFrom('xapiStatements')
      .select('body')
      .where('verbId', '=', 'https://w3id.org/xapi/adl/verbs/satisfied')
      .where('registration', '=', au.registration)
      .execute();
    expect(satisfied).toHaveLength(1);
    expect(JSON.parse(satisfied[0]!.body)).toMatchObject({
      object: { definition: { type: 'https://w3id.org/xapi/cmi5/activitytype/course' } },
      context: {
        extensions: { [`${EXT}sessionid`]: expect.any(String) },
        contextActivities: {
          grouping: [{ id: 'https://example.org/courses/fire' }],
          category: [{ id: CMI5 }],
        },
      },
    });
  });

  it('a new launch abandons the session left open: abandoned recorded, its credentials end, its fetch URL is spent', async () => {
    const au = await startAu();
    const { p } = au;
    const next = await launchOf(w, p);
    expect((await bridge(w, next.key, next.secret)('POST', '/start')).statusCode).toBe(200);
    expect((await au.lrs('POST', 'statements', [au.statement('initialized')])).statusCode).toBe(401);
    expect((await au.fetchToken()).json()).toMatchObject({ 'error-code': '1' });
    // The bridge of the old launch is over too.
    expect((await au.b('GET', '/status')).statusCode).toBe(401);
    await flushEmitted(w.t.db);
    const abandoned = await w.t.db
      .selectFrom('xapiStatements')
      .select('body')
      .where('verbId', '=', 'https://w3id.org/xapi/adl/verbs/abandoned')
      .where('registration', '=', au.registration)
      .execute();
    expect(abandoned).toHaveLength(1);
    expect(JSON.parse(abandoned[0]!.body).result.duration).toMatch(/^PT[\d.]+S$/);
  });

  it('keeps LMS.LaunchData when the AU deletes all its State documents at once (cmi5 §10.2.1, issue 36)', async () => {
    const au = await startAu();
    const state = (extra: string) =>
      `activities/state?activityId=${encodeURIComponent(au.activityId)}&agent=${encodeURIComponent(JSON.stringify(au.actor))}&registration=${au.registration}${extra}`;
    expect((await au.lrs('PUT', state('&stateId=bookmark'), { page: 2 })).statusCode).toBe(204);
    const deleted = await w.app.inject({
      method: 'DELETE',
      url: `/api/xapi/${state('')}`,
      headers: { host: PK_HOST, authorization: `Basic ${au.auth}`, 'x-experience-api-version': '1.0.3' },
    });
    expect(deleted.statusCode).toBe(204);
    // The AU's own documents are gone; the LMS's stays, unchanged.
    expect((await au.lrs('GET', state('&stateId=bookmark'))).statusCode).toBe(404);
    const kept = await au.lrs('GET', state('&stateId=LMS.LaunchData'));
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toEqual(au.launchData);
  });
});

describe('xAPI packages (tincan.xml)', () => {
  it('launch like a tincan module: endpoint, auth, actor, registration, activity_id; a completed statement with a score scores the page', async () => {
    const p = await w.toPackage('xapi');
    const { key, secret } = await launchOf(w, p);
    const b = bridge(w, key, secret);
    const { entry } = (await b('POST', '/start')).json() as { entry: string };
    const q = new URL(entry, 'http://packages.pk.test').searchParams;
    expect(q.get('endpoint')).toBe('http://pk.test/api/xapi/');
    expect(q.get('auth')).toMatch(/^Basic /);
    expect(q.get('activity_id')).toBe('https://example.org/activities/fire-module');
    const actor = JSON.parse(q.get('actor') as string);
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/xapi/statements',
      headers: {
        host: PK_HOST,
        authorization: q.get('auth') as string,
        'x-experience-api-version': '1.0.3',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        actor,
        verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
        object: { id: 'https://example.org/activities/fire-module' },
        result: { completion: true, score: { scaled: 0.7 } },
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await pageOf(p.token, p.lessonId, p.pageId)).attributes.results?.score).toEqual({
      actual: 7,
      max: 10,
    });
    expect((await b('GET', '/status')).json()).toMatchObject({ progress: 1, scored: true });
    const finish = await b('POST', '/finish');
    expect(finish.json()).toMatchObject({ finished: true });
  });
});

describe('cmi5: abandon, waive and launch modes (issue 39)', () => {
  it('an administrator abandons an open session: abandoned with its duration, its credentials end', async () => {
    const au = await startAu();
    expect((await au.lrs('POST', 'statements', [au.statement('initialized')])).statusCode).toBe(200);
    const sessionId = (au.launchData as { contextTemplate: { extensions: Record<string, string> } })
      .contextTemplate.extensions[`${EXT}sessionid`] as string;
    // A learner may not.
    const learner = await w.api(au.p.token)('POST', `/api/packages/cmi5/sessions/${sessionId}/abandon`);
    expect(learner.statusCode).toBe(403);
    const admin = w.api(await w.login('ada'));
    expect((await admin('POST', `/api/packages/cmi5/sessions/${sessionId}/abandon`)).statusCode).toBe(204);
    expect((await admin('POST', `/api/packages/cmi5/sessions/${sessionId}/abandon`)).statusCode).toBe(404);
    expect((await au.lrs('POST', 'statements', [au.statement('experienced')])).statusCode).toBe(401);
    await flushEmitted(w.t.db);
    const abandoned = await w.t.db
      .selectFrom('xapiStatements')
      .select('body')
      .where('verbId', '=', 'https://w3id.org/xapi/adl/verbs/abandoned')
      .where('registration', '=', au.registration)
      .execute();
    expect(abandoned).toHaveLength(1);
    expect(JSON.parse(abandoned[0]!.body)).toMatchObject({
      object: { id: au.activityId },
      result: { duration: expect.stringMatching(/^PT/) },
      context: { extensions: { [`${EXT}sessionid`]: sessionId } },
    });
  });

  it("the learner's teacher abandons a session and waives an AU; a teacher of another class may not", async () => {
    const au = await startAu();
    const sessionId = (au.launchData as { contextTemplate: { extensions: Record<string, string> } })
      .contextTemplate.extensions[`${EXT}sessionid`] as string;
    const elsewhere = w.api(await w.login('tia'));
    expect((await elsewhere('POST', `/api/packages/cmi5/sessions/${sessionId}/abandon`)).statusCode).toBe(
      403,
    );
    expect(
      (
        await elsewhere('POST', `/api/packages/cmi5/registrations/${au.registration}/waive`, {
          au: 0,
          reason: 'Administrative',
        })
      ).statusCode,
    ).toBe(403);
    const teacher = w.api(await w.login('tom'));
    expect((await teacher('POST', `/api/packages/cmi5/sessions/${sessionId}/abandon`)).statusCode).toBe(204);
    expect(
      (
        await teacher('POST', `/api/packages/cmi5/registrations/${au.registration}/waive`, {
          au: 0,
          reason: 'Equivalent AU',
        })
      ).statusCode,
    ).toBe(204);
    // An unknown session is a 404 to a teacher as to anyone.
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await teacher('POST', `/api/packages/cmi5/sessions/${unknown}/abandon`)).statusCode).toBe(404);
  });

  it('an administrator waives an AU: waived with the reason, then the course satisfied and the page scored', async () => {
    const au = await startAu();
    const admin = w.api(await w.login('ada'));
    const waive = (reason: string) =>
      admin('POST', `/api/packages/cmi5/registrations/${au.registration}/waive`, { au: 0, reason });
    expect((await waive('Because')).statusCode).toBe(400);
    expect((await waive('Tested Out')).statusCode).toBe(204);
    expect((await waive('Tested Out')).statusCode).toBe(404);
    await flushEmitted(w.t.db);
    const verbs = await w.t.db
      .selectFrom('xapiStatements')
      .select(['verbId', 'body'])
      .where('registration', '=', au.registration)
      .orderBy('stored')
      .execute();
    const waived = verbs.find((v) => v.verbId === 'https://w3id.org/xapi/adl/verbs/waived');
    expect(JSON.parse(waived!.body)).toMatchObject({
      result: {
        success: true,
        completion: true,
        extensions: { 'https://w3id.org/xapi/cmi5/result/extensions/reason': 'Tested Out' },
      },
      context: { contextActivities: { category: [{ id: CMI5 }, { id: MOVEON }] } },
    });
    expect(verbs.map((v) => v.verbId).at(-1)).toBe('https://w3id.org/xapi/adl/verbs/satisfied');
    expect((await pageOf(au.p.token, au.p.lessonId, au.p.pageId)).attributes.answeredAt).not.toBeNull();
  });

  it('in Browse mode the AU records no passed; the launched statement and LaunchData say the mode', async () => {
    const p = await w.toPackage('cmi5');
    const res = await w.api(p.token)('POST', '/api/packages/launches', {
      lessonId: p.lessonId,
      pageId: p.pageId,
      launch: p.launch,
      launchMode: 'Browse',
    });
    expect(res.statusCode, res.body).toBe(200);
    const m = /\/launch\/([0-9a-f]{32})#(.+)$/.exec((res.json() as { url: string }).url)!;
    const b = bridge(w, m[1]!, m[2]!);
    const { entry } = (await b('POST', '/start')).json() as { entry: string };
    const q = new URL(entry, 'http://packages.pk.test').searchParams;
    const got = await w.app.inject({
      method: 'POST',
      url: new URL(q.get('fetch')!).pathname,
      headers: { host: PK_HOST },
    });
    const auth = (got.json() as { 'auth-token': string })['auth-token'];
    const actor = q.get('actor')!;
    const data = await w.app.inject({
      method: 'GET',
      url: `/api/xapi/activities/state?stateId=LMS.LaunchData&activityId=${encodeURIComponent(q.get('activityId')!)}&agent=${encodeURIComponent(actor)}&registration=${q.get('registration')}`,
      headers: { host: PK_HOST, authorization: `Basic ${auth}`, 'x-experience-api-version': '1.0.3' },
    });
    expect(data.json()).toMatchObject({ launchMode: 'Browse' });
  });
});
