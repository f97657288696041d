/**
 * Reading the objects fast-xml-parser makes of a package's manifests (attributes as `@name`,
 * text beside attributes as `#text`): one set of helpers for the SCORM, cmi5 and xAPI readers.
 */
export type Node = Record<string, unknown>;

export const obj = (v: unknown): Node => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : {});

export const list = (v: unknown): Node[] => (Array.isArray(v) ? v.map(obj) : v === undefined ? [] : [obj(v)]);

/** An element's text: a string, or `#text` beside its attributes. */
export function text(v: unknown): string | null {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return String(v);
  if (v && typeof v === 'object') return text((v as Node)['#text']);
  return null;
}

/** An attribute's value, trimmed; null when absent or blank. */
export const attr = (n: Node, name: string): string | null => {
  const v = n[`@${name}`];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
};
