import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedLoop, completeResponse } from './closed-loop';

describe('completeResponse', () => {
  it.each([
    ['content-length, whole', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok', { length: 40, status: 200 }],
    ['content-length, body still coming', 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nok', null],
    ['head still coming', 'HTTP/1.1 200 OK\r\ncontent-le', null],
    [
      'chunked, whole',
      'HTTP/1.1 409 Conflict\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      { length: 65, status: 409 },
    ],
    ['chunked, last chunk missing', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n', null],
    ['204 without a body', 'HTTP/1.1 204 No Content\r\n\r\n', { length: 27, status: 204 }],
  ])('%s', (_name, text, expected) => {
    expect(completeResponse(Buffer.from(text, 'latin1'))).toEqual(expected);
  });

  it('finds the first of two responses in one read', () => {
    const two = 'HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\naHTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nb';
    expect(completeResponse(Buffer.from(two))).toEqual({ length: 39, status: 200 });
  });
});

describe('closedLoop', () => {
  // A server that spends a millisecond of CPU on each measured request, as a busy API does, and
  // notes when it accepted each connection and when the first measured request came.
  const accepted: number[] = [];
  let firstMeasured = Infinity;
  let served = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/warm') return void res.end('warm');
    firstMeasured = Math.min(firstMeasured, performance.now());
    served++;
    const end = performance.now() + 1;
    while (performance.now() < end);
    // Both framings the client reads: chunked for odd paths, content-length for even ones.
    if (Number(req.url!.slice(1)) % 2) res.write('chunk');
    res.end(req.method === 'PATCH' ? 'answered' : 'read');
  });
  server.on('connection', () => accepted.push(performance.now()));
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('opens and serves every connection before the first measured request, then sends each request once', async () => {
    const requests = Array.from({ length: 300 }, (_, i) => ({ method: 'PATCH', path: `/${i}`, body: '{}' }));
    const result = await closedLoop(url, 50, requests, { method: 'GET', path: '/warm' });
    expect(accepted).toHaveLength(50);
    expect(Math.max(...accepted)).toBeLessThan(firstMeasured);
    expect(served).toBe(300);
    expect(result.samples).toHaveLength(300);
    expect(result.statuses).toEqual(new Map([[200, 300]]));
    expect(result.errors).toBe(0);
    expect(result.admissionMs).toBeGreaterThan(0);
  });
});
