/**
 * The three places a location can live (decision 0032): the browser's session history, a list in
 * memory (unit tests) and a fixed location (the server's drawing of /login, decision 0026).
 */
import { createPath, parsePath, type Path } from './match';

export interface Location extends Path {
  /** What the navigation that made this entry carried (`navigate(to, { state })`), or null. */
  state: unknown;
  /** Unique per entry; 'default' for the entry the app started on. */
  key: string;
}

export interface History {
  readonly location: Location;
  push(to: string, state?: unknown): void;
  replace(to: string, state?: unknown): void;
  /** Moves `delta` entries back (negative) or forward, as the browser's buttons do. */
  go(delta: number): void;
  /** Calls `listener` after every change of location; returns the unsubscribe. */
  listen(listener: (location: Location) => void): () => void;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

function entry(to: string | (Partial<Path> & { state?: unknown }), state: unknown, key: string): Location {
  const path = typeof to === 'string' ? parsePath(to) : { pathname: '/', search: '', hash: '', ...to };
  const carried = typeof to === 'string' ? state : (to.state ?? state);
  return {
    pathname: path.pathname || '/',
    search: path.search,
    hash: path.hash,
    state: carried ?? null,
    key,
  };
}

function listeners() {
  const set = new Set<(location: Location) => void>();
  return {
    add(listener: (location: Location) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    call(location: Location) {
      for (const listener of [...set]) listener(location);
    },
  };
}

/** What the router keeps in `history.state`: the app's state and the entry's key. */
interface StoredState {
  usr: unknown;
  key: string;
}

function fromWindow(win: Window): Location {
  const stored = win.history.state as Partial<StoredState> | null;
  const { pathname, search, hash } = win.location;
  return { pathname, search, hash, state: stored?.usr ?? null, key: stored?.key ?? 'default' };
}

export function createBrowserHistory(win: Window = window): History {
  let location = fromWindow(win);
  const subscribers = listeners();
  // The back and forward buttons, heard while someone listens (a router is mounted).
  const onPopState = () => {
    location = fromWindow(win);
    subscribers.call(location);
  };
  let listening = 0;
  const change = (to: string, state: unknown, replace: boolean) => {
    const key = newKey();
    const stored: StoredState = { usr: state ?? null, key };
    const href = createPath(parsePath(to));
    if (replace) {
      win.history.replaceState(stored, '', href);
    } else {
      try {
        win.history.pushState(stored, '', href);
      } catch {
        // Safari refuses more than 100 pushState calls in 30 s: load the page instead.
        win.location.assign(href);
        return;
      }
    }
    location = fromWindow(win);
    subscribers.call(location);
  };
  return {
    get location() {
      return location;
    },
    push: (to, state) => change(to, state, false),
    replace: (to, state) => change(to, state, true),
    go: (delta) => win.history.go(delta),
    listen(listener) {
      if (listening++ === 0) {
        win.addEventListener('popstate', onPopState);
        // Catches up with the address bar, keeping the same object when nothing changed.
        const now = fromWindow(win);
        if (createPath(now) !== createPath(location) || now.key !== location.key) location = now;
      }
      const remove = subscribers.add(listener);
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        remove();
        if (--listening === 0) win.removeEventListener('popstate', onPopState);
      };
    },
  };
}

export type InitialEntry = string | (Partial<Path> & { state?: unknown });

export function createMemoryHistory(initialEntries: InitialEntry[] = ['/'], initialIndex?: number): History {
  const entries = initialEntries.map((to, index) => entry(to, null, index === 0 ? 'default' : newKey()));
  let index = Math.min(Math.max(initialIndex ?? entries.length - 1, 0), entries.length - 1);
  const subscribers = listeners();
  const changed = () => subscribers.call(entries[index]!);
  return {
    get location() {
      return entries[index]!;
    },
    push(to, state) {
      entries.splice(index + 1, entries.length, entry(to, state, newKey()));
      index += 1;
      changed();
    },
    replace(to, state) {
      entries[index] = entry(to, state, newKey());
      changed();
    },
    go(delta) {
      const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (next === index) return;
      index = next;
      changed();
    },
    listen: subscribers.add,
  };
}

/** A location that never changes: navigations during a server drawing are ignored. */
export function createStaticHistory(at: InitialEntry): History {
  const location = entry(at, null, 'default');
  return {
    location,
    push: () => undefined,
    replace: () => undefined,
    go: () => undefined,
    listen: () => () => undefined,
  };
}
