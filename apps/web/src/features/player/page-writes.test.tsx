/**
 * The player's writes as TanStack Query mutations (page-cache.ts): one key and one scope per
 * lesson, the page query's entry as the one copy of the page shown.
 */
import { dehydrate, hydrate, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/storage';
import { mockApi, type MockAnswer, type MockHandler } from '../../test/api-mock';
import { rowRegistry } from '../exercises/registry';
import type { LessonPage } from './api/lesson-page';
import { playerKeys } from './api/query-keys';
import { PlayerPage } from './components/PlayerPage';
import { PlayerSlotsContext } from './player-slots';
import { block, pageDoc, results } from './test-pages';

const pageKey = playerKeys.page('l1', null);

function renderPlayer(handlers: Record<string, MockHandler>, client = new QueryClient()) {
  setToken('token');
  const fetchMock = mockApi(handlers);
  const view = render(
    <QueryClientProvider client={client}>
      <PlayerSlotsContext value={{ rows: rowRegistry }}>
        <MemoryRouter initialEntries={['/session/l1']}>
          <Routes>
            <Route path="/session/l1" element={<PlayerPage lessonId="l1" pageId={null} />} />
            <Route path="*" element={<p>home</p>} />
          </Routes>
        </MemoryRouter>
      </PlayerSlotsContext>
    </QueryClientProvider>,
  );
  return { fetchMock, client, unmount: view.unmount };
}

/** An answer that waits for the test to release it. */
function deferred() {
  let release: (answer: MockAnswer) => void = () => undefined;
  const handler: MockHandler = () => new Promise<MockAnswer>((resolve) => (release = resolve));
  return { handler, release: (answer: MockAnswer) => act(() => release(answer)) };
}

/** The calls made, as "METHOD path", in order. */
const calls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.map(
    ([input, init]) =>
      `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname.replace('/api/', '')}`,
  );

const shownId = (client: QueryClient) => client.getQueryData<LessonPage>(pageKey)?.id;

/** docs/product.md §4 debounces Next by 200 ms: each read of the clock here is a second later. */
function slowClock() {
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (now += 1000));
}

const graded = pageDoc('p1', { inputs: { answers: [[0]] }, results: results() });
const pageTwo = pageDoc('p2', { index: 1, block: block({ id: 'b2', title: 'Page two' }) });

afterEach(() => vi.restoreAllMocks());

describe("the player's writes", () => {
  it('ignores Next while the answer is on its way, then moves on from the graded page, in order', async () => {
    slowClock();
    const user = userEvent.setup();
    const patch = deferred();
    const { fetchMock, client } = renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1') },
      'PATCH lessons/l1/pages/current': patch.handler,
      'POST lessons/l1/pages/next': { body: pageTwo },
    });
    await user.click(await screen.findByRole('checkbox', { name: '2/4' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(calls(fetchMock)).toContain('PATCH lessons/l1/pages/current'));
    expect(client.isMutating({ mutationKey: playerKeys.writes('l1') })).toBe(1);
    // A second press, by key and by button, while the write runs: nothing more is sent.
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(screen.getByRole('button', { name: /Next/ })).toHaveAttribute('aria-disabled', 'true');
    patch.release({ body: graded });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page two' })).toBeInTheDocument();
    expect(calls(fetchMock).filter((c) => c.includes('lessons/l1/pages/'))).toEqual([
      'GET lessons/l1/pages/current',
      'PATCH lessons/l1/pages/current',
      'POST lessons/l1/pages/next',
    ]);
    expect(shownId(client)).toBe('p2');
    await waitFor(() => expect(client.isMutating()).toBe(0));
  });

  it("writes every move and hint into the page query's entry, the one copy, and reads the page once", async () => {
    const user = userEvent.setup();
    const { fetchMock, client } = renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p2', {
          index: 1,
          block: block({ title: 'Page two' }),
          hints: { messages: [], remaining: 1, nextMalus: null },
        }),
      },
      'POST lessons/l1/pages/current/hints': {
        body: { hints: { messages: ['A free hint'], remaining: 0, nextMalus: null } },
      },
      'POST lessons/l1/pages/previous': { body: pageDoc('p1', { block: block({ title: 'Page one' }) }) },
    });
    await user.click(await screen.findByRole('button', { name: /Show a hint/ }));
    expect(await screen.findByText('A free hint')).toBeInTheDocument();
    expect(client.getQueryData<LessonPage>(pageKey)?.hints.messages).toEqual(['A free hint']);

    await user.click(screen.getByRole('button', { name: /Previous/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page one' })).toBeInTheDocument();
    expect(shownId(client)).toBe('p1');
    const pageEntries = client.getQueryCache().findAll({ queryKey: [...playerKeys.all, 'page'] });
    expect(pageEntries.map((q) => q.queryKey)).toEqual([pageKey]);
    expect(calls(fetchMock).filter((c) => c === 'GET lessons/l1/pages/current')).toHaveLength(1);
  });

  it('a write answered after the player closed writes nothing (a later visit reads the page again)', async () => {
    const user = userEvent.setup();
    const patch = deferred();
    const { client, unmount } = renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1') },
      'PATCH lessons/l1/pages/current': patch.handler,
    });
    await user.click(await screen.findByRole('checkbox', { name: '2/4' }));
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(client.isMutating()).toBe(1));
    unmount();
    // The entry lives while shown (gcTime 0).
    await waitFor(() => expect(client.getQueryCache().find({ queryKey: pageKey })).toBeUndefined());
    patch.release({ body: graded });
    await waitFor(() => expect(client.isMutating()).toBe(0));
    expect(client.getQueryCache().find({ queryKey: pageKey })).toBeUndefined();
  });

  it('shows the page drawn by the server without reading it, and moves on in that same entry', async () => {
    const user = userEvent.setup();
    const server = new QueryClient();
    server.setQueryData(pageKey, {
      ...pageDoc('p1', { block: block({ type: 'slide' }) }).data.attributes,
      id: 'p1',
    });
    const client = new QueryClient();
    hydrate(client, dehydrate(server));
    const { fetchMock } = renderPlayer(
      {
        'GET lessons/l1/pages/current': { body: pageDoc('p1') },
        'POST lessons/l1/pages/next': { body: pageTwo },
      },
      client,
    );
    await user.click(await screen.findByRole('button', { name: /Next/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page two' })).toBeInTheDocument();
    expect(shownId(client)).toBe('p2');
    expect(calls(fetchMock).filter((c) => c.startsWith('GET lessons/l1/pages'))).toEqual([]);
  });
});
