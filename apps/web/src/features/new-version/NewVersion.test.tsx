import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../app/ErrorBoundary';
import { NewVersionBanner } from './NewVersionBanner';
import { announceNewVersion, resetNewVersion, watchPreloadErrors } from './new-version';

afterEach(() => {
  resetNewVersion();
  vi.restoreAllMocks();
});

function failingScreen(error: Error) {
  const Screen = lazy(() => Promise.reject(error));
  return (
    <ErrorBoundary>
      <Suspense fallback={null}>
        <Screen />
      </Suspense>
    </ErrorBoundary>
  );
}

describe('a screen whose chunk cannot be loaded', () => {
  it('offers to reload into the new version instead of a blank page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(failingScreen(new TypeError('Failed to fetch dynamically imported module: /assets/Player-1.js')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A new version is available');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('is said once: the shell banner stays away while the screen says it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { unmount } = render(
      <>
        <NewVersionBanner />
        {failingScreen(new TypeError('Importing a module script failed.'))}
      </>,
    );
    act(() => announceNewVersion());
    await screen.findByRole('alert');
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(screen.getAllByText('A new version is available')).toHaveLength(1);
    unmount();
    render(<NewVersionBanner />);
    expect(screen.getByRole('status')).toHaveTextContent('A new version is available');
  });

  it('keeps the generic message for any other failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(failingScreen(new RangeError('bug')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be loaded');
    expect(alert).not.toHaveTextContent('new version');
  });
});

describe('new version banner', () => {
  it('appears when the service worker has a new build, and its button applies it', async () => {
    const update = vi.fn();
    render(<NewVersionBanner />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    act(() => announceNewVersion(update));
    expect(screen.getByRole('status')).toHaveTextContent('A new version is available');
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('appears when Vite reports a chunk that failed to preload', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    watchPreloadErrors(window);
    render(<NewVersionBanner />);
    act(() => {
      const event = new Event('vite:preloadError') as Event & { payload?: unknown };
      event.payload = new Error('Unable to preload CSS for /assets/a.css');
      window.dispatchEvent(event);
    });
    expect(screen.getByRole('status')).toHaveTextContent('A new version is available');
  });
});
