import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/api-mock';
import { rowRegistry } from '../../exercises/registry';
import { PlayerSlotsContext } from '../player-slots';
import { CORRECTION_WAIT_MS, CorrectionPage } from './CorrectionPage';

function renderCorrection() {
  const fetchMock = mockApi({});
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PlayerSlotsContext value={{ rows: rowRegistry }}>
        <MemoryRouter initialEntries={['/correction']}>
          <CorrectionPage lessonId={null} pageId={null} />
        </MemoryRouter>
      </PlayerSlotsContext>
    </QueryClientProvider>,
  );
  return fetchMock;
}

function post(data: unknown, origin: string) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('CorrectionPage by message', () => {
  it('refuses a {page, lesson} from another origin, naming both origins, and loads nothing', () => {
    const fetchMock = renderCorrection();
    post({ page: 'p1', lesson: 'l1' }, 'https://evil.example');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('https://evil.example');
    expect(alert).toHaveTextContent(window.location.origin);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a malformed message instead of waiting silently', () => {
    renderCorrection();
    post({ lesson: 'l1' }, window.location.origin);
    expect(screen.getByRole('alert')).toHaveTextContent('page');
  });

  it('says there is nothing to correct when no message comes', () => {
    vi.useFakeTimers();
    renderCorrection();
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(CORRECTION_WAIT_MS + 10);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(/aucune page à corriger|no page to correct/i);
  });
});
