import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { rowRegistry } from '../../exercises/registry';
import { PlayerPage } from '../components/PlayerPage';
import { PlayerSlotsContext } from '../player-slots';
import { block, errorBody, pageAttributes, pageDoc, results } from '../test-pages';
import { answerQueue, lessonStore } from './device';

/** Two pages ahead of the first, as GET offline/lessons/{id}/pages sends them. */
const upcoming = [1, 2].map((index) => {
  const a = pageAttributes({ index, nodeId: `n${index + 1}` });
  return {
    type: 'offline-pages',
    id: `l1:n${index + 1}`,
    attributes: {
      lessonId: 'l1',
      nodeId: `n${index + 1}`,
      index,
      count: 3,
      sectionId: 'c1',
      node: { ...a.node, id: `n${index + 1}` },
      block: block({ id: `b${index + 1}`, title: `Question ${index + 1}` }),
      needsNetwork: null,
    },
  };
});

function renderPlayer({ offline = false } = {}) {
  setToken('token');
  const fetchMock = mockApi({
    'GET lessons/l1/pages/current': {
      body: pageDoc('p1', { count: 3, block: block({ title: 'Question 1' }) }),
    },
    'GET offline/lessons/l1/pages': { body: { data: upcoming } },
  });
  if (offline) goOffline(fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
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
  return fetchMock;
}

/** SPEC §4 debounces Next by 200 ms: each read of the clock here is a second later. */
function slowClock() {
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (now += 1000));
}

function goOffline(fetchMock: ReturnType<typeof mockApi>) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  fetchMock.mockImplementation(async () => {
    throw new TypeError('Failed to fetch');
  });
  window.dispatchEvent(new Event('offline'));
}

afterEach(async () => {
  vi.restoreAllMocks();
  await answerQueue.clear();
  await lessonStore.clear();
});

describe('the player offline', () => {
  it('Next keeps the answer on the device and shows the next stored page, with no error dialog', async () => {
    const user = userEvent.setup();
    slowClock();
    const fetchMock = renderPlayer();
    await screen.findByRole('heading', { level: 1, name: 'Question 1' });
    await waitFor(async () => expect((await lessonStore.get('l1'))?.upcoming).toHaveLength(2));
    goOffline(fetchMock);

    await user.click(screen.getByRole('checkbox', { name: /2\/4/ }));
    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await screen.findByRole('heading', { level: 1, name: 'Question 2' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(await screen.findByText(/Offline: 1 answer waits on this device/)).toBeInTheDocument();
    expect(answerQueue.snapshot().items.map((i) => [i.pageId, i.nodeId, i.answers])).toEqual([
      ['p1', 'n1', [[0]]],
    ]);

    await user.click(screen.getByRole('checkbox', { name: /2\/3/ }));
    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await screen.findByRole('heading', { level: 1, name: 'Question 3' });
    expect(await screen.findByText(/Offline: 2 answers wait/)).toBeInTheDocument();
    // The page reached offline is placed on the server from the one before it.
    expect(answerQueue.snapshot().items[1]).toMatchObject({
      pageId: null,
      nodeId: 'n2',
      fromPageId: 'p1',
      fromNodeId: 'n1',
      answers: [[1]],
    });
  }, 30_000);

  it('back online: the queue is sent in order; an answer the server refuses is explained, the next one is graded', async () => {
    const user = userEvent.setup();
    slowClock();
    const fetchMock = renderPlayer();
    await screen.findByRole('heading', { level: 1, name: 'Question 1' });
    await waitFor(async () => expect((await lessonStore.get('l1'))?.upcoming).toHaveLength(2));
    goOffline(fetchMock);
    await user.click(screen.getByRole('checkbox', { name: /2\/4/ }));
    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await screen.findByRole('heading', { level: 1, name: 'Question 2' });
    await user.click(screen.getByRole('checkbox', { name: /2\/3/ }));
    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await screen.findByRole('heading', { level: 1, name: 'Question 3' });

    // Meanwhile the first page was answered on another device: the server refuses it only.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const online = mockApi({
      'PATCH lessons/l1/pages/current': async (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { pageId: string };
        return body.pageId === 'p1'
          ? errorBody('INVALID_INPUTS')
          : {
              body: pageDoc(body.pageId, {
                index: 1,
                count: 3,
                nodeId: 'n2',
                inputs: { answers: [[1]] },
                results: results(),
              }),
            };
      },
      'POST lessons/l1/pages/next': {
        body: pageDoc('p2', { index: 1, count: 3, nodeId: 'n2', block: block({ title: 'Question 2' }) }),
      },
      'GET lessons/l1/pages/current': {
        body: pageDoc('p2', {
          index: 1,
          count: 3,
          nodeId: 'n2',
          block: block({ title: 'Question 2' }),
          inputs: { answers: [[1]] },
          results: results(),
        }),
      },
    });
    window.dispatchEvent(new Event('online'));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The server refused 1 answer given offline:');
    expect(alert).toHaveTextContent('“Question 1”');
    const patches = online.mock.calls
      .filter(([, init]) => init?.method === 'PATCH')
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(patches).toEqual([
      { pageId: 'p1', inputs: { answers: [[0]] } },
      { pageId: 'p2', inputs: { answers: [[1]] } },
    ]);
    await waitFor(() => expect(answerQueue.snapshot().items).toEqual([]));
    // The player shows the server's graded page after the send.
    await screen.findByRole('heading', { level: 1, name: 'Question 2' });
    await user.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('alert')).toBeNull();
  }, 30_000);

  it('a lesson kept ahead and never opened begins offline; back online its first page is asked for, then answered', async () => {
    const user = userEvent.setup();
    slowClock();
    // What keepAhead stored from GET offline/lessons/l1/pages for a lesson not begun (decision 0020).
    const first = pageAttributes({ index: 0, nodeId: 'n1', count: 3 });
    await lessonStore.save({
      lessonId: 'l1',
      savedAt: '2026-01-01T00:00:00Z',
      cursor: null,
      cursorNodeId: null,
      upcoming: [
        {
          lessonId: 'l1',
          nodeId: 'n1',
          index: 0,
          count: 3,
          sectionId: 'c1',
          node: first.node,
          block: block({ title: 'Question 1' }),
          needsNetwork: null,
        },
        ...upcoming.map((u) => u.attributes),
      ],
      settings: { lessonScoring: first.lessonScoring, courseTypeSettings: first.courseTypeSettings },
    });
    renderPlayer({ offline: true });
    await screen.findByRole('heading', { level: 1, name: 'Question 1' });
    await user.click(screen.getByRole('checkbox', { name: /2\/4/ }));
    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await screen.findByRole('heading', { level: 1, name: 'Question 2' });
    expect(answerQueue.snapshot().items[0]).toMatchObject({
      pageId: null,
      nodeId: 'n1',
      fromPageId: null,
      fromNodeId: null,
    });

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const online = mockApi({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p1', { count: 3, block: block({ title: 'Question 1' }) }),
      },
      'PATCH lessons/l1/pages/current': {
        body: pageDoc('p1', { count: 3, inputs: { answers: [[0]] }, results: results() }),
      },
    });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(answerQueue.snapshot().items).toEqual([]));
    const calls = online.mock.calls.map(
      ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://x').pathname}`,
    );
    expect(calls.slice(0, 2)).toEqual([
      'GET /api/lessons/l1/pages/current',
      'PATCH /api/lessons/l1/pages/current',
    ]);
  }, 30_000);
});
