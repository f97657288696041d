/**
 * Fakes the network boundary for component tests: `fetch` answers per "METHOD path" (path
 * relative to /api, without query string), or per path for any method.
 */
import { vi } from 'vitest';

export interface MockAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export type MockHandler = MockAnswer | ((url: URL, init?: RequestInit) => MockAnswer | Promise<MockAnswer>);

export function mockApi(handlers: Record<string, MockHandler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\//, '');
    const handler = handlers[`${init?.method ?? 'GET'} ${path}`] ?? handlers[path];
    const answer: MockAnswer = handler
      ? typeof handler === 'function'
        ? await handler(url, init)
        : handler
      : { status: 404, body: { errors: [{ status: '404', code: 'NOT_FOUND', title: 'Not found' }] } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The URLs fetch was called with, for assertions on query parameters. */
export function calledUrls(fetchMock: ReturnType<typeof mockApi>): URL[] {
  return fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost'));
}
