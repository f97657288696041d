import { createElement, lazy, type ComponentType } from 'react';

export interface Preloadable<P extends object> {
  /** Renders the component; suspends (React.lazy) only while its code is not in yet. */
  Component: ComponentType<P>;
  /** Starts (or joins) loading the code; resolves once it is in. */
  load: () => Promise<ComponentType<P>>;
}

/**
 * A lazily loaded component that renders at once when its code is already in (issue 11,
 * decision 0030). React.lazy suspends on its first render even when the import has long
 * resolved, so each lazy layer of a first screen (query provider, screen) cost one more render
 * and a frame; the first screen's start loads them first (app/first-screen.ts) and then renders
 * the whole screen in one go. Also keeps the server's sign-in screen in place (decision 0026).
 */
export function preloadable<P extends object>(
  importer: () => Promise<ComponentType<P>>,
  wrapLoad: <T>(load: () => Promise<T>) => Promise<T> = (load) => load(),
): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const load = () => {
    pending ??= importer().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed import may be retried (the error boundary's reload, a flaky network).
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(() => wrapLoad(load).then((component) => ({ default: component })));
  const Component = (props: P) => createElement(loaded ?? (Lazy as unknown as ComponentType<P>), props);
  return { Component, load };
}
