import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ClassUsersTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import { viewerMemberships } from '../classes/structure';
import type { MembershipRow } from '../classes/structure';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';

// The time accommodation columns (decision 0019) are the teacher's business, not the class list's.
export type ClassUserRow = Omit<Selectable<ClassUsersTable>, 'timeFactor' | 'noTimeLimit'>;

/** `userIds` were checked by the service (oneself, or anyone for administrators). */
export async function listClassUsers(
  db: Db,
  v: Viewer,
  userIds: string[],
  q: JsonApiQuery,
): Promise<{ rows: ClassUserRow[]; total: number }> {
  if (userIds.length === 1 && userIds[0] === v.userId) return ownClassUsers(db, v, q);
  let qb = db
    .selectFrom('classUsers as cu')
    .innerJoin('classes as c', 'c.id', 'cu.classId')
    .where('c.contextId', '=', v.contextId)
    .where('cu.userId', 'in', userIds);
  if (q.filters.classId) qb = qb.where('cu.classId', 'in', q.filters.classId);
  if (q.filters.role) qb = qb.where('cu.role', 'in', q.filters.role);
  const expired = q.filters.expired?.[0];
  if (expired === 'true') {
    qb = qb.where('c.expireAt', 'is not', null).where('c.expireAt', '<', v.now);
  } else if (expired === 'false') {
    qb = qb.where((eb) => eb.or([eb('c.expireAt', 'is', null), eb('c.expireAt', '>=', v.now)]));
  }
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('cu'),
    q.sort,
    { createdAt: 'cu.createdAt' },
    [{ field: 'createdAt', desc: false }],
    'cu.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/**
 * The viewer's own memberships (the home's read): a learner has a few dozen at most, all read in
 * the one query the include loaders share (classes/structure.ts `viewerMemberships`), then
 * filtered, sorted and paged here with the same rules as the SQL above: `expired` against the
 * request's clock, nulls last, then by id.
 */
async function ownClassUsers(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: ClassUserRow[]; total: number }> {
  const f = q.filters;
  const expired = f.expired?.[0];
  const classIds = f.classId ? new Set(f.classId) : null;
  const roles = f.role ? new Set(f.role) : null;
  const kept = (await viewerMemberships(db, v)).filter(
    (m) =>
      (!classIds || classIds.has(m.classId)) &&
      (!roles || roles.has(m.role)) &&
      (expired === 'true' ? m.classExpireAt !== null && m.classExpireAt < v.now : true) &&
      (expired === 'false' ? m.classExpireAt === null || m.classExpireAt >= v.now : true),
  );
  const sort = (q.sort.length ? q.sort : [{ field: 'createdAt', desc: false }]).filter(
    (s) => s.field === 'createdAt',
  );
  const compare = (a: MembershipRow, b: MembershipRow): number => {
    for (const s of sort) {
      if (a.createdAt !== b.createdAt) return (a.createdAt < b.createdAt ? -1 : 1) * (s.desc ? -1 : 1);
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const offset = offsetOf(q.page);
  const rows = [...kept]
    .sort(compare)
    .slice(offset, offset + q.page.size)
    .map(({ id, classId, userId, role, createdAt }) => ({ id, classId, userId, role, createdAt }));
  return { rows, total: kept.length };
}

/**
 * `filter[expired]` compares each class's expiry with the request's clock: the viewer's
 * memberships read the same until the first of those expiries still to come (decision 0015).
 * An expiry that is not a plain instant is compared as text by the SQL above: no caching then.
 */
export async function membershipsValidUntil(db: Db, v: Viewer, now: number): Promise<number> {
  let next = Infinity;
  for (const m of await viewerMemberships(db, v)) {
    if (m.classExpireAt === null) continue;
    const at = Date.parse(m.classExpireAt);
    if (!Number.isFinite(at) || new Date(at).toISOString() !== m.classExpireAt) return now;
    if (at > now && at < next) next = at;
  }
  return next;
}
