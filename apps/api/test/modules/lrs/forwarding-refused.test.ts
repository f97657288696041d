import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { forwardDue } from '../../../src/modules/lrs/forward';
import { startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, statementOf, xapi } from './world';

/**
 * Issue 28: the forwarder stops retrying a statement the other store refuses with a 4xx other
 * than 429 (it would refuse it again, forever) and reports it; a 429 is retried. A real second
 * HTTP server answers by the statement's verb.
 */
let w: TincanWorld;
let external: FastifyInstance;
const warnings: object[] = [];
const calls = new Map<string, number>();

beforeAll(async () => {
  external = Fastify({ logger: false });
  external.put('/xapi/statements', async (request, reply) => {
    const id = (request.query as { statementId: string }).statementId;
    calls.set(id, (calls.get(id) ?? 0) + 1);
    const verb = (request.body as { verb: { id: string } }).verb.id;
    if (verb.endsWith('/refused')) return reply.code(400).send({ error: 'not my kind of statement' });
    if (verb.endsWith('/busy')) return reply.code(429).send();
    return reply.code(204).send();
  });
  const address = await external.listen({ port: 0, host: '127.0.0.1' });
  w = await startTincanWorld('lrs-forwarding-refused');
  const ctx = await w.t.db
    .selectFrom('contexts')
    .select('hosts')
    .where('id', '=', w.contextId)
    .executeTakeFirstOrThrow();
  const hosts = { ...(JSON.parse(ctx.hosts) as object), lrs: { endpoint: `${address}/xapi/` } };
  await w.t.db
    .updateTable('contexts')
    .set({ hosts: JSON.stringify(hosts) })
    .where('id', '=', w.contextId)
    .execute();
});
afterAll(async () => {
  await w?.close();
  await external?.close();
});

describe('a statement the other store refuses', () => {
  it('is not retried after a 4xx other than 429, and is reported; a 429 is retried', async () => {
    // A fresh app of the same world reads the tenant's new hosts.lrs at once.
    const app = w.peer;
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const refused = statementOf(l, { verb: { id: 'http://example.com/verbs/refused' } });
    const busy = statementOf(l, { verb: { id: 'http://example.com/verbs/busy' } });
    expect((await xapi(w, l, { on: app, method: 'POST', payload: [refused, busy] })).statusCode).toBe(200);
    await flushEmitted(w.t.db);
    const log = { warn: (obj: object) => warnings.push(obj) };
    let at = Date.now() + 60 * 60_000;
    for (let round = 0; round < 3; round++) {
      await forwardDue(w.t.db, w.t.kind, new Date(at), { log, baseDelayMs: 1, maxDelayMs: 1, leaseMs: 1 });
      at += 1000;
    }
    const row = (id: string) =>
      w.t.db.selectFrom('xapiOutbox').selectAll().where('statementId', '=', id).executeTakeFirstOrThrow();
    const r = await row(refused.id);
    expect(r.refusedAt).not.toBeNull();
    expect(r.deliveredAt).toBeNull();
    expect(r.attempts).toBe(1);
    expect(r.lastError).toMatch(/^HTTP 400 .*not my kind/);
    expect(calls.get(refused.id)).toBe(1);
    expect(warnings).toContainEqual(expect.objectContaining({ statementId: refused.id }));
    const b = await row(busy.id);
    expect(b.refusedAt).toBeNull();
    expect(b.attempts).toBeGreaterThanOrEqual(3);
  });
});
