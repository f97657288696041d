import type { Db } from '../db/db';
import type { Viewer } from '../modules/scope';
import { homeVersionsOf } from './home-versions';

/**
 * Caches of content rows, kept per database handle under the content stamp of migration 0014
 * (decision 0015): a request reads the stamp once (lib/home-versions.ts), and a stamp other
 * than the cache's starts a new cache. Whatever a request loads is at least as new as the
 * stamp it read, so a cache never holds rows older than its stamp, in any process.
 */
export function perContentVersion<T>(create: () => T): (db: Db, v: Viewer) => Promise<T> {
  const caches = new WeakMap<Db, { version: string; value: T }>();
  return async (db, v) => {
    const { content } = await homeVersionsOf(db, v);
    let cache = caches.get(db);
    if (cache?.version !== content) caches.set(db, (cache = { version: content, value: create() }));
    return cache.value;
  };
}

/** Rows by key; bounded, so a long-running process cannot grow it without limit. */
export class RowMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries = 20_000) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
  }
}

/** The values of `keys`, loading the missing ones in one call (`empty` for keys it did not return). */
export async function loadMissing<V>(
  map: RowMap<V>,
  keys: Iterable<string>,
  load: (missing: string[]) => Promise<Map<string, V>>,
  empty: V,
): Promise<Map<string, V>> {
  const out = new Map<string, V>();
  const missing: string[] = [];
  for (const key of new Set(keys)) {
    const hit = map.get(key);
    if (hit === undefined) missing.push(key);
    else out.set(key, hit);
  }
  if (missing.length > 0) {
    const loaded = await load(missing);
    for (const key of missing) {
      const value = loaded.get(key) ?? empty;
      map.set(key, value);
      out.set(key, value);
    }
  }
  return out;
}
