import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableId } from '../../../src/lib/ids';
import { emitPlayerEvent, flushEmitted } from '../../../src/modules/lrs/emit';
import { statementsQuery } from '../../../src/modules/lrs/store';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { VERBS, countStatements, launchFor, statementOf, xapi } from './world';
import type { Launched } from './world';

/**
 * Issue 29 item 2, the LRS's integrity (findings R3-03, R3-04, R3-05, R3-07): nobody voids a
 * statement that is not theirs or does not exist yet, nobody can take the id of a classmate's
 * future completion, a learner's query reads their own statements through an index, and a
 * statement nested or sized beyond the documented limits is a 400, never a 500.
 */
let w: TincanWorld;
let mine: Launched;
let theirs: Launched;

beforeAll(async () => {
  w = await startTincanWorld('lrs-integrity');
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  theirs = await launchFor(w, await w.login('teacher@example.com', 'Teacher#2026'), w.teacherId);
  await flushEmitted(w.t.db);
});
afterAll(async () => {
  await w?.close();
});

const voidingOf = (l: Launched, id: string) =>
  statementOf(l, { verb: { id: VERBS.voided }, object: { objectType: 'StatementRef', id } });

describe('voiding (R3-03)', () => {
  it('refuses a voiding statement whose target does not exist (400), storing nothing', async () => {
    const n = await countStatements(w);
    const res = await xapi(w, mine, { method: 'POST', payload: voidingOf(mine, randomUUID()) });
    expect(res.statusCode, res.body).toBe(400);
    expect(await countStatements(w)).toBe(n);
  });

  it("refuses to void a classmate's statement (403), which stays visible to its owner", async () => {
    const target = statementOf(theirs);
    expect((await xapi(w, theirs, { method: 'POST', payload: target })).statusCode).toBe(200);
    const res = await xapi(w, mine, { method: 'POST', payload: voidingOf(mine, target.id) });
    expect(res.statusCode).toBe(403);
    expect((await xapi(w, theirs, { query: { statementId: target.id } })).statusCode).toBe(200);
  });

  it('still voids the learner’s own statement, in the same batch too', async () => {
    const target = statementOf(mine);
    const res = await xapi(w, mine, { method: 'POST', payload: [target, voidingOf(mine, target.id)] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await xapi(w, mine, { query: { voidedStatementId: target.id } })).statusCode).toBe(200);
  });
});

describe("a classmate's future completion id (R3-03, R3-04)", () => {
  it('is not derivable: a statement stored under the old derived id does not stop the completion', async () => {
    const lessonId = mine.lessonId;
    // The id the player used to give this lesson's completion, computable by anyone who knows it.
    const derived = stableId('xapi', 'lesson-completed', lessonId);
    const squat = statementOf(theirs, { id: derived });
    expect((await xapi(w, theirs, { method: 'POST', payload: squat })).statusCode).toBe(200);
    // The lesson completes; the player records its completion after the commit.
    await w.t.db.updateTable('lessons').set({ progress: 'COMPLETED' }).where('id', '=', lessonId).execute();
    const context = await w.t.db
      .selectFrom('contexts')
      .select(['id', 'alias', 'hosts'])
      .where('id', '=', w.contextId)
      .executeTakeFirstOrThrow();
    emitPlayerEvent(
      { db: w.t.db, kind: w.t.kind, userId: w.learnerId, receivedAt: new Date() },
      context,
      'answered',
      lessonId,
      mine.pageId,
    );
    await flushEmitted(w.t.db);
    const completions = await w.t.db
      .selectFrom('xapiStatements')
      .select('id')
      .where('userId', '=', w.learnerId)
      .where('verbId', '=', VERBS.completed)
      .where('activityId', '=', `urn:parcours:lesson:${lessonId}`)
      .execute();
    expect(completions).toHaveLength(1);
    expect(completions[0]?.id).not.toBe(derived);
  });

  it('an id already used by another learner is refused (409), whatever its content', async () => {
    const taken = statementOf(theirs);
    expect((await xapi(w, theirs, { method: 'POST', payload: taken })).statusCode).toBe(200);
    const res = await xapi(w, mine, { method: 'POST', payload: statementOf(mine, { id: taken.id }) });
    expect(res.statusCode).toBe(409);
  });
});

describe('nesting and size (R3-07)', () => {
  it('answers 400 to an extension nested 5 000 levels deep, and to a statement over 64 KiB', async () => {
    // Written as text: JSON.stringify itself would overflow the stack on it.
    const deep = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    const nested = JSON.stringify(
      statementOf(mine, { result: { extensions: { 'http://example.com/deep': 'DEEP' } } }),
    ).replace('"DEEP"', deep);
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/xapi/statements',
      headers: {
        host: TINCAN_HOST,
        authorization: mine.auth,
        'x-experience-api-version': '1.0.3',
        'content-type': 'application/json',
      },
      payload: nested,
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
    const big = statementOf(mine, {
      result: { extensions: { 'http://example.com/big': 'x'.repeat(70 * 1024) } },
    });
    expect((await xapi(w, mine, { method: 'POST', payload: big })).statusCode).toBe(400);
    // Within the limits, a nested extension is stored.
    let fine: unknown = 'x';
    for (let i = 0; i < 10; i++) fine = { a: fine };
    const ok = statementOf(mine, { result: { extensions: { 'http://example.com/deep': fine } } });
    expect((await xapi(w, mine, { method: 'POST', payload: ok })).statusCode).toBe(200);
  });
});

describe("a learner's statement query (R3-05)", () => {
  it('reads through the index scoped to the learner, on both databases', async () => {
    const q = statementsQuery(w.t.db, w.contextId, {
      userId: w.learnerId,
      verb: VERBS.experienced,
      ascending: false,
      limit: 100,
    }).compile();
    let plan: string;
    if (w.t.kind === 'sqlite') {
      const rows = await w.t.db.executeQuery(
        CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
      );
      plan = JSON.stringify(rows.rows);
      expect(plan).not.toMatch(/SCAN xapi_statements\b(?! USING)/);
    } else {
      plan = await w.t.db.transaction().execute(async (trx) => {
        // An almost empty table is cheaper to read whole: the planner is told to prefer indexes,
        // which shows which index it would take once the table is large.
        await sql`set local enable_seqscan = off`.execute(trx);
        const rows = await trx.executeQuery(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
        return JSON.stringify(rows.rows);
      });
    }
    expect(plan).toContain('xapi_statements_user_ix');
  });
});

describe('a password change (R3-08)', () => {
  it('revokes the launch credentials issued before it', async () => {
    const token = await w.login('jordan@example.com', 'Jordan#Demo2026');
    const jordan = await w.t.db
      .selectFrom('users')
      .select('id')
      .where('contextId', '=', w.contextId)
      .where('email', '=', 'jordan@example.com')
      .executeTakeFirstOrThrow();
    const launched = await launchFor(w, token, jordan.id);
    expect((await xapi(w, launched, { method: 'POST', payload: statementOf(launched) })).statusCode).toBe(
      200,
    );
    const changed = await w.app.inject({
      method: 'PATCH',
      url: `/api/users/${jordan.id}`,
      headers: { host: TINCAN_HOST, authorization: `Bearer ${token}` },
      payload: { currentPassword: 'Jordan#Demo2026', password: 'Jordan#Other2026' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await xapi(w, launched, { method: 'POST', payload: statementOf(launched) });
    expect(after.statusCode).toBe(401);
    expect((await xapi(w, launched, { query: { verb: VERBS.experienced } })).statusCode).toBe(401);
    // A launch after the change works.
    const fresh = await launchFor(w, (changed.json() as { access_token: string }).access_token, jordan.id);
    expect((await xapi(w, fresh, { method: 'POST', payload: statementOf(fresh) })).statusCode).toBe(200);
  });
});
