import type { Kysely, Selectable } from 'kysely';
import { prepared } from '../../db/prepared';
import type {
  Database,
  ClassesTable,
  ClassProgramsTable,
  CoursesTable,
  ProgramCoursesTable,
  ProgramsTable,
} from '../../db/schema';
import { RowMap, loadMissing, perContentVersion } from '../../lib/versioned-cache';
import type { Viewer } from '../scope';

type Db = Kysely<Database>;
type ClassRow = Selectable<ClassesTable>;
type ClassProgramRow = Selectable<ClassProgramsTable>;
type ProgramRow = Selectable<ProgramsTable>;
type ProgramCourseRow = Selectable<ProgramCoursesTable>;
type CourseRow = Selectable<CoursesTable>;

export interface TeacherRow {
  classId: string;
  id: string;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  email: string;
  avatarId: string | null;
}

/**
 * The class tree of the home (classes, their programs, the programs' courses, the teachers)
 * changes only when content is imported, yet both home reads walk it on every call. Each API
 * process keeps its rows under the content stamp of migration 0014 (lib/home-versions.ts), read
 * once per request: a write anywhere — another process, the importer — moves the stamp, and
 * the next request starts a new tree (decision 0015; 0010 had a 30-s lifetime instead). What is
 * the viewer's own — memberships, lessons — is read on every request, and visibility (tenant,
 * membership, no drafts for learners) is applied to the cached rows on every request, exactly
 * as the SQL of `scope.ts` does.
 *
 * Rows by id (null: no such row), or lists by parent id, in the order the database gave them.
 */
class StructureCache {
  readonly classes = new RowMap<ClassRow | null>();
  readonly classPrograms = new RowMap<ClassProgramRow[]>();
  readonly teachers = new RowMap<TeacherRow[]>();
  readonly programs = new RowMap<ProgramRow | null>();
  readonly programCourses = new RowMap<ProgramCourseRow[]>();
  readonly courses = new RowMap<CourseRow | null>();
}

/**
 * The tree of the content version this request read. A request that read an older stamp than
 * the cache's gets a fresh tree of its own: whatever it loads is at least as new as its stamp.
 */
const cacheFor = perContentVersion(() => new StructureCache());

/** Cached values for `keys`, loading the missing ones in one query. */
async function cached<V>(
  db: Db,
  v: Viewer,
  mapOf: (cache: StructureCache) => RowMap<V>,
  keys: string[],
  load: (missing: string[]) => Promise<Map<string, V>>,
  empty: V,
): Promise<Map<string, V>> {
  return loadMissing(mapOf(await cacheFor(db, v)), keys, load, empty);
}

function byKey<R>(rows: R[], keyOf: (r: R) => string): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const list = out.get(keyOf(r));
    if (list) list.push(r);
    else out.set(keyOf(r), [r]);
  }
  return out;
}

const classRows = (db: Db, v: Viewer, ids: string[]) =>
  cached(
    db,
    v,
    (c) => c.classes,
    ids,
    async (missing) =>
      new Map(
        (await db.selectFrom('classes').selectAll().where('id', 'in', missing).execute()).map((r) => [
          r.id,
          r,
        ]),
      ),
    null,
  );

// Same ORDER BY as the SQL reads had, so each parent's list keeps the database's order.
const classProgramRows = (db: Db, v: Viewer, classIds: string[]) =>
  cached(
    db,
    v,
    (c) => c.classPrograms,
    classIds,
    async (missing) =>
      byKey(
        await db
          .selectFrom('classPrograms')
          .selectAll()
          .where('classId', 'in', missing)
          .orderBy('order')
          .orderBy('id')
          .execute(),
        (r) => r.classId,
      ),
    [],
  );

const teacherRows = (db: Db, v: Viewer, classIds: string[]) =>
  cached(
    db,
    v,
    (c) => c.teachers,
    classIds,
    async (missing) =>
      byKey(
        await db
          .selectFrom('classUsers as cu')
          .innerJoin('users as u', 'u.id', 'cu.userId')
          .select([
            'cu.classId',
            'u.id',
            'u.firstname',
            'u.lastname',
            'u.username',
            'u.email',
            'u.avatarId',
            'u.contextId',
          ])
          .where('cu.role', '=', 'TEACHER')
          .where('cu.classId', 'in', missing)
          .orderBy('u.lastname')
          .orderBy('u.id')
          .execute(),
        (r) => r.classId,
      ),
    [],
  );

const programRows = (db: Db, v: Viewer, ids: string[]) =>
  cached(
    db,
    v,
    (c) => c.programs,
    ids,
    async (missing) =>
      new Map(
        (await db.selectFrom('programs').selectAll().where('id', 'in', missing).execute()).map((r) => [
          r.id,
          r,
        ]),
      ),
    null,
  );

const programCourseRows = (db: Db, v: Viewer, programIds: string[]) =>
  cached(
    db,
    v,
    (c) => c.programCourses,
    programIds,
    async (missing) =>
      byKey(
        await db
          .selectFrom('programCourses')
          .selectAll()
          .where('programId', 'in', missing)
          .orderBy('order')
          .orderBy('id')
          .execute(),
        (r) => r.programId,
      ),
    [],
  );

const courseRows = (db: Db, v: Viewer, ids: string[]) =>
  cached(
    db,
    v,
    (c) => c.courses,
    ids,
    async (missing) =>
      new Map(
        (await db.selectFrom('courses').selectAll().where('id', 'in', missing).execute()).map((r) => [
          r.id,
          r,
        ]),
      ),
    null,
  );

// ---------------------------------------------------------------------------------------------
// The viewer's own rows: read on every request, once per request (memoised on the Viewer).

/** A membership of the viewer, with its class's expiry (the `filter[expired]` of class-users). */
export interface MembershipRow {
  id: string;
  classId: string;
  userId: string;
  role: string;
  createdAt: string;
  classExpireAt: string | null;
}

const myMemberships = prepared((db: Db, userId: string, contextId: string) =>
  db
    .selectFrom('classUsers as cu')
    .innerJoin('classes as c', 'c.id', 'cu.classId')
    .select(['cu.id', 'cu.classId', 'cu.userId', 'cu.role', 'cu.createdAt', 'c.expireAt as classExpireAt'])
    .where('cu.userId', '=', userId)
    .where('c.contextId', '=', contextId),
);
const myLessonCourseIds = prepared((db: Db, userId: string, contextId: string) =>
  db.selectFrom('lessons').select('courseId').where('userId', '=', userId).where('contextId', '=', contextId),
);

interface Memo {
  memberships?: Promise<MembershipRow[]>;
  classIds?: Promise<Set<string>>;
  lessonCourseIds?: Promise<Set<string>>;
  programIds?: Promise<Set<string> | null>;
}
const perRequest = new WeakMap<Viewer, Memo>();
function memoOf(v: Viewer): Memo {
  let memo = perRequest.get(v);
  if (!memo) perRequest.set(v, (memo = {}));
  return memo;
}

/** Every class membership of the viewer in the tenant, any role: one query per request. */
export function viewerMemberships(db: Db, v: Viewer): Promise<MembershipRow[]> {
  const memo = memoOf(v);
  memo.memberships ??= myMemberships.all(db, v.userId, v.contextId);
  return memo.memberships;
}

/** The classes the viewer belongs to, any role (`visibleClassIds` for everyone but administrators). */
function memberClassIds(db: Db, v: Viewer): Promise<Set<string>> {
  const memo = memoOf(v);
  memo.classIds ??= viewerMemberships(db, v).then((rows) => new Set(rows.map((r) => r.classId)));
  return memo.classIds;
}

function lessonCourseIds(db: Db, v: Viewer): Promise<Set<string>> {
  const memo = memoOf(v);
  memo.lessonCourseIds ??= myLessonCourseIds
    .all(db, v.userId, v.contextId)
    .then((rows) => new Set(rows.map((r) => r.courseId)));
  return memo.lessonCourseIds;
}

// ---------------------------------------------------------------------------------------------
// Visibility, as scope.ts says it in SQL: administrators see the whole tenant, drafts included;
// everyone else the classes they belong to and the published programs and courses of those.

async function visibleClasses(db: Db, v: Viewer, ids: string[]): Promise<ClassRow[]> {
  const rows = await classRows(db, v, ids);
  const mine = v.isAdmin ? null : await memberClassIds(db, v);
  return [...rows.values()].filter(
    (c): c is ClassRow => c !== null && c.contextId === v.contextId && (mine === null || mine.has(c.id)),
  );
}

/** Ids of the programs the viewer may see (null: any program of the tenant, for administrators). */
function visibleProgramIdSet(db: Db, v: Viewer): Promise<Set<string> | null> {
  const memo = memoOf(v);
  memo.programIds ??= loadVisibleProgramIds(db, v);
  return memo.programIds;
}

async function loadVisibleProgramIds(db: Db, v: Viewer): Promise<Set<string> | null> {
  if (v.isAdmin) return null;
  const classIds = [...(await memberClassIds(db, v))];
  const cps = await classProgramRows(db, v, classIds);
  const programIds = [...cps.values()].flat().map((cp) => cp.programId);
  const programs = await programRows(db, v, programIds);
  return new Set(
    [...programs.values()]
      .filter((p): p is ProgramRow => p !== null && p.contextId === v.contextId && p.state !== 'DRAFT')
      .map((p) => p.id),
  );
}

function programVisible(
  p: ProgramRow | null | undefined,
  v: Viewer,
  visible: Set<string> | null,
): p is ProgramRow {
  return !!p && p.contextId === v.contextId && (visible === null || visible.has(p.id));
}

/** The viewer may see these courses: through a visible program, or through their own lessons. */
async function visibleCourses(db: Db, v: Viewer, ids: string[]): Promise<CourseRow[]> {
  const rows = [...(await courseRows(db, v, ids)).values()].filter(
    (c): c is CourseRow => c !== null && c.contextId === v.contextId,
  );
  if (v.isAdmin) return rows;
  const published = rows.filter((c) => c.state !== 'DRAFT');
  if (published.length === 0) return [];
  const programs = await visibleProgramIdSet(db, v);
  const pcs = await programCourseRows(db, v, [...(programs ?? [])]);
  const reachable = new Set([...pcs.values()].flat().map((pc) => pc.courseId));
  if (published.every((c) => reachable.has(c.id))) return published;
  const own = await lessonCourseIds(db, v);
  return published.filter((c) => reachable.has(c.id) || own.has(c.id));
}

// ---------------------------------------------------------------------------------------------
// The include loaders of modules/relations.ts (and the repositories' *ByIds reads).

export async function cachedClassesByIds(db: Db, v: Viewer, ids: string[]): Promise<ClassRow[]> {
  return ids.length === 0 ? [] : visibleClasses(db, v, ids);
}

/** Class programs of visible classes whose program the viewer may see, each class's in order. */
export async function cachedClassProgramsByClassIds(
  db: Db,
  v: Viewer,
  classIds: string[],
): Promise<ClassProgramRow[]> {
  if (classIds.length === 0) return [];
  const classes = await visibleClasses(db, v, classIds);
  const cps = await classProgramRows(
    db,
    v,
    classes.map((c) => c.id),
  );
  const all = [...cps.values()].flat();
  const [programs, visible] = await Promise.all([
    programRows(
      db,
      v,
      all.map((cp) => cp.programId),
    ),
    visibleProgramIdSet(db, v),
  ]);
  return all.filter((cp) => programVisible(programs.get(cp.programId), v, visible));
}

export async function cachedTeachersByClassIds(db: Db, v: Viewer, classIds: string[]): Promise<TeacherRow[]> {
  if (classIds.length === 0) return [];
  const classes = await visibleClasses(db, v, classIds);
  const teachers = await teacherRows(
    db,
    v,
    classes.map((c) => c.id),
  );
  return [...teachers.values()].flat().flatMap((t) => {
    const { contextId, ...row } = t as TeacherRow & { contextId: string };
    return contextId === v.contextId ? [row] : [];
  });
}

export async function cachedProgramsByIds(db: Db, v: Viewer, ids: string[]): Promise<ProgramRow[]> {
  if (ids.length === 0) return [];
  const [programs, visible] = await Promise.all([programRows(db, v, ids), visibleProgramIdSet(db, v)]);
  return [...programs.values()].filter((p): p is ProgramRow => programVisible(p, v, visible));
}

/** Program courses of visible programs whose course the viewer may see, each program's in order. */
export async function cachedProgramCoursesByProgramIds(
  db: Db,
  v: Viewer,
  programIds: string[],
): Promise<ProgramCourseRow[]> {
  if (programIds.length === 0) return [];
  const programs = await cachedProgramsByIds(db, v, programIds);
  const pcs = [
    ...(
      await programCourseRows(
        db,
        v,
        programs.map((p) => p.id),
      )
    ).values(),
  ].flat();
  const courses = new Set(
    (
      await visibleCourses(
        db,
        v,
        pcs.map((pc) => pc.courseId),
      )
    ).map((c) => c.id),
  );
  return pcs.filter((pc) => courses.has(pc.courseId));
}

export async function cachedCoursesByIds(db: Db, v: Viewer, ids: string[]): Promise<CourseRow[]> {
  return ids.length === 0 ? [] : visibleCourses(db, v, ids);
}
