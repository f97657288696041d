type Listener = (value: boolean) => void;

/**
 * A boolean kept from the browser's events, whose listeners are added on the first subscription:
 * nothing runs at import (the server's drawing of /login has no window).
 */
function browserFlag(initial: () => boolean, listen: (set: (value: boolean) => void) => void) {
  const listeners = new Set<Listener>();
  let value: boolean | null = null;
  let listening = false;
  const set = (next: boolean) => {
    const changed = value !== next;
    value = next;
    if (changed) for (const listener of [...listeners]) listener(next);
  };
  return {
    get: (): boolean => value ?? initial(),
    set,
    subscribe(listener: Listener): () => void {
      if (!listening && typeof window !== 'undefined') {
        listening = true;
        value ??= initial();
        listen(set);
      }
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * Whether the browser is online, as its last `online` or `offline` event said (online until one
 * says otherwise, as TanStack Query 5: navigator.onLine is false in some embedded views that do
 * reach the network). A query in the default network mode waits for `online` before it asks.
 */
const online = browserFlag(
  () => true,
  (set) => {
    window.addEventListener('online', () => set(true));
    window.addEventListener('offline', () => set(false));
  },
);
export const onlineManager = {
  isOnline: online.get,
  setOnline: online.set,
  subscribe: online.subscribe,
};

/** Whether the page is visible: intervals pause while it is hidden (SPEC §9: "only while visible"). */
const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';
export const focusManager = browserFlag(visible, (set) => {
  document.addEventListener('visibilitychange', () => set(visible()));
});
