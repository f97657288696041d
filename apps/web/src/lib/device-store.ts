/**
 * The device's own store (IndexedDB database `parcours-offline`, store `kv`, through idb-keyval):
 * the offline lessons, the answer queue (decisions 0013, 0020) and the home's last reads kept for
 * an offline cold start. One store, so sign-out clears it all at once (session.ts deletes the
 * database when no feature registered its own clearing). Without IndexedDB (private modes of old
 * browsers, jsdom) the tab's memory stands in.
 */
import { clear, createStore, del, delMany, get, keys, set, type UseStore } from 'idb-keyval';

export const DEVICE_DB = 'parcours-offline';

/** A key-value store: IndexedDB in the app, a map in tests. */
export interface KeyValue {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  keys(): Promise<string[]>;
}

export function memoryKeyValue(): KeyValue {
  const map = new Map<string, unknown>();
  return {
    get: async <T>(key: string) => map.get(key) as T | undefined,
    set: async (key, value) => void map.set(key, structuredClone(value)),
    del: async (key) => void map.delete(key),
    keys: async () => [...map.keys()],
  };
}

let idb: UseStore | null = null;
const store = (): UseStore => (idb ??= createStore(DEVICE_DB, 'kv'));

export const deviceStore: KeyValue =
  typeof indexedDB === 'undefined'
    ? memoryKeyValue()
    : {
        get: (key) => get(key, store()),
        set: (key, value) => set(key, value, store()),
        del: (key) => del(key, store()),
        keys: async () => (await keys(store())).map(String),
      };

/**
 * The answer queues, one per learner (`queue:<userId>`; `queue` before decision 0045): what a
 * session that ends by itself leaves on the device, for that learner's next sign-in.
 */
export const isAnswerQueueKey = (key: string): boolean => key === 'queue' || key.startsWith('queue:');

/**
 * Everything the device keeps, whoever wrote it, except the keys `keep` names: in one
 * transaction (a key deleted per transaction left the last learner's lesson on the device for a
 * moment after the home's copies had gone).
 */
export async function clearDeviceStore(keep?: (key: string) => boolean): Promise<void> {
  if (typeof indexedDB === 'undefined') {
    for (const key of await deviceStore.keys()) if (!keep?.(key)) await deviceStore.del(key);
  } else if (!keep) await clear(store());
  else
    await delMany(
      (await deviceStore.keys()).filter((key) => !keep(key)),
      store(),
    );
}

// Where it was first defined; the home needs it before this module (issue 11), so it lives there.
export { isNetworkError } from './api-errors';
