import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TestClock } from '../../helpers/player';
import { bridge, launchOf, startPackageWorld } from '../../helpers/packages';
import type { PackageWorld } from '../../helpers/packages';
import type { ErrorDoc } from '../../helpers/app';

/**
 * Issue 36 item 1, finding 3: every SCORM commit whose interactions changed made one statement
 * per interaction, charged to nobody, and commits were not rate-limited (80 000–166 000
 * statements a minute). Now a commit is charged to its learner (commits per minute, module
 * bytes per day) and its statements with it, in the commit's transaction: a commit past either
 * is refused whole with 429. And (finding 10) the SCO's session_time is believed no further
 * than the launch has lasted before it is added to the SCO's total time.
 */
const COMMITS_PER_MINUTE = 5;
const STATEMENTS_PER_MINUTE = 30;

let w: PackageWorld;
const clock = new TestClock(Date.now());
beforeAll(async () => {
  w = await startPackageWorld('quota-scorm', clock.now, {
    QUOTA_COMMITS_PER_MINUTE: String(COMMITS_PER_MINUTE),
    QUOTA_STATEMENTS_PER_MINUTE: String(STATEMENTS_PER_MINUTE),
  });
});
afterAll(async () => w?.close());

const errorOf = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors[0];
/** SCORM 2004 cmi with `n` answered interactions, each answer tagged by `tag`. */
const cmiWith = (n: number, tag: string, extra: Record<string, unknown> = {}) => ({
  completion_status: 'incomplete',
  interactions: Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      String(i),
      { id: `q${i}`, type: 'fill-in', learner_response: `${tag}-${i}`, result: 'neutral' },
    ]),
  ),
  ...extra,
});
const statementsOf = async (userId: string) => {
  await flushEmitted(w.t.db);
  return (await w.t.db.selectFrom('xapiStatements').select('id').where('userId', '=', userId).execute())
    .length;
};

describe('SCORM commits (issue 36 finding 3)', () => {
  it('are rate-limited per learner: past the minute’s commits, 429 with Retry-After and nothing saved', async () => {
    const p = await w.toPackage('scorm2004');
    const { key, secret } = await launchOf(w, p);
    const b = bridge(w, key, secret);
    expect((await b('POST', '/start')).statusCode).toBe(200);
    const codes: number[] = [];
    for (let seq = 1; seq <= COMMITS_PER_MINUTE + 2; seq++)
      codes.push(
        (
          await b('POST', '/commit', {
            cmi: cmiWith(0, 'x', { location: `l${seq}` }),
            sequence: seq,
            terminate: false,
          })
        ).statusCode,
      );
    expect(codes).toEqual([...Array.from({ length: COMMITS_PER_MINUTE }, () => 200), 429, 429]);
    const refused = await b('POST', '/commit', { cmi: cmiWith(0, 'x'), sequence: 99, terminate: false });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({ code: 'TOO_MANY_REQUESTS', detail: 'quota.commitsPerMinute' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    const saved = await w.t.db
      .selectFrom('packageRuntime')
      .select('cmi')
      .where('pageId', '=', p.pageId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(saved.cmi).cmi.location).toBe(`l${COMMITS_PER_MINUTE}`);
    // The next minute, the SCO commits again.
    clock.advance(60);
  });

  it('charge the statements they make to their learner: a commit making more than are left is refused whole', async () => {
    clock.advance(60);
    const p = await w.toPackage('scorm2004', 'ben');
    const { key, secret } = await launchOf(w, p);
    const b = bridge(w, key, secret);
    expect((await b('POST', '/start')).statusCode).toBe(200);
    const before = await statementsOf(w.users.ben);
    // initialized + 20 responded: within the minute's 30.
    const first = await b('POST', '/commit', { cmi: cmiWith(20, 'a'), sequence: 1, terminate: false });
    expect(first.statusCode, first.body).toBe(200);
    const made = (await statementsOf(w.users.ben)) - before;
    expect(made).toBe(21);
    // 20 changed answers more: past the minute's statements, refused whole (nothing saved, none made).
    const second = await b('POST', '/commit', { cmi: cmiWith(20, 'b'), sequence: 2, terminate: false });
    expect(second.statusCode, second.body).toBe(429);
    expect(errorOf(second)?.detail).toBe('quota.statementsPerMinute');
    expect((await statementsOf(w.users.ben)) - before).toBe(21);
    const saved = await w.t.db
      .selectFrom('packageRuntime')
      .select('cmi')
      .where('pageId', '=', p.pageId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(saved.cmi).cmi.interactions['0'].learner_response).toBe('a-0');
    // The minute after, the same commit is taken.
    clock.advance(60);
    expect(
      (await b('POST', '/commit', { cmi: cmiWith(20, 'b'), sequence: 2, terminate: false })).statusCode,
    ).toBe(200);
  });
});

describe('session_time (issue 36 finding 10)', () => {
  it('adds no more to the SCO’s total time than the launch has lasted', async () => {
    clock.advance(60);
    const p = await w.toPackage('scorm2004');
    const { key, secret } = await launchOf(w, p);
    const b = bridge(w, key, secret);
    expect((await b('POST', '/start')).statusCode).toBe(200);
    clock.advance(30);
    const res = await b('POST', '/commit', {
      cmi: cmiWith(0, 'x', { session_time: 'PT10000H' }),
      sequence: 1,
      terminate: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = await w.t.db
      .selectFrom('packageRuntime')
      .select('totalSeconds')
      .where('pageId', '=', p.pageId)
      .executeTakeFirstOrThrow();
    expect(saved.totalSeconds).toBeLessThanOrEqual(30);
    expect(saved.totalSeconds).toBeGreaterThanOrEqual(29);
  });
});
