/**
 * Path patterns of the route table, matched the way React Router 7 matches them (decision 0032):
 * `:name` segments, a trailing `*`, case-insensitive by default, an optional trailing slash.
 * Pure functions: table-driven tests in match.test.ts.
 */

export interface PathPattern {
  path: string;
  /** Whether the pattern must match the whole pathname (default) or only its beginning. */
  end?: boolean;
  caseSensitive?: boolean;
}

export interface PathMatch {
  /** Each `:name` segment's value, and `*` for what a trailing star matched. */
  params: Record<string, string>;
  /** The part of the pathname the pattern matched. */
  pathname: string;
}

export interface Path {
  pathname: string;
  search: string;
  hash: string;
}

interface Compiled {
  matcher: RegExp;
  names: string[];
}

const compiled = new Map<string, Compiled>();

function compile(path: string, caseSensitive: boolean, end: boolean): Compiled {
  const cacheKey = `${caseSensitive ? 1 : 0}${end ? 1 : 0}${path}`;
  const known = compiled.get(cacheKey);
  if (known) return known;
  const names: string[] = [];
  let source =
    '^' +
    path
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)/g, (_, name: string) => {
        names.push(name);
        return '/([^\\/]+)';
      });
  if (path.endsWith('*')) {
    names.push('*');
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else if (end) {
    source += '\\/*$';
  } else if (source !== '^' && source !== '^/') {
    // Matches at a segment boundary only: "/session" does not match "/sessions".
    source += '(?:(?=\\/|$))';
  }
  const result = { matcher: new RegExp(source, caseSensitive ? undefined : 'i'), names };
  compiled.set(cacheKey, result);
  return result;
}

/** The match of `pattern` against `pathname` (already decoded by the caller if it wants), or null. */
export function matchPath(pattern: PathPattern | string, pathname: string): PathMatch | null {
  const {
    path,
    caseSensitive = false,
    end = true,
  } = typeof pattern === 'string' ? { path: pattern } : pattern;
  const { matcher, names } = compile(path, caseSensitive, end);
  const match = pathname.match(matcher);
  if (!match) return null;
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    // An encoded slash inside a segment stays part of that segment's value.
    params[name] = (match[index + 1] ?? '').replace(/%2F/g, '/');
  });
  return { params, pathname: match[0] };
}

/**
 * A pathname with each segment percent-decoded, an encoded slash kept encoded so that it does not
 * split a segment; a malformed segment is left as it came.
 */
export function decodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, '%2F');
      } catch {
        return segment;
      }
    })
    .join('/');
}

/**
 * How specific a route path is, React Router's ranking: more segments first, a static segment
 * over a `:param`, a trailing `*` last. Among equals, the earlier route wins (a stable sort).
 */
export function rankPath(path: string): number {
  const segments = path.split('/');
  let score = segments.length;
  if (segments.includes('*')) score -= 2;
  for (const segment of segments) {
    if (segment === '*') continue;
    if (segment.startsWith(':')) score += 3;
    else if (segment === '') score += 1;
    else score += 10;
  }
  return score;
}

/** `/a?b=1#c` as its parts; a missing part is ''. */
export function parsePath(to: string): Path {
  const hashAt = to.indexOf('#');
  const hash = hashAt >= 0 ? to.slice(hashAt) : '';
  const rest = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const searchAt = rest.indexOf('?');
  return {
    pathname: searchAt >= 0 ? rest.slice(0, searchAt) : rest,
    search: searchAt >= 0 && searchAt < rest.length - 1 ? rest.slice(searchAt) : '',
    hash: hash === '#' ? '' : hash,
  };
}

export function createPath({ pathname, search, hash }: Path): string {
  return pathname + search + hash;
}

/**
 * Where `to` leads from `fromPathname`: an absolute path as it is; a relative one ("?page=2",
 * "next", "../x") resolved like a URL, so a lone search or hash keeps the current pathname.
 */
export function resolvePath(to: string, fromPathname: string): Path {
  if (to.startsWith('/')) return parsePath(to);
  const parsed = parsePath(to);
  if (parsed.pathname === '') return { ...parsed, pathname: fromPathname };
  const url = new URL(
    parsed.pathname,
    `http://router${fromPathname.endsWith('/') ? fromPathname : `${fromPathname}/`}`,
  );
  return { ...parsed, pathname: url.pathname };
}

/** Whether `to` leaves the app (another scheme or host): a plain link, not a navigation. */
export function isExternal(to: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(to);
}
