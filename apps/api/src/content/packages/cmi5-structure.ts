/**
 * A cmi5 course structure read whole (issue 39 item 1; cmi5 spec §13, §14): the course, its
 * blocks and AUs in document order (the parser keeps the order, the AUs' place is their index),
 * with the refusals the spec asks of an LMS at import, each with a message an author can act on:
 * ids that are not IRIs (§3), an id used twice (§13.1.2–13.1.4), an AU URL that is not a URL or
 * whose query already holds a launch parameter (§8.1), a relative URL without a zip (§14.2) or
 * naming a file the zip lacks (§14.1).
 *
 * Absolute AU URLs are accepted (§13.1.4 allows them): the author who imports the course vouches
 * for them. They play outside the packages origin; what they get is the launch's one-time fetch
 * URL, whose token speaks for one learner's session only, and the LMS checks every statement
 * they send like any AU's (decision 0062).
 */
import { XMLParser } from 'fast-xml-parser';
import { PackageError } from './zip';

export const MOVE_ON = [
  'Passed',
  'Completed',
  'CompletedAndPassed',
  'CompletedOrPassed',
  'NotApplicable',
] as const;
export type MoveOn = (typeof MOVE_ON)[number];

/** One AU as the runtime needs it. */
export interface Cmi5Au {
  id: string;
  title: string;
  /** Relative to the package's root (with its query), or an absolute http(s) URL. */
  url: string;
  moveOn: MoveOn;
  masteryScore: number | null;
  launchMethod: 'AnyWindow' | 'OwnWindow';
  launchParameters: string | null;
  entitlementKey: string | null;
  activityType: string | null;
  /** The publisher ids of the blocks holding it, outermost first. */
  blocks: string[];
}

export interface Cmi5Block {
  id: string;
  title: string;
  /** The enclosing block's id, null at the course's level. */
  parent: string | null;
}

export interface Cmi5Structure {
  courseId: string;
  title: string;
  blocks: Cmi5Block[];
  aus: Cmi5Au[];
}

/** The query parameters the LMS adds at launch (§8.1): a URL that has one is refused. */
const LAUNCH_PARAMS = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'];

type Ordered = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  preserveOrder: true,
});

const tagOf = (n: Ordered) => Object.keys(n).find((k) => k !== ':@') ?? '';
const childrenOf = (n: Ordered) => (n[tagOf(n)] as Ordered[] | undefined) ?? [];
const attrOf = (n: Ordered, name: string): string | null => {
  const v = (n[':@'] as Record<string, unknown> | undefined)?.[`@${name}`];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
};
const child = (n: Ordered, tag: string) => childrenOf(n).find((c) => tagOf(c) === tag);
function textOf(n: Ordered | undefined): string | null {
  if (!n) return null;
  const parts = childrenOf(n)
    .map((c) => (typeof c['#text'] === 'string' || typeof c['#text'] === 'number' ? String(c['#text']) : ''))
    .join('')
    .trim();
  return parts || null;
}
const langstring = (n: Ordered | undefined) => (n ? (textOf(child(n, 'langstring')) ?? textOf(n)) : null);

/** An IRI (RFC 3987): a scheme, a colon, and no space or character an IRI may not hold. */
export const isIri = (s: string) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/.test(s);

const isAbsolute = (u: string) => /^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('//');

/** The AU's URL, checked (§13.1.4, §8.1): absolute http(s), or relative to the package. */
function checkUrl(url: string | null, auId: string, hasFiles: boolean, files: ReadonlyMap<string, number>) {
  if (!url) throw new PackageError(`cmi5.xml: AU "${auId}" has no <url>`);
  if (/\s/.test(url)) throw new PackageError(`cmi5.xml: the URL of AU "${auId}" holds a space: "${url}"`);
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://package.invalid/');
  } catch {
    throw new PackageError(`cmi5.xml: the URL of AU "${auId}" is not a URL: "${url}"`);
  }
  const clash = LAUNCH_PARAMS.find((p) => parsed.searchParams.has(p));
  if (clash)
    throw new PackageError(
      `cmi5.xml: the URL of AU "${auId}" already has "${clash}" in its query, a parameter the LMS adds at launch (cmi5 §8.1)`,
    );
  if (isAbsolute(url)) {
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw new PackageError(`cmi5.xml: AU "${auId}" launches "${url}": only http and https URLs play`);
    return url;
  }
  if (!hasFiles)
    throw new PackageError(
      `cmi5.xml: AU "${auId}" has the relative URL "${url}" but the course comes without a zip holding it (cmi5 §14.2)`,
    );
  if (url.startsWith('/'))
    throw new PackageError(
      `cmi5.xml: AU "${auId}" has the URL "${url}": a path from the root leaves the package`,
    );
  const path = url.replace(/^\.\//, '');
  let file = path.split(/[?#]/)[0] ?? '';
  try {
    file = decodeURIComponent(file);
  } catch {
    // Kept as written.
  }
  if (file.split('/').includes('..'))
    throw new PackageError(`a path escaping the package in the cmi5 launch "${url}"`);
  if (!files.has(file))
    throw new PackageError(`launch file missing: "${file}" (AU "${auId}") is not in the package`);
  return path;
}

const number = (s: string | null, what: string): number | null => {
  if (s === null) return null;
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new PackageError(`${what} "${s}" is not between 0 and 1`);
  return n;
};

/**
 * Reads cmi5.xml. `files`: the zip's files, or null for a course structure imported alone
 * (every AU URL then absolute).
 */
export function readCmi5Structure(xml: string, files: ReadonlyMap<string, number> | null): Cmi5Structure {
  let doc: Ordered[];
  try {
    doc = parser.parse(xml, true) as Ordered[];
  } catch (err) {
    throw new PackageError(`cmi5.xml is not well-formed XML (${(err as Error).message.split('\n')[0]})`);
  }
  const root = doc.find((n) => tagOf(n) === 'courseStructure');
  if (!root) throw new PackageError('cmi5.xml has no <courseStructure> element');
  const course = child(root, 'course');
  if (!course) throw new PackageError('cmi5.xml has no <course> element');
  const courseId = attrOf(course, 'id');
  if (!courseId) throw new PackageError('cmi5.xml: the course has no id');
  const ids = new Map<string, string>();
  const claim = (id: string | null, what: string) => {
    if (!id) throw new PackageError(`cmi5.xml: a ${what} has no id`);
    if (!isIri(id)) throw new PackageError(`cmi5.xml: the ${what} id "${id}" is not an IRI (cmi5 §3)`);
    const seen = ids.get(id);
    if (seen) throw new PackageError(`cmi5.xml: the id "${id}" is used twice (a ${seen} and a ${what})`);
    ids.set(id, what);
  };
  claim(courseId, 'course');
  for (const o of childrenOf(child(root, 'objectives') ?? { x: [] }).filter((c) => tagOf(c) === 'objective'))
    claim(attrOf(o, 'id'), 'objective');
  const hasFiles = files !== null;
  const blocks: Cmi5Block[] = [];
  const aus: Cmi5Au[] = [];
  const walk = (n: Ordered, path: string[]) => {
    for (const c of childrenOf(n)) {
      const tag = tagOf(c);
      if (tag === 'block') {
        const id = attrOf(c, 'id');
        claim(id, 'block');
        blocks.push({
          id: id as string,
          title: langstring(child(c, 'title')) ?? (id as string),
          parent: path.at(-1) ?? null,
        });
        for (const o of childrenOf(child(c, 'objectives') ?? { x: [] }))
          if (attrOf(o, 'idref') && !isIri(attrOf(o, 'idref') as string))
            throw new PackageError(`cmi5.xml: the objective reference "${attrOf(o, 'idref')}" is not an IRI`);
        walk(c, [...path, id as string]);
      } else if (tag === 'au') {
        const id = attrOf(c, 'id');
        claim(id, 'AU');
        const auId = id as string;
        for (const o of childrenOf(child(c, 'objectives') ?? { x: [] }))
          if (attrOf(o, 'idref') && !isIri(attrOf(o, 'idref') as string))
            throw new PackageError(`cmi5.xml: the objective reference "${attrOf(o, 'idref')}" is not an IRI`);
        const moveOn = attrOf(c, 'moveOn') ?? 'NotApplicable';
        if (!(MOVE_ON as readonly string[]).includes(moveOn))
          throw new PackageError(`cmi5.xml: unknown moveOn "${moveOn}" (${MOVE_ON.join(', ')})`);
        const launchMethod = attrOf(c, 'launchMethod') ?? 'AnyWindow';
        if (launchMethod !== 'AnyWindow' && launchMethod !== 'OwnWindow')
          throw new PackageError(`cmi5.xml: unknown launchMethod "${launchMethod}"`);
        aus.push({
          id: auId,
          title: langstring(child(c, 'title')) ?? auId,
          url: checkUrl(textOf(child(c, 'url')), auId, hasFiles, files ?? new Map()),
          moveOn: moveOn as MoveOn,
          masteryScore: number(attrOf(c, 'masteryScore'), 'masteryScore'),
          launchMethod,
          launchParameters: textOf(child(c, 'launchParameters')),
          entitlementKey: textOf(child(c, 'entitlementKey')),
          activityType: attrOf(c, 'activityType'),
          blocks: path,
        });
      }
    }
  };
  walk(root, []);
  if (!aus.length) throw new PackageError('cmi5.xml has no AU');
  return {
    courseId,
    title: langstring(child(course, 'title')) ?? aus[0]?.title ?? 'cmi5 course',
    blocks,
    aus,
  };
}
