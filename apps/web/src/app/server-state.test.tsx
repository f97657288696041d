/**
 * What the app's own query cache pinned down (decision 0034), kept as tests against TanStack Query
 * with the app's query options (decision 0035): the player reads its page once, the home's classes
 * refresh every 20 s only while the page is visible, nothing is asked about a page reached offline,
 * and a screen that goes gives its request up.
 */
import { DASHBOARD_REFRESH_MS } from '@parcours/domain/constants';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classUsersQueryOptions } from '../features/home/api/get-class-users';
import { LESSONS_FRESH_MS, lessonsQueryOptions } from '../features/home/api/get-lessons';
import { useCurrentPage } from '../features/player/api/get-current-page';
import { usePageResources } from '../features/player/api/get-page-resources';
import { playerKeys } from '../features/player/api/query-keys';
import { pageDoc } from '../features/player/test-pages';
import { afterFirstScreen } from '../lib/after-first-screen';
import { setToken } from '../lib/storage';
import { calledUrls, mockApi } from '../test/api-mock';
import { classUsersDoc } from '../test/fixtures';

function renderWithClient(children: ReactNode) {
  // The app's defaults that matter here (lib/query-client.ts).
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  // Without StrictMode, as in production: in development its second mount gives up the first
  // request and asks again, which is what TanStack Query does on any unmount.
  return { ...render(<QueryClientProvider client={client}>{children}</QueryClientProvider>), client };
}

const count = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  calledUrls(fetchMock).filter((url) => url.pathname === `/api/${path}`).length;

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('server state on TanStack Query', () => {
  it("reads the player's page once (gcTime 0, never stale)", async () => {
    setToken('token');
    const fetchMock = mockApi({ 'GET lessons/l1/pages/current': { body: pageDoc('p1') } });
    function Page() {
      const page = useCurrentPage('l1', null);
      return <p>{page.data ? `page ${page.data.id}` : 'loading'}</p>;
    }
    // TanStack Query's timers (garbage collection, refetches) run on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    renderWithClient(<Page />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByText('page p1')).toBeInTheDocument();
    // A minute later, still one read (a forgotten entry used to be asked for again and again).
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(count(fetchMock, 'lessons/l1/pages/current')).toBe(1);
    expect(screen.getByText('page p1')).toBeInTheDocument();
  });

  it("refreshes the home's classes every 20 s while the page is visible, never while hidden", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    setToken('token');
    const fetchMock = mockApi({ 'class-users': { body: classUsersDoc([]) } });
    function Classes() {
      const classes = useQuery(classUsersQueryOptions(false));
      return <p>{classes.isSuccess ? 'classes' : 'loading'}</p>;
    }
    renderWithClient(<Classes />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(count(fetchMock, 'class-users')).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    expect(count(fetchMock, 'class-users')).toBe(2);

    setVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(3 * DASHBOARD_REFRESH_MS));
    expect(count(fetchMock, 'class-users')).toBe(2);

    setVisibility('visible');
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    expect(count(fetchMock, 'class-users')).toBe(3);
  });

  it("reads a home's lessons once however late its parts mount; a new home reads them again", async () => {
    setToken('token');
    const fetchMock = mockApi({ lessons: { body: { data: [] } } });
    function Reader({ name }: { name: string }) {
      const lessons = useQuery(lessonsQueryOptions('u1'));
      return <p>{lessons.isSuccess ? `${name} read` : 'loading'}</p>;
    }
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
    });
    const home = (late: boolean) => (
      <QueryClientProvider client={client}>
        <Reader name="cards" />
        {late ? <Reader name="filters" /> : null}
      </QueryClientProvider>
    );
    const view = render(home(false));
    await screen.findByText('cards read');
    expect(count(fetchMock, 'lessons')).toBe(1);
    // The filters mount well after the read is no longer fresh (a slow phone): no second read.
    // Freshness is read on Date.now(): only the date is faked, so the screen's own waits still run.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + LESSONS_FRESH_MS + 100);
    view.rerender(home(true));
    await screen.findByText('filters read');
    expect(count(fetchMock, 'lessons')).toBe(1);
    // Back from a lesson, a new home: it asks again, for what the lesson unlocked.
    view.unmount();
    render(home(false));
    await vi.waitFor(() => expect(count(fetchMock, 'lessons')).toBe(2));
  });

  it('gives up the request under way when its screen goes (the abort signal reaches fetch)', async () => {
    setToken('token');
    const signals: AbortSignal[] = [];
    mockApi({
      'class-users': (_url, init) => {
        if (init?.signal) signals.push(init.signal);
        return new Promise(() => undefined);
      },
    });
    function Classes() {
      const classes = useQuery(classUsersQueryOptions(false));
      return <p>{classes.isPending ? 'loading' : 'classes'}</p>;
    }
    const { unmount } = renderWithClient(<Classes />);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    unmount();
    expect(signals[0]?.aborted).toBe(true);
  });

  it('asks nothing about a page reached offline (`offline:`), not even once back online', async () => {
    setToken('token');
    const fetchMock = mockApi({ 'pages/p1/resources': { body: { data: [], meta: { files: [] } } } });
    function Resources({ pageId }: { pageId: string }) {
      const resources = usePageResources(pageId, 'l1');
      return <p>{resources.isSuccess ? `resources of ${pageId}` : 'none'}</p>;
    }
    const { rerender, client } = renderWithClient(<Resources pageId="offline:n2" />);
    // The hook asks only once the first screen is painted (a task or two later): past that
    // point, a hook that took this page for the server's would have asked already.
    await act(() => afterFirstScreen());
    // TanStack Query refetches what it holds when the browser says it is online again (after
    // saying it was offline: an `online` while online changes nothing). It decides during the
    // event: a read it starts leaves the entry's idle state at once, before any fetch.
    act(() => void window.dispatchEvent(new Event('offline')));
    act(() => void window.dispatchEvent(new Event('online')));
    expect(client.getQueryState(playerKeys.resources('offline:n2', 'l1'))).toMatchObject({
      status: 'pending',
      fetchStatus: 'idle',
    });
    // The same hook on a page the server knows does ask (the test would pass on a broken hook).
    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <Resources pageId="p1" />
      </QueryClientProvider>,
    );
    await screen.findByText('resources of p1');
    expect(calledUrls(fetchMock).map((url) => decodeURIComponent(url.pathname))).toEqual([
      '/api/pages/p1/resources',
    ]);
  });
});
