import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import { hosts, PASSWORD, seedWorld } from '../helpers/fixtures';
import { login, testEnv } from '../helpers/app';

/**
 * Issue 10 finding 9: at the default level the request URL was logged with reset tokens and
 * `?access_token=` JWTs. Every log line of requests carrying secrets (URL, headers, bodies) is
 * captured, at the most verbose level, and searched for them.
 */
let tdb: TestDb;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  tdb = await createTestDb();
  await seedWorld(tdb.db);
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await buildApp({
    env: testEnv({ LOG_LEVEL: 'trace' }),
    db: tdb.db,
    dbKind: tdb.kind,
    logger: { level: 'trace', stream },
  });
  // A careless future route that dumps its whole request: the redaction must still hold.
  app.post('/api-test/dump', async (request) => {
    request.log.info(
      { headers: request.headers, body: request.body, query: request.query, url: request.url },
      'dump',
    );
    request.log.debug(`raw url ${request.url}`);
    throw new Error(`failed for ${request.url}`);
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await tdb.close();
});

describe('secrets never reach the log', () => {
  it('redacts tokens, passwords, authorization and cookies from URLs, headers and bodies', async () => {
    const jwt = await login(app, 'anna@example.test');
    const resetToken = 'RESETTOKEN0123456789abcdef';
    const secrets = [
      jwt,
      jwt.split('.')[2] as string,
      resetToken,
      PASSWORD,
      'Wrong-Pass-777',
      'New-Pass-888!',
      'COOKIESECRET42',
      'INVITECODE77',
      'FETCHTOKEN0123456789abcdef',
    ];

    const host = hosts.alpha;
    await app.inject({ method: 'GET', url: `/api/users/me?access_token=${jwt}`, headers: { host } });
    // A cmi5 fetch URL (issue 31), and an AU's address carrying it.
    await app.inject({
      method: 'POST',
      url: '/api/packages/fetch/FETCHTOKEN0123456789abcdef',
      headers: { host },
    });
    await app.inject({
      method: 'GET',
      url: `/api/users/me?fetch=${encodeURIComponent('http://x/api/packages/fetch/FETCHTOKEN0123456789abcdef')}`,
      headers: { host },
    });
    await app.inject({
      method: 'GET',
      url: `/api/users/me?noCache=1&access_token=${encodeURIComponent(jwt)}`,
      headers: { host },
    });
    await app.inject({ method: 'GET', url: `/api/users/reset/${resetToken}`, headers: { host } });
    await app.inject({
      method: 'POST',
      url: '/api/users/reset',
      headers: { host },
      payload: { token: resetToken, password: 'New-Pass-888!' },
    });
    await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host, authorization: `Bearer ${jwt}`, cookie: 'sid=COOKIESECRET42' },
      payload: { email: 'anna@example.test', password: 'Wrong-Pass-777' },
    });
    await app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { host },
      payload: { code: 'INVITECODE77', password: 'New-Pass-888!' },
    });
    await app.inject({
      method: 'POST',
      url: `/api-test/dump?token=${resetToken}&access_token=${jwt}`,
      headers: {
        host,
        authorization: `Bearer ${jwt}`,
        cookie: 'sid=COOKIESECRET42',
        'x-reset': `/users/reset/${resetToken}`,
      },
      payload: {
        password: PASSWORD,
        nested: { currentPassword: 'Wrong-Pass-777', list: [{ token: resetToken }] },
        note: `Bearer ${jwt}`,
      },
    });

    const log = lines.join('');
    // The capture works: requests were logged, with their (redacted) URLs.
    expect(log).toContain('/api/users/me');
    expect(log).toContain('/api/users/reset/');
    expect(log).toContain('/api/packages/fetch/');
    expect(log).toContain('dump');
    const leaked = secrets.filter((s) => log.includes(s));
    expect(leaked).toEqual([]);
  });
});
