import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import type { ErrorDoc } from '../../helpers/app';
import { launchFor, statementOf, xapi } from '../lrs/world';
import type { Launched } from '../lrs/world';

/**
 * Issue 29 item 1, finding R3-02: a learner who reaches a module page stored 300–600 MB of
 * statements a minute. Statements are bounded per minute (per learner and per tenant) and in
 * bytes per launch and per learner; the flood is small because the limits are configured low.
 */
const PER_MINUTE = 10;
const LAUNCH_BYTES = 8 * 1024;
// More than two minutes' worth: even if the minute turns during the flood, some must be refused.
const FLOOD = 2 * PER_MINUTE + 5;
const MiB = 1024 * 1024;

let w: TincanWorld;
let mine: Launched;
let theirs: Launched;

beforeAll(async () => {
  w = await startTincanWorld('quota-statements', {
    QUOTA_STATEMENTS_PER_MINUTE: String(PER_MINUTE),
    QUOTA_STATEMENT_MB_PER_LAUNCH: String(LAUNCH_BYTES / MiB),
  });
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  theirs = await launchFor(w, await w.login('teacher@example.com', 'Teacher#2026'), w.teacherId);
  await flushEmitted(w.t.db);
});
afterAll(async () => {
  await w?.close();
});

const errorOf = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors[0];
const storedBy = async (userId: string) =>
  (await w.t.db.selectFrom('xapiStatements').select('id').where('userId', '=', userId).execute()).length;

describe('statements per minute (R3-02)', () => {
  it('refuses a flood at the limit with 429 and Retry-After, and another learner still records', async () => {
    await flushEmitted(w.t.db);
    const before = await storedBy(w.learnerId);
    const flood = await Promise.all(
      Array.from({ length: FLOOD }, () => xapi(w, mine, { method: 'POST', payload: statementOf(mine) })),
    );
    // The minute may turn during the flood: then a few more pass, never more than a minute's worth.
    const ok = flood.filter((r) => r.statusCode === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(2 * PER_MINUTE);
    const refused = flood.filter((r) => r.statusCode !== 200);
    for (const r of refused) {
      expect(r.statusCode).toBe(429);
      expect(errorOf(r)).toMatchObject({ code: 'TOO_MANY_REQUESTS', detail: 'quota.statementsPerMinute' });
      const retry = Number(r.headers['retry-after']);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
    }
    expect(await storedBy(w.learnerId)).toBe(before + ok);
    expect(refused).toHaveLength(FLOOD - ok);
    // A batch counts each statement: a batch past what is left is refused whole.
    const res = await xapi(w, theirs, { method: 'POST', payload: statementOf(theirs) });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses what passes the bytes of one launch with 413, storing nothing of the request', async () => {
    const big = () =>
      statementOf(theirs, { result: { extensions: { 'http://example.com/blob': 'x'.repeat(3000) } } });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await xapi(w, theirs, { method: 'POST', payload: big() })).statusCode);
    expect(codes).toEqual([200, 200, 413, 413]);
    const refused = await xapi(w, theirs, { method: 'POST', payload: big() });
    expect(errorOf(refused)).toMatchObject({ status: '413', detail: 'quota.statementBytes' });
  });
});
