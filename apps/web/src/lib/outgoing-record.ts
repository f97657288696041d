/**
 * What a record sends to the API (docs/product.md §5 "Outgoing records"): fields whose name starts
 * with `_` (the app's own marks, e.g. `_id` or a draft flag) and fields the call does not track are
 * dropped; an update sends only what changed since `before`, unless `replace` asks for the whole
 * record (a full replacement: every tracked field, changed or not).
 */
export interface OutgoingOptions<K extends string> {
  /** The fields this call sends; any other is dropped. */
  tracked: readonly K[];
  /** The record as the server has it: only fields that differ from it are sent. */
  before?: Partial<Record<K, unknown>> | undefined;
  /** Send every tracked field, changed or not. */
  replace?: boolean;
}

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  // Dates, arrays and plain objects: the same JSON is the same value for the API.
  return typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b);
}

export function outgoingRecord<K extends string>(
  record: Readonly<Record<string, unknown>>,
  { tracked, before, replace = false }: OutgoingOptions<K>,
): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const field of tracked) {
    if (field.startsWith('_') || !Object.hasOwn(record, field)) continue;
    const value = record[field];
    if (value === undefined) continue;
    if (!replace && before && Object.hasOwn(before, field) && same(value, before[field])) continue;
    out[field] = value;
  }
  return out;
}
