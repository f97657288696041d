/** A query key: an array of strings, numbers, booleans, plain objects and arrays (JSON-like). */
export type QueryKey = readonly unknown[];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The key's identity in the cache: its JSON with each object's keys sorted, so `{ a, b }` and
 * `{ b, a }` name the same entry (as TanStack Query's hashKey).
 */
export function hashKey(key: QueryKey): string {
  return JSON.stringify(key, (_, value: unknown) =>
    isPlainObject(value)
      ? Object.keys(value)
          .sort()
          .reduce<Record<string, unknown>>((sorted, name) => {
            sorted[name] = value[name];
            return sorted;
          }, {})
      : value,
  );
}

/**
 * Whether `filter` matches `key`: every element of the filter equals the key's at the same
 * place, objects compared by the filter's own properties. `['home']` matches every home key.
 */
export function partialMatchKey(key: unknown, filter: unknown): boolean {
  if (key === filter) return true;
  if (typeof key !== typeof filter || typeof key !== 'object' || key === null || filter === null)
    return false;
  const a = key as Record<string, unknown>;
  const b = filter as Record<string, unknown>;
  return Object.keys(b).every((name) => partialMatchKey(a[name], b[name]));
}

/**
 * `next`, with every part that deep-equals the same part of `previous` replaced by that part,
 * so a refetch that brings the same answer keeps the same objects: memoised views and effects
 * that depend on the data do not run again every 20 s (structural sharing).
 */
export function replaceEqualDeep<T>(previous: unknown, next: T): T {
  if (previous === next) return next;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const a = previous as Record<string, unknown>;
  const b = next as Record<string, unknown>;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  const copy: Record<string, unknown> = arrays ? (Array.from({ length: bKeys.length }) as never) : {};
  let equal = 0;
  for (const name of bKeys) {
    const value = replaceEqualDeep(a[name], b[name]);
    copy[name] = value;
    if (value === a[name] && (value !== undefined || name in a)) equal++;
  }
  return (aKeys.length === bKeys.length && equal === aKeys.length ? previous : copy) as T;
}
