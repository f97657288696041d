/**
 * "A new version is available — Reload" (issue 12): announced by the service worker when a new
 * build is waiting, or by Vite when a lazy script or style of the old build cannot be loaded.
 */
import { useSyncExternalStore } from 'react';
import { loadErrorKind } from './load-errors';

type Reload = () => void;

let pending: Reload | null = null;
const listeners = new Set<() => void>();

const reloadPage: Reload = () => window.location.reload();

export function announceNewVersion(reload: Reload = reloadPage): void {
  pending = reload;
  listeners.forEach((listener) => listener());
}

export function reloadToNewVersion(): void {
  (pending ?? reloadPage)();
}

export function resetNewVersion(): void {
  pending = null;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useNewVersionAvailable(): boolean {
  return useSyncExternalStore(subscribe, () => pending !== null);
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
