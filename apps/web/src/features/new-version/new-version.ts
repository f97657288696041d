/**
 * "A new version is available — Reload" (issue 12): announced by the service worker when a new
 * build is waiting, or by Vite when a lazy script or style of the old build cannot be loaded.
 */
import { useSyncExternalStore } from 'react';
import { loadErrorKind } from './load-errors';

type Reload = () => void;

let pending: Reload | null = null;
/** How many screens already say it in full (error boundaries): the banner then stays away. */
let screensSayingIt = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

const reloadPage: Reload = () => window.location.reload();

export function announceNewVersion(reload: Reload = reloadPage): void {
  pending = reload;
  notify();
}

/** An error boundary shows the full "new version" message; returns its undo. */
export function screenSaysNewVersion(): () => void {
  screensSayingIt += 1;
  notify();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    screensSayingIt -= 1;
    notify();
  };
}

export function reloadToNewVersion(): void {
  (pending ?? reloadPage)();
}

export function resetNewVersion(): void {
  pending = null;
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the shell's banner should offer the reload (not when a screen already does). */
export function useNewVersionAvailable(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pending !== null && screensSayingIt === 0,
    // The server's HTML (and the hydration over it) never shows the offer.
    () => false,
  );
}

let installed = false;

/**
 * Vite dispatches `vite:preloadError` when a chunk's dependencies (scripts or CSS) fail to
 * preload. The error still reaches the screen's error boundary; this only announces the reload.
 */
export function watchPreloadErrors(target: Window = window): void {
  if (installed) return;
  installed = true;
  target.addEventListener('vite:preloadError', (event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    console.warn('Chunk preload failed', loadErrorKind(error) ?? 'chunk-missing', error);
    announceNewVersion();
  });
}
