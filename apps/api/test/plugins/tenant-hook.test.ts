import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/plugins/errors';
import { registerTenant } from '../../src/plugins/tenant';
import type { ContextRow } from '../../src/modules/contexts/repository';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';

/**
 * plugins/tenant.ts's hook on its own, on an empty database: answered from the cache in the same
 * turn when it may (issue 38 item 4), from the database otherwise, and a host no tenant answers on
 * is a 404 that is not kept (the tenant created next is found at once).
 */
let tdb: TestDb;
let app: FastifyInstance;
const seen: ContextRow[] = [];

beforeAll(async () => {
  tdb = await createTestDb();
  app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  registerTenant(app, { db: tdb.db });
  app.get('/who', async (request) => {
    seen.push(request.context);
    return { id: request.context.id };
  });
  await app.ready();
});

afterAll(async () => {
  agent.destroy();
  await app.close();
  await tdb.close();
});

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let port = 0;

/** GET /who over one kept-alive connection (inject makes a socket per request). */
function whoOverConnection(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path: '/who', agent, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? (JSON.parse(body) as { id: string }).id : body));
    });
    req.on('error', reject);
    req.end();
  });
}

const who = (host: string) => app.inject({ method: 'GET', url: '/who', headers: { host } });
const T = '2026-01-01T00:00:00.000Z';

describe('the tenant hook', () => {
  it('answers 404 while no tenant answers on the host, and finds one created after', async () => {
    const none = await who('nowhere.test');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ errors: [{ status: '404', code: 'NOT_FOUND' }] });
    await tdb.db
      .insertInto('contexts')
      .values({
        id: 'ctx-hook',
        alias: 'hook',
        name: 'Hook',
        description: null,
        hosts: '{}',
        assets: '{}',
        metas: '{}',
        settings: '{}',
        isGeneric: 1,
        createdAt: T,
        updatedAt: T,
      })
      .execute();
    const found = await who('nowhere.test');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ id: 'ctx-hook' });
  });

  it('serves the same row from its cache, whatever the case and port of the host', async () => {
    seen.length = 0;
    for (const host of ['cached.test', 'CACHED.test:8080', 'cached.test.']) {
      const res = await who(host);
      expect(res.statusCode).toBe(200);
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]?.id).toBe('ctx-hook');
  });

  it('answers each request of one connection for its own Host, whatever came before', async () => {
    await tdb.db
      .insertInto('contexts')
      .values({
        id: 'ctx-named',
        alias: 'named',
        name: 'Named',
        description: null,
        hosts: '{}',
        assets: '{}',
        metas: '{}',
        settings: '{}',
        isGeneric: 0,
        createdAt: T,
        updatedAt: T,
      })
      .execute();
    await tdb.db
      .insertInto('contextHostnames')
      .values({ hostname: 'named.test', contextId: 'ctx-named' })
      .execute();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    let connections = 0;
    app.server.on('connection', () => connections++);
    const seen = [];
    for (const host of [
      'named.test',
      'named.test',
      'cached.test',
      'NAMED.test:8080',
      'named.test.',
      'elsewhere.test',
    ])
      seen.push(await whoOverConnection(host));
    expect(seen).toEqual(['ctx-named', 'ctx-named', 'ctx-hook', 'ctx-named', 'ctx-named', 'ctx-hook']);
    expect(connections).toBe(1);
  });
});
