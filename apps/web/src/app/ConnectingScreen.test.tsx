import { act, render, screen } from '@testing-library/react';
import { ConnectingScreen } from './ConnectingScreen';

/**
 * Issue 37: an offline first visit with no kept copy of the learner showed a bare spinner, its
 * "offline" text for screen readers only. The text is on the screen, and follows the connection.
 */
describe('the screen of a session still connecting', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says on the screen that the browser is offline, then that it connects once back online', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<ConnectingScreen />);
    const text = screen.getByText('Offline: the session resumes when the connection is back.');
    expect(text).toBeVisible();
    expect(text).not.toHaveClass('sr-only');
    expect(screen.getByRole('status')).toHaveTextContent(/Offline/);

    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByText(/Offline/)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Connecting…');
  });

  it('keeps the plain spinner while online (the wait is short)', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(<ConnectingScreen />);
    expect(screen.getByText('Connecting…')).toHaveClass('sr-only');
  });
});
