import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ClassesTable, ClassProgramsTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, visibleClassIds, visibleProgramIds, withSort } from '../scope';

export type ClassRow = Selectable<ClassesTable>;
export type ClassProgramRow = Selectable<ClassProgramsTable>;

function base(db: Db, v: Viewer) {
  return db
    .selectFrom('classes as c')
    .where('c.contextId', '=', v.contextId)
    .where('c.id', 'in', visibleClassIds(db, v));
}

export async function listClasses(db: Db, v: Viewer, q: JsonApiQuery): Promise<{ rows: ClassRow[]; total: number }> {
  let qb = base(db, v);
  if (q.filters.id) qb = qb.where('c.id', 'in', q.filters.id);
  const total = await countRows(qb);
  const rows = await withSort(qb.selectAll('c'), q.sort, { startAt: 'c.startAt', name: 'c.name' }, [{ field: 'startAt', desc: false }], 'c.id')
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

export async function findClass(db: Db, v: Viewer, id: string): Promise<ClassRow | undefined> {
  return base(db, v).selectAll('c').where('c.id', '=', id).executeTakeFirst();
}

export async function classesByIds(db: Db, v: Viewer, ids: string[]): Promise<ClassRow[]> {
  if (ids.length === 0) return [];
  return base(db, v).selectAll('c').where('c.id', 'in', ids).execute();
}

/** Class programs of visible classes whose program the viewer may see, in class order. */
export async function classProgramsByClassIds(db: Db, v: Viewer, classIds: string[]): Promise<ClassProgramRow[]> {
  if (classIds.length === 0) return [];
  return db
    .selectFrom('classPrograms as cp')
    .selectAll('cp')
    .where('cp.classId', 'in', classIds)
    .where('cp.classId', 'in', visibleClassIds(db, v))
    .where('cp.programId', 'in', visibleProgramIds(db, v))
    .orderBy('cp.order')
    .orderBy('cp.id')
    .execute();
}

export interface TeacherRow {
  classId: string;
  id: string;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  email: string;
  avatarId: string | null;
}

export async function teachersByClassIds(db: Db, v: Viewer, classIds: string[]): Promise<TeacherRow[]> {
  if (classIds.length === 0) return [];
  return db
    .selectFrom('classUsers as cu')
    .innerJoin('users as u', 'u.id', 'cu.userId')
    .select(['cu.classId', 'u.id', 'u.firstname', 'u.lastname', 'u.username', 'u.email', 'u.avatarId'])
    .where('cu.role', '=', 'TEACHER')
    .where('cu.classId', 'in', classIds)
    .where('cu.classId', 'in', visibleClassIds(db, v))
    .where('u.contextId', '=', v.contextId)
    .orderBy('u.lastname')
    .orderBy('u.id')
    .execute();
}
