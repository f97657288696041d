import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSessionUser } from '../../../lib/session';
import { mockApi } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { errorBody, pageDoc, results } from '../test-pages';
import { answerQueue } from './device';
import { OfflineSync } from './OfflineSync';

/**
 * Decision 0020: the shell sends the queue on any screen (here with no player at all), says that a
 * refused answer was refused and why, and sends the rest.
 */
async function queueTwo() {
  for (const [n, title] of [
    [1, 'Question 1'],
    [2, 'Question 2'],
  ] as const)
    await answerQueue.enqueue({
      lessonId: 'l1',
      nodeId: `n${n}`,
      pageId: `p${n}`,
      fromPageId: null,
      fromNodeId: null,
      answers: [[n]],
      title,
    });
}

afterEach(async () => {
  vi.restoreAllMocks();
  await answerQueue.clear();
});

describe('OfflineSync (app shell)', () => {
  it('back online on the home: the refused answer is explained, the next one is graded', async () => {
    const user = userEvent.setup();
    setSessionUser(me(), 'token');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await queueTwo();
    const fetchMock = mockApi({
      'PATCH lessons/l1/pages/current': (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { pageId: string };
        // Answered meanwhile from another device: the server refuses the first one only.
        return body.pageId === 'p1'
          ? errorBody('INVALID_INPUTS')
          : { body: pageDoc('p2', { inputs: { answers: [[2]] }, results: results() }) };
      },
    });
    render(<OfflineSync showBanner />);
    window.dispatchEvent(new Event('offline'));
    expect(await screen.findByRole('status')).toHaveTextContent('Offline: 2 answers wait on this device');
    expect(fetchMock).not.toHaveBeenCalled();

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The server refused 1 answer given offline:');
    expect(within(alert).getByRole('listitem')).toHaveTextContent('“Question 1”: Already answered');
    await waitFor(() => expect(answerQueue.snapshot().items).toEqual([]));
    const patched = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PATCH')
      .map(([, init]) => (JSON.parse(String(init?.body)) as { pageId: string }).pageId);
    expect(patched).toEqual(['p1', 'p2']);
    expect(screen.queryByRole('status')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(answerQueue.snapshot().refused).toEqual([]);
  });

  it('on the player screen the shell stays quiet (the player has its own banner) but still sends', async () => {
    setSessionUser(me(), 'token');
    await queueTwo();
    const fetchMock = mockApi({
      'PATCH lessons/l1/pages/current': { body: pageDoc('p1', { results: results() }) },
    });
    const { container } = render(<OfflineSync showBanner={false} />);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(answerQueue.snapshot().items).toEqual([]));
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(2);
    expect(container).toBeEmptyDOMElement();
  });
});
