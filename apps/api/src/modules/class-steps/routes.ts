/**
 * SPEC class steps (docs/product.md §3 ClassSteps: resourceId), issue 27: the ordered steps of a
 * class program, each naming the program course it stands for (`resourceId`), authored in
 * classes.yaml (`programs[].steps`, docs/content-format.md). Read by the class's members only,
 * like its class programs; a lesson names its step (`classStepProgramId`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/db';
import type { JsonApiQuery, Resource } from '../../plugins/jsonapi';
import { filterValue, jsonApiQuerySchema, offsetOf } from '../../plugins/jsonapi';
import { listRoute } from '../respond';
import type { Viewer } from '../scope';
import { countRows, visibleClassIds, withSort } from '../scope';
import { collectionOf } from '../../plugins/contract';
import { classStepResource } from '../../plugins/resources';

interface StepRow {
  id: string;
  classProgramId: string;
  resourceId: string;
  order: number;
}

async function listClassSteps(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: StepRow[]; total: number }> {
  let qb = db
    .selectFrom('classSteps as s')
    .innerJoin('classPrograms as cp', 'cp.id', 's.classProgramId')
    .where('cp.classId', 'in', visibleClassIds(db, v));
  if (q.filters.classProgramId) qb = qb.where('s.classProgramId', 'in', q.filters.classProgramId);
  if (q.filters.classId) qb = qb.where('cp.classId', 'in', q.filters.classId);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.select(['s.id', 's.classProgramId', 's.resourceId', 's.order']),
    q.sort,
    { order: 's.order' },
    [{ field: 'order', desc: false }],
    's.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

function toClassStepResource(row: StepRow): Resource {
  return {
    type: 'class-steps',
    id: row.id,
    attributes: { classProgramId: row.classProgramId, resourceId: row.resourceId, order: row.order },
    relationships: {
      classProgram: { data: { type: 'class-programs', id: row.classProgramId } },
      resource: { data: { type: 'program-courses', id: row.resourceId } },
    },
  };
}

export const classStepRoutes: FastifyPluginAsyncZod = async (app) => {
  listRoute(app, {
    path: '/class-steps',
    tag: 'classes',
    summary: "Steps of the programs of the user's classes, in order (each names its program course).",
    query: jsonApiQuerySchema({
      filters: { classProgramId: filterValue, classId: filterValue },
      sorts: ['order'],
      paginated: true,
    }),
    document: collectionOf(classStepResource),
    list: listClassSteps,
    toResource: toClassStepResource,
  });
};
