import type { Db } from '../db/db';
import { homeVersionRows } from '../db/prepared-home';
import type { Viewer } from '../modules/scope';

/**
 * Version stamps of what the home's reads show (migration 0014, decision 0015), kept by
 * triggers on every table those reads show, so every writer — in this process or another, the
 * importer included — moves them in the transaction of its write. A cache built under a stamp
 * is good exactly as long as the stamp read from the database is the same: that holds across
 * any number of API processes, with nothing to forget when a new writer is added.
 */
export interface HomeVersions {
  /** The viewer's own rows: lessons, the progress of their pages, memberships. */
  user: string;
  /** Content of every tenant: courses, nodes, programs, classes, memberships, teachers' names. */
  content: string;
}

/** One read per request: memoised on the request's Viewer object (scope.ts makes one each). */
const perRequest = new WeakMap<Viewer, Promise<HomeVersions>>();

export function homeVersionsOf(db: Db, v: Viewer): Promise<HomeVersions> {
  let versions = perRequest.get(v);
  if (!versions) {
    const userKey = `u:${v.userId}`;
    versions = homeVersionRows.all(db, userKey).then((rows) => {
      const out: HomeVersions = { user: '0', content: '0' };
      // bigint: a string on PostgreSQL, a number on SQLite; compared as text.
      for (const r of rows) out[r.key === userKey ? 'user' : 'content'] = String(r.version);
      return out;
    });
    perRequest.set(v, versions);
  }
  return versions;
}

/**
 * The stamps already read in the viewer's statement (`requireHomeUser`, decision 0025): the
 * request's other reads use them instead of reading them again. Read before anything the request
 * loads, they keep the rule above (what it loads is at least as new as the stamp).
 */
export function knowHomeVersions(v: Viewer, versions: HomeVersions): void {
  if (!perRequest.has(v)) perRequest.set(v, Promise.resolve(versions));
}
