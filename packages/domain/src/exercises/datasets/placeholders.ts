/**
 * `{{name}}` in a parametrised block's statement and rows stands for the learner's value of
 * `name` (docs/product.md §3 `sheet.datasetComputed`). Pure and light: the web app fills the placeholders,
 * the importer checks that each one names a value.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The names the text refers to, in order of first appearance. */
export function placeholderNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1]!);
  return [...names];
}

/**
 * The text with each known placeholder replaced by its formatted value; an unknown one is left
 * as written (a page kept offline before its values were drawn shows `{{prix}}`, not a wrong number).
 */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, number>>,
  format: (n: number) => string,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = values[name];
    return typeof v === 'number' ? format(v) : whole;
  });
}

/** Every string inside a JSON-like value, placeholders filled (objects and arrays copied, others kept). */
export function fillDeep<T>(
  value: T,
  values: Readonly<Record<string, number>>,
  format: (n: number) => string,
): T {
  if (typeof value === 'string') return fillPlaceholders(value, values, format) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => fillDeep(v, values, format)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fillDeep(v, values, format);
    return out as T;
  }
  return value;
}

/** Every placeholder name found in any string inside a JSON-like value. */
export function placeholderNamesDeep(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') for (const n of placeholderNames(value)) into.add(n);
  else if (Array.isArray(value)) for (const v of value) placeholderNamesDeep(v, into);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) placeholderNamesDeep(v, into);
  return into;
}
