import { sql } from 'kysely';
import type { SelectQueryBuilder } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/db';
import { currentUser } from '../plugins/auth';
import { ApiError } from '../plugins/errors';
import type { SortField } from '../plugins/jsonapi';

/**
 * Who is asking, within which tenant: every repository query is narrowed by it (docs/api.md
 * "Visibility"). Administrators (system roles) see the whole tenant, drafts included; everyone
 * else sees the classes they belong to and the published programs and courses of those classes.
 */
export interface Viewer {
  contextId: string;
  userId: string;
  isAdmin: boolean;
  now: string;
}

export interface Scope {
  db: Db;
  viewer: Viewer;
}

export function scopeOf(db: Db, request: FastifyRequest): Scope {
  const user = currentUser(request);
  return {
    db,
    viewer: {
      contextId: request.context.id,
      userId: user.id,
      isAdmin: user.isAdmin,
      now: new Date().toISOString(),
    },
  };
}

/** Ids of the classes the viewer belongs to (any class role), as a subquery. */
export function visibleClassIds(db: Db, v: Viewer) {
  if (v.isAdmin) {
    return db.selectFrom('classes as vc').select('vc.id').where('vc.contextId', '=', v.contextId);
  }
  return db
    .selectFrom('classUsers as vcu')
    .innerJoin('classes as vc', 'vc.id', 'vcu.classId')
    .select('vc.id')
    .where('vcu.userId', '=', v.userId)
    .where('vc.contextId', '=', v.contextId);
}

/** Programs reachable through the viewer's classes; drafts only for administrators. */
export function visibleProgramIds(db: Db, v: Viewer) {
  let q = db.selectFrom('programs as vp').select('vp.id').where('vp.contextId', '=', v.contextId);
  if (!v.isAdmin) {
    q = q
      .where('vp.state', '!=', 'DRAFT')
      .where(
        'vp.id',
        'in',
        db
          .selectFrom('classPrograms as vcp')
          .select('vcp.programId')
          .where('vcp.classId', 'in', visibleClassIds(db, v)),
      );
  }
  return q;
}

/** Courses of the viewer's programs or of their own lessons; drafts only for administrators. */
export function visibleCourseIds(db: Db, v: Viewer) {
  let q = db.selectFrom('courses as vco').select('vco.id').where('vco.contextId', '=', v.contextId);
  if (!v.isAdmin) {
    q = q
      .where('vco.state', '!=', 'DRAFT')
      .where((eb) =>
        eb.or([
          eb(
            'vco.id',
            'in',
            db
              .selectFrom('programCourses as vpc')
              .select('vpc.courseId')
              .where('vpc.programId', 'in', visibleProgramIds(db, v)),
          ),
          eb(
            'vco.id',
            'in',
            db
              .selectFrom('lessons as vl')
              .select('vl.courseId')
              .where('vl.userId', '=', v.userId)
              .where('vl.contextId', '=', v.contextId),
          ),
        ]),
      );
  }
  return q;
}

/**
 * A `filter[userId]` other than oneself is for administrators only (403 `Forbidden`); without
 * one, a collection of personal records means "mine".
 */
export function ownUserIds(v: Viewer, requested: string[] | undefined): string[] {
  if (!requested || requested.length === 0) return [v.userId];
  if (!v.isAdmin && requested.some((id) => id !== v.userId)) {
    throw new ApiError(403, 'Forbidden', 'You may only read your own records.', {
      parameter: 'filter[userId]',
    });
  }
  return requested;
}

/**
 * Sorts by allowed fields (the query schema already refused others), nulls last on both
 * engines (they disagree by default), then by id so pages are stable.
 */
export function withSort<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  sort: SortField[],
  columns: Record<string, string>,
  fallback: SortField[],
  idColumn: string,
): SelectQueryBuilder<DB, TB, O> {
  let out = qb;
  for (const s of sort.length ? sort : fallback) {
    const column = columns[s.field];
    if (!column) continue;
    out = out.orderBy(sql.ref(column), (ob) => (s.desc ? ob.desc() : ob.asc()).nullsLast());
  }
  return out.orderBy(sql.ref(idColumn));
}

export async function countRows<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = await qb
    .clearSelect()
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  // PostgreSQL returns count(*) as a string (bigint).
  return Number((row as { n?: string | number } | undefined)?.n ?? 0);
}

export function notFound(what: string): ApiError {
  return new ApiError(404, 'MODEL_NOT_FOUND', `${what} not found.`);
}

/** Map.groupBy is not in Node 20. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}
