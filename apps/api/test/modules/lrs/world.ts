import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, doc } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';

/** What POST /api/xapi/launches answers (docs/product.md §7 parameters). */
export interface Launched {
  lessonId: string;
  pageId: string;
  endpoint: string;
  auth: string;
  actor: { objectType: 'Agent'; name?: string; account: { homePage: string; name: string } };
  registration: string;
  expiresAt: string;
}

/** A fresh lesson of the demo course for `userId`, walked to its module page, then launched. */
export async function launchFor(w: TincanWorld, token: string, userId: string): Promise<Launched> {
  const lessonId = await w.newLesson(userId);
  const p = w.client(token, w.app);
  let res = await p.current(lessonId);
  for (let guard = 0; guard < 20; guard++) {
    expect(res.statusCode, res.body).toBe(200);
    const page = doc(res);
    if (page.attributes.block?.type === 'tincan') {
      const launch = (page.attributes as { tincanLaunch?: string | null }).tincanLaunch;
      expect(launch).toBeTruthy();
      const started = await w.app.inject({
        method: 'POST',
        url: '/api/xapi/launches',
        headers: { host: TINCAN_HOST, authorization: `Bearer ${token}` },
        payload: { lessonId, pageId: page.id, launch },
      });
      expect(started.statusCode, started.body).toBe(201);
      return { lessonId, pageId: page.id, ...(started.json() as Omit<Launched, 'lessonId' | 'pageId'>) };
    }
    expect((await p.close(lessonId, page.id)).statusCode).toBe(200);
    res = await p.next(lessonId, page.id);
  }
  throw new Error('no tincan page in the demo course');
}

export interface XapiCall {
  method?: 'GET' | 'POST' | 'PUT';
  url?: string;
  query?: Record<string, string>;
  payload?: unknown;
  auth?: string | null;
  version?: string | null;
  on?: FastifyInstance;
}

/** A call to the statements resource with `l`'s credentials and the version header (unless told otherwise). */
export function xapi(w: TincanWorld, l: Launched, c: XapiCall = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { host: TINCAN_HOST };
  const auth = c.auth === undefined ? l.auth : c.auth;
  if (auth !== null) headers.authorization = auth;
  const version = c.version === undefined ? '1.0.3' : c.version;
  if (version !== null) headers['x-experience-api-version'] = version;
  const qs = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
  return (c.on ?? w.app).inject({
    method: c.method ?? 'GET',
    url: c.url ?? `/api/xapi/statements${qs}`,
    headers,
    ...(c.payload === undefined ? {} : { payload: c.payload as object }),
  });
}

export const VERBS = {
  experienced: 'http://adlnet.gov/expapi/verbs/experienced',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  voided: 'http://adlnet.gov/expapi/verbs/voided',
  launched: 'http://adlnet.gov/expapi/verbs/launched',
};

/** A statement by the launch's learner about the demo module. */
export function statementOf(l: Launched, extra: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    actor: l.actor,
    verb: { id: VERBS.experienced, display: { 'en-US': 'experienced' } },
    object: { objectType: 'Activity', id: 'http://example.com/modules/fire-triangle' },
    context: { registration: l.registration },
    ...extra,
  };
}

export async function countStatements(w: TincanWorld): Promise<number> {
  // The player's own statements (a scoring statement makes the page answered) are written 20 ms
  // after the call that caused them: a count taken before they land would move under a loaded
  // machine between two counts of one test, so every count first waits for them.
  await flushEmitted(w.t.db);
  const r = await w.t.db
    .selectFrom('xapiStatements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
