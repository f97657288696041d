import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

/**
 * plugins/auth.ts reads a connection's Authorization header once and gives the token back while
 * the connection sends the same header (issue 38 item 4). Over one real keep-alive connection
 * (inject makes a socket per request, so the memo is never hit there), every request is still
 * answered for the token it carries, whatever came before it on the connection.
 */
let t: TestContext;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let connections = 0;

beforeAll(async () => {
  t = await startTestApp();
  t.app.server.on('connection', () => connections++);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  await t.close();
});

function me(authorization?: string): Promise<{ status: number; id?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        port,
        host: '127.0.0.1',
        path: '/api/users/me',
        agent,
        headers: { host: hosts.alpha, ...(authorization ? { authorization } : {}) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({ status, ...(status === 200 ? { id: (JSON.parse(body) as { _id: string })._id } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the bearer token of each request on one keep-alive connection', () => {
  it('answers each request for the token it carries, whatever the connection sent before', async () => {
    const anna = await login(t.app, 'anna@example.test');
    const bob = await login(t.app, 'bob@example.test');
    const before = connections;
    const seen = [
      await me(`Bearer ${anna}`),
      await me(`Bearer ${anna}`),
      await me(`Bearer ${bob}`),
      await me('Bearer not-a-token'),
      await me(`bearer   ${anna}  `),
      await me(),
      await me(`Bearer ${bob}`),
    ];
    expect(seen).toEqual([
      { status: 200, id: ids.learnerA },
      { status: 200, id: ids.learnerA },
      { status: 200, id: ids.learnerB },
      { status: 401 },
      { status: 200, id: ids.learnerA },
      { status: 401 },
      { status: 200, id: ids.learnerB },
    ]);
    // One connection carried them all: the memo was met.
    expect(connections - before).toBe(1);
  });
});
