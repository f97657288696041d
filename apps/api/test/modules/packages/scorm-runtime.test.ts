import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as scorm12 from 'scorm-again/scorm12';
import type Scorm12Class from 'scorm-again/scorm12';
import * as scorm2004 from 'scorm-again/scorm2004';
import type Scorm2004Class from 'scorm-again/scorm2004';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { statementSchema } from '../../../src/modules/lrs/statement-schema';
import { TestClock } from '../../helpers/player';
import { diskStore } from '../../../src/files/store';
import { buildPackagesApp } from '../../../src/modules/packages/origin';
import { bridge, launchOf, PACKAGES_ORIGIN, startPackageWorld } from '../../helpers/packages';
import type { PackageWorld, PageData } from '../../helpers/packages';

// The ESM builds export the classes by name; their type declarations say default.
const Scorm12API = (scorm12 as unknown as { Scorm12API: typeof Scorm12Class }).Scorm12API;
const Scorm2004API = (scorm2004 as unknown as { Scorm2004API: typeof Scorm2004Class }).Scorm2004API;

/**
 * Issue 31 item 3: the SCORM runtime. The API objects are scorm-again's own, as the bridge makes
 * them (its rules on the cmi data model apply); their commits are caught and sent to the packages
 * origin exactly as the bridge sends them. Storage, resume, scoring and time are ours.
 */
let w: PackageWorld;
const clock = new TestClock(Date.now());
beforeAll(async () => {
  w = await startPackageWorld('scorm', clock.now);
});
afterAll(async () => w?.close());

type Api = InstanceType<typeof Scorm12API> | InstanceType<typeof Scorm2004API>;
interface Caught {
  cmi: Record<string, unknown>;
  terminate: boolean;
}

/** An API object like the bridge's: scorm-again with a commit service that keeps what it would send. */
function scormApi(kind: 'scorm12' | 'scorm2004', cmi: Record<string, unknown> | null) {
  const commits: Caught[] = [];
  const httpService = {
    processHttpRequest: (_url: string, params: { cmi?: Record<string, unknown> }, immediate: boolean) => {
      commits.push({ cmi: (params.cmi ?? params) as Record<string, unknown>, terminate: !!immediate });
      return { result: 'true', errorCode: 0 };
    },
    updateSettings: () => undefined,
  };
  const settings = { lmsCommitUrl: '/commit', autocommit: false, logLevel: 5, httpService };
  const api: Api =
    kind === 'scorm12' ? new Scorm12API(settings as never) : new Scorm2004API(settings as never);
  if (cmi) api.loadFromJSON(cmi);
  return { api, commits };
}

/** Sends the caught commits from `from` on, numbered from `first`, as the bridge does. */
async function send(call: ReturnType<typeof bridge>, commits: Caught[], from = 0, first = 1) {
  const out = [];
  for (let i = from; i < commits.length; i++) {
    const c = commits[i] as Caught;
    const res = await call('POST', '/commit', {
      cmi: c.cmi,
      sequence: first + i - from,
      terminate: c.terminate,
    });
    expect(res.statusCode, res.body).toBe(200);
    out.push(res.json() as { result: boolean; errorCode: number; applied: boolean });
  }
  return out;
}

async function pageOf(token: string, lessonId: string, pageId: string): Promise<PageData> {
  const res = await w.api(token)('GET', `/api/lessons/${lessonId}/pages/current?pageId=${pageId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: PageData }).data;
}

describe('SCORM 1.2 through API', () => {
  it('saves the SCO data on the server and resumes them on another launch; LMSFinish scores the page once and adds its time', async () => {
    const p = await w.toPackage('scorm12');
    expect(p.page.attributes.block?.content.package).toEqual({
      kind: 'scorm12',
      title: 'Fire quiz (SCORM 1.2)',
      width: null,
      height: null,
      launch: p.launch,
      // A cmi5 course's units (issue 39): none for SCORM.
      units: [],
    });

    const one = await launchOf(w, p);
    const b1 = bridge(w, one.key, one.secret);
    const start = await b1('POST', '/start');
    expect(start.statusCode, start.body).toBe(200);
    const started = start.json() as {
      kind: string;
      entry: string;
      cmi: Record<string, unknown>;
      resumed: boolean;
    };
    expect(started).toMatchObject({ kind: 'scorm12', resumed: false });
    expect(started.entry).toMatch(/^\/p\/[\w-]+\/[0-9a-f]{32}\/sco\/index\.html$/);
    const first = scormApi('scorm12', started.cmi);
    const api = first.api as InstanceType<typeof Scorm12API>;
    expect(api.LMSInitialize('')).toBe('true');
    expect(api.LMSGetValue('cmi.core.student_id')).toBe(w.users.ann);
    expect(api.LMSGetValue('cmi.core.student_name')).toBe('Lee, Ann');
    expect(api.LMSGetValue('cmi.core.entry')).toBe('ab-initio');
    expect(api.LMSGetValue('cmi.student_data.mastery_score')).toBe('70');
    expect(api.LMSGetValue('cmi.launch_data')).toBe('level=2');
    // scorm-again's data model rules: a status outside the vocabulary, a read-only element.
    expect(api.LMSSetValue('cmi.core.lesson_status', 'brilliant')).toBe('false');
    expect(api.LMSGetLastError()).toBe('405');
    expect(api.LMSSetValue('cmi.core.student_id', 'someone-else')).toBe('false');
    expect(api.LMSGetLastError()).toBe('403');
    expect(api.LMSSetValue('cmi.core.lesson_location', 'page-3')).toBe('true');
    expect(api.LMSSetValue('cmi.suspend_data', 'answers=1,0,2')).toBe('true');
    expect(api.LMSSetValue('cmi.core.lesson_status', 'incomplete')).toBe('true');
    expect(api.LMSCommit('')).toBe('true');
    expect(await send(b1, first.commits)).toEqual([{ result: true, errorCode: 0, applied: true }]);
    // The same commit again (a retried request): saved once.
    expect(await send(b1, first.commits)).toEqual([{ result: true, errorCode: 0, applied: false }]);
    expect((await pageOf(p.token, p.lessonId, p.pageId)).attributes.answeredAt).toBeNull();

    // Another device: a new launch of the same page resumes where the SCO was.
    clock.advance(5);
    const two = await launchOf(w, p);
    const b2 = bridge(w, two.key, two.secret);
    const again = (await b2('POST', '/start')).json() as { cmi: Record<string, unknown>; resumed: boolean };
    expect(again.resumed).toBe(true);
    const second = scormApi('scorm12', again.cmi);
    const api2 = second.api as InstanceType<typeof Scorm12API>;
    expect(api2.LMSInitialize('')).toBe('true');
    expect(api2.LMSGetValue('cmi.core.entry')).toBe('resume');
    expect(api2.LMSGetValue('cmi.core.lesson_location')).toBe('page-3');
    expect(api2.LMSGetValue('cmi.suspend_data')).toBe('answers=1,0,2');
    expect(api2.LMSGetValue('cmi.core.lesson_status')).toBe('incomplete');

    clock.advance(60);
    expect(api2.LMSSetValue('cmi.core.score.raw', '85')).toBe('true');
    expect(api2.LMSSetValue('cmi.core.score.max', '100')).toBe('true');
    expect(api2.LMSSetValue('cmi.core.lesson_status', 'passed')).toBe('true');
    expect(api2.LMSSetValue('cmi.core.session_time', '00:00:40.00')).toBe('true');
    expect(api2.LMSFinish('')).toBe('true');
    expect(second.commits.map((c) => c.terminate)).toEqual([true]);
    const timeBefore = (
      await w.t.db
        .selectFrom('lessonPages')
        .select('timeSpent')
        .where('id', '=', p.pageId)
        .executeTakeFirstOrThrow()
    ).timeSpent;
    await send(b2, second.commits);

    const page = await pageOf(p.token, p.lessonId, p.pageId);
    expect(page.attributes.answeredAt).not.toBeNull();
    expect(page.attributes.results?.score).toEqual({ actual: 8.5, max: 10 });
    expect(page.attributes.results?.tincan).toEqual({ scaled: 0.85 });
    // 40 s of session time; the player's pings counted none of it.
    expect(page.attributes.timeSpent - timeBefore).toBe(40);
    expect((await b2('GET', '/status')).json()).toEqual({
      terminated: true,
      finished: false,
      progress: 1,
      scored: true,
    });

    // The page is answered: its launch is spent, a new one is refused.
    const late = await w.api(p.token)('POST', '/api/packages/launches', {
      lessonId: p.lessonId,
      pageId: p.pageId,
      launch: p.launch,
    });
    expect(late.statusCode).toBe(403);

    // The learning records: ADL's SCORM profile, valid xAPI.
    await flushEmitted(w.t.db);
    const rows = await w.t.db
      .selectFrom('xapiStatements')
      .select(['verbId', 'body'])
      .where('userId', '=', w.users.ann)
      .where('activityId', 'like', '%/sco/%')
      .execute();
    const verbs = rows.map((r) => r.verbId.split('/').pop()).sort();
    expect(verbs).toEqual(['completed', 'initialized', 'passed', 'resumed', 'terminated']);
    for (const r of rows) expect(statementSchema.safeParse(JSON.parse(r.body)).success).toBe(true);
    const terminated = JSON.parse(rows.find((r) => r.verbId.endsWith('terminated'))!.body);
    expect(terminated.result).toEqual({
      success: true,
      completion: true,
      score: { raw: 85, max: 100 },
      duration: 'PT40S',
    });
  });

  it('refuses commits without the launch secret, with another launch, or malformed', async () => {
    const p = await w.toPackage('scorm12');
    const { key, secret } = await launchOf(w, p);
    const body = { cmi: { core: { lesson_location: 'x' } }, sequence: 1, terminate: false };
    const post = (headers: Record<string, string>, payload: unknown = body) =>
      w.packages.inject({
        method: 'POST',
        url: `/runtime/${key}/commit`,
        headers,
        payload: payload as object,
      });
    expect((await post({})).statusCode).toBe(401);
    expect((await post({ authorization: `Bearer ${secret.slice(1)}x` })).statusCode).toBe(401);
    const other = await launchOf(w, await w.toPackage('scorm12', 'ben'));
    expect((await post({ authorization: `Bearer ${other.secret}` })).statusCode).toBe(401);
    for (const bad of [
      { ...body, cmi: 'x' },
      { ...body, sequence: 0 },
      { ...body, sequence: 1.5 },
    ])
      expect((await post({ authorization: `Bearer ${secret}` }, bad)).statusCode).toBe(400);
    // A beacon (the page going away): text/plain, the secret in the body.
    const beacon = await w.packages.inject({
      method: 'POST',
      url: `/runtime/${key}/commit`,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ ...body, auth: secret }),
    });
    expect(beacon.statusCode, beacon.body).toBe(200);
    expect(
      (
        await w.t.db
          .selectFrom('packageRuntime')
          .select('cmi')
          .where('pageId', '=', p.pageId)
          .executeTakeFirstOrThrow()
      ).cmi,
    ).toContain('"lesson_location":"x"');
  });
});

describe('commits across processes', () => {
  it('the same commit sent to two processes at once is applied once; the next one after it', async () => {
    const p = await w.toPackage('scorm12');
    const { key, secret } = await launchOf(w, p);
    const peer = await buildPackagesApp({
      db: w.t.db,
      dbKind: w.t.kind,
      files: diskStore(w.filesDir),
      origin: PACKAGES_ORIGIN,
      now: clock.now,
    });
    try {
      const commit = (on: typeof peer, sequence: number, location: string) =>
        on.inject({
          method: 'POST',
          url: `/runtime/${key}/commit`,
          headers: { authorization: `Bearer ${secret}` },
          payload: { cmi: { core: { lesson_location: location } }, sequence, terminate: false },
        });
      const both = await Promise.all([commit(w.packages, 1, 'a'), commit(peer, 1, 'a')]);
      expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(both.map((r) => (r.json() as { applied: boolean }).applied).sort()).toEqual([false, true]);
      // An older commit arriving late changes nothing; a newer one does.
      expect(((await commit(peer, 3, 'c')).json() as { applied: boolean }).applied).toBe(true);
      expect(((await commit(w.packages, 2, 'b')).json() as { applied: boolean }).applied).toBe(false);
      const saved = await w.t.db
        .selectFrom('packageRuntime')
        .select('cmi')
        .where('pageId', '=', p.pageId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(saved.cmi).cmi.core.lesson_location).toBe('c');
    } finally {
      await peer.close();
    }
  });
});

describe('SCORM 2004 through API_1484_11', () => {
  it('scores by the scaled score, refuses values out of the model, resumes location', async () => {
    const p = await w.toPackage('scorm2004');
    expect(p.page.attributes.block?.content.package).toMatchObject({
      kind: 'scorm2004',
      width: 1024,
      height: 700,
    });
    const { key, secret } = await launchOf(w, p);
    const b = bridge(w, key, secret);
    const started = (await b('POST', '/start')).json() as { entry: string; cmi: Record<string, unknown> };
    expect(started.entry).toMatch(/\/content\/index\.html\?start=1$/);
    const { api, commits } = scormApi('scorm2004', started.cmi);
    const a = api as InstanceType<typeof Scorm2004API>;
    expect(a.Initialize('')).toBe('true');
    expect(a.GetValue('cmi.learner_id')).toBe(w.users.ann);
    expect(a.GetValue('cmi.scaled_passing_score')).toBe('0.7');
    expect(a.GetValue('cmi.completion_threshold')).toBe('0.8');
    expect(a.GetValue('cmi.entry')).toBe('ab-initio');
    expect(a.SetValue('cmi.score.scaled', '2')).toBe('false');
    expect(a.GetLastError()).toBe('407');
    expect(a.SetValue('cmi.location', 'q4')).toBe('true');
    expect(a.SetValue('cmi.interactions.0.id', 'exit-route')).toBe('true');
    expect(a.SetValue('cmi.interactions.0.type', 'choice')).toBe('true');
    expect(a.SetValue('cmi.interactions.0.learner_response', 'stairs')).toBe('true');
    expect(a.SetValue('cmi.interactions.0.result', 'correct')).toBe('true');
    expect(a.Commit('')).toBe('true');
    expect(a.SetValue('cmi.score.scaled', '0.6')).toBe('true');
    expect(a.SetValue('cmi.success_status', 'failed')).toBe('true');
    expect(a.SetValue('cmi.completion_status', 'completed')).toBe('true');
    expect(a.SetValue('cmi.session_time', 'PT45S')).toBe('true');
    expect(a.Terminate('')).toBe('true');
    // The launch began a minute ago: its 45 s fit in it (session_time is believed no further
    // than the launch lasted, issue 36).
    await w.t.db
      .updateTable('packageLaunches')
      .set({ createdAt: new Date(clock.now().getTime() - 60_000).toISOString() })
      .where('key', '=', key)
      .execute();
    await send(b, commits);
    const page = await pageOf(p.token, p.lessonId, p.pageId);
    expect(page.attributes.results?.score).toEqual({ actual: 6, max: 10 });
    const saved = await w.t.db
      .selectFrom('packageRuntime')
      .selectAll()
      .where('pageId', '=', p.pageId)
      .executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ kind: 'scorm2004', userId: w.users.ann, attempt: 1, totalSeconds: 45 });
    expect(JSON.parse(saved.cmi)).toMatchObject({
      terminated: true,
      cmi: { location: 'q4', success_status: 'failed' },
    });
    await flushEmitted(w.t.db);
    const responded = await w.t.db
      .selectFrom('xapiStatements')
      .select('body')
      .where('verbId', '=', 'http://adlnet.gov/expapi/verbs/responded')
      .where('userId', '=', w.users.ann)
      .execute();
    expect(responded.map((r) => JSON.parse(r.body).result)).toEqual([{ response: 'stairs', success: true }]);
  });
});

describe('launches', () => {
  it('answers the bridge URL on the packages origin, the secret in the fragment; refuses the wrong launch, page or learner', async () => {
    const p = await w.toPackage('scorm12');
    const res = await w.api(p.token)('POST', '/api/packages/launches', {
      lessonId: p.lessonId,
      pageId: p.pageId,
      launch: p.launch,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { url: string; origin: string; expiresAt: string };
    expect(body.origin).toBe('http://packages.pk.test');
    expect(body.url).toMatch(/^http:\/\/packages\.pk\.test\/launch\/[0-9a-f]{32}#[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(clock.now().getTime());
    // Only the secret's hash is kept.
    const secret = body.url.split('#')[1] as string;
    const rows = await w.t.db.selectFrom('packageLaunches').select('secretHash').execute();
    expect(JSON.stringify(rows)).not.toContain(secret);

    const wrong = await w.api(p.token)('POST', '/api/packages/launches', {
      lessonId: p.lessonId,
      pageId: p.pageId,
      launch: `${p.launch}x`,
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ errors: [{ code: 'Forbidden', source: { pointer: '/launch' } }] });
    const ben = await w.login('ben');
    const foreign = await w.api(ben)('POST', '/api/packages/launches', {
      lessonId: p.lessonId,
      pageId: p.pageId,
      launch: p.launch,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ errors: [{ code: 'MODEL_NOT_FOUND' }] });
    const anonymous = await w.app.inject({
      method: 'POST',
      url: '/api/packages/launches',
      headers: { host: 'pk.test' },
      payload: { lessonId: p.lessonId, pageId: p.pageId, launch: p.launch },
    });
    expect(anonymous.statusCode).toBe(401);
    const extra = await w.api(p.token)('POST', '/api/packages/launches', {
      lessonId: p.lessonId,
      pageId: p.pageId,
      launch: p.launch,
      x: 1,
    });
    expect(extra.statusCode).toBe(400);
  });
});
