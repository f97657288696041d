import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { backoffMs, forwardDue } from '../../../src/modules/lrs/forward';
import { startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, statementOf, xapi } from './world';

/**
 * Forwarding to a tenant's external LRS (hosts.lrs): a real second HTTP server that stores
 * statements by PUT statementId, refuses everything while "down", then recovers. Every stored
 * statement must reach it exactly once, none lost meanwhile.
 */
let w: TincanWorld;
let external: FastifyInstance;
let down = true;
const received = new Map<string, unknown>();
const deliveries = new Map<string, number>();
let refused = 0;
let badAuth = 0;

beforeAll(async () => {
  external = Fastify({ logger: false });
  external.put('/xapi/statements', async (request, reply) => {
    if (request.headers.authorization !== `Basic ${Buffer.from('lrs-user:lrs-pass').toString('base64')}`) {
      badAuth++;
      return reply.code(401).send();
    }
    if (request.headers['x-experience-api-version'] !== '1.0.3') return reply.code(400).send();
    if (down) {
      refused++;
      return reply.code(503).send();
    }
    const id = (request.query as { statementId: string }).statementId;
    if (!received.has(id)) received.set(id, request.body);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    return reply.code(204).send();
  });
  const address = await external.listen({ port: 0, host: '127.0.0.1' });
  w = await startTincanWorld('lrs-forwarding');
  const hosts = JSON.parse(
    (
      await w.t.db
        .selectFrom('contexts')
        .select('hosts')
        .where('id', '=', w.contextId)
        .executeTakeFirstOrThrow()
    ).hosts,
  ) as Record<string, unknown>;
  await w.t.db
    .updateTable('contexts')
    .set({
      hosts: JSON.stringify({
        ...hosts,
        lrs: { endpoint: `${address}/xapi/`, username: 'lrs-user', password: 'lrs-pass' },
      }),
    })
    .where('id', '=', w.contextId)
    .execute();
  // The first app's tenant cache holds the row read at login; the peer has not read it yet.
});
afterAll(async () => {
  await w?.close();
  await external?.close();
});

/** Until the app's own forwarder (real rounds, a second apart) has done what `done` checks. */
async function until(done: () => boolean, ms = 60_000) {
  await vi.waitFor(
    () => {
      if (!done()) throw new Error('not yet');
    },
    { timeout: ms, interval: 100 },
  );
}

describe('backoff', () => {
  it.each([
    [1, 1000],
    [2, 2000],
    [5, 16_000],
    [30, 600_000],
  ])('after %i failures waits %i ms', (attempts, ms) => {
    expect(backoffMs(attempts)).toBe(ms);
  });
});

describe('forwarding to an external LRS', () => {
  it(
    'keeps statements while it is down and delivers each exactly once when it recovers',
    { timeout: 90_000 },
    async () => {
      // The peer app reads the tenant with its external LRS; both apps' forwarders run.
      const on = w.peer;
      const world = { ...w, app: on };
      const l = await launchFor(world, w.learnerToken, w.learnerId);
      const batch = Array.from({ length: 5 }, () => statementOf(l));
      expect((await xapi(world, l, { method: 'POST', payload: batch })).statusCode).toBe(200);
      const one = statementOf(l);
      expect(
        (await xapi(world, l, { method: 'PUT', query: { statementId: one.id }, payload: one })).statusCode,
      ).toBe(204);
      await flushEmitted(w.t.db);
      const stored = (
        await w.t.db.selectFrom('xapiStatements').select('id').where('contextId', '=', w.contextId).execute()
      ).map((r) => r.id);
      // The module's 6, and the player's own (pages closed on the way, the launch).
      expect(stored).toEqual(expect.arrayContaining([...batch.map((b) => b.id), one.id]));
      expect(stored.length).toBeGreaterThanOrEqual(7);

      // Down: the app's own forwarder (a round a second, backoff from 1 s) keeps failing; nothing
      // is delivered and nothing is dropped.
      await until(() => refused >= 2 * stored.length);
      const waiting = await w.t.db
        .selectFrom('xapiOutbox')
        .selectAll()
        .where('deliveredAt', 'is', null)
        .execute();
      expect(waiting.map((r) => r.statementId).sort()).toEqual([...stored].sort());
      expect(waiting.every((r) => r.attempts >= 1 && r.lastError === 'HTTP 503')).toBe(true);
      expect(received.size).toBe(0);

      // Recovers: every statement arrives, once, and stays delivered.
      down = false;
      await until(() => received.size === stored.length);
      expect([...received.keys()].sort()).toEqual([...stored].sort());
      // Each delivery is recorded once the receiver said 204 (a moment after it counted it).
      const pending = () =>
        w.t.db.selectFrom('xapiOutbox').select('statementId').where('deliveredAt', 'is', null).execute();
      await vi.waitFor(async () => expect(await pending()).toEqual([]), { timeout: 10_000, interval: 100 });
      // Stays delivered: a round at any later time, past every backoff and lease, sends nothing
      // again (rather than waiting for the apps' own rounds to come by).
      const later = new Date(Date.now() + 24 * 60 * 60_000);
      expect(await forwardDue(w.t.db, w.t.kind, later)).toBe(0);
      expect(deliveries.size).toBe(stored.length);
      expect([...deliveries.values()].every((n) => n === 1)).toBe(true);
      expect(badAuth).toBe(0);
      // The receiver got the statement as stored here (id, actor, stored, authority).
      const first = received.get(one.id) as {
        id: string;
        actor: unknown;
        stored: string;
        authority: unknown;
      };
      expect(first.id).toBe(one.id);
      expect(first.actor).toEqual(l.actor);
      expect(first.stored).toBeTruthy();
      expect(first.authority).toBeTruthy();
    },
  );

  it('never shows the external LRS credentials in the public context document', async () => {
    const res = await w.peer.inject({
      method: 'GET',
      url: '/api/contexts/current',
      headers: { host: 'en.localhost' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('lrs-pass');
  });
});
