import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db, DbKind } from '../../db/db';
import type { CourseBlocksTable, LessonPagesTable, LessonsTable } from '../../db/schema';
import type { PlanNode } from './plan';
import type { Tx } from './tx';

export type LessonRow = Selectable<LessonsTable>;
export type PageRow = Selectable<LessonPagesTable>;
export type BlockRow = Pick<Selectable<CourseBlocksTable>, 'id' | 'title' | 'type' | 'attachmentIds' | 'settings' | 'content'>;

/** Only the owner's lessons: the player is personal, administrators included (docs/api.md). */
export async function findOwnLesson(db: Db | Tx, contextId: string, userId: string, lessonId: string): Promise<LessonRow | undefined> {
  return db
    .selectFrom('lessons')
    .selectAll()
    .where('id', '=', lessonId)
    .where('contextId', '=', contextId)
    .where('userId', '=', userId)
    .executeTakeFirst();
}

export async function planNodes(db: Db | Tx, courseId: string): Promise<PlanNode[]> {
  return db
    .selectFrom('courseNodes')
    .select(['id', 'parentId', 'type', 'order', 'title', 'blockId', 'settings', 'tools', 'attachmentIds'])
    .where('courseId', '=', courseId)
    .execute();
}

export async function activePages(db: Db | Tx, lessonId: string): Promise<PageRow[]> {
  return db.selectFrom('lessonPages').selectAll().where('lessonId', '=', lessonId).where('state', '!=', 'ARCHIVED').execute();
}

export async function findPage(db: Db | Tx, lessonId: string, pageId: string): Promise<PageRow | undefined> {
  return db.selectFrom('lessonPages').selectAll().where('id', '=', pageId).where('lessonId', '=', lessonId).executeTakeFirst();
}

export async function activePageOfNode(db: Db | Tx, lessonId: string, nodeId: string): Promise<PageRow | undefined> {
  return db
    .selectFrom('lessonPages')
    .selectAll()
    .where('lessonId', '=', lessonId)
    .where('nodeId', '=', nodeId)
    .where('state', '!=', 'ARCHIVED')
    .executeTakeFirst();
}

/** Public columns only: the solution is read by `solutionOf`, for grading. */
export async function blocksByIds(db: Db | Tx, contextId: string, ids: string[]): Promise<BlockRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('courseBlocks')
    .select(['id', 'title', 'type', 'attachmentIds', 'settings', 'content'])
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
}

export async function solutionOf(db: Db | Tx, blockId: string): Promise<string | undefined> {
  const row = await db.selectFrom('courseBlocks').select('solution').where('id', '=', blockId).executeTakeFirst();
  return row?.solution;
}

export interface TermRow {
  id: string;
  title: string;
  words: string;
  definition: string;
  blockId: string;
}

export async function termsOfBlocks(db: Db | Tx, blockIds: string[]): Promise<TermRow[]> {
  if (blockIds.length === 0) return [];
  return db
    .selectFrom('courseBlockTerms as bt')
    .innerJoin('courseTerms as t', 't.id', 'bt.termId')
    .select(['t.id', 't.title', 't.words', 't.definition', 'bt.blockId'])
    .where('bt.blockId', 'in', blockIds)
    .orderBy('t.title')
    .execute();
}

export async function courseTypeSettingsText(db: Db | Tx, courseId: string): Promise<string | null> {
  const row = await db
    .selectFrom('courses as c')
    .leftJoin('courseTypes as t', 't.id', 'c.typeId')
    .select('t.settings')
    .where('c.id', '=', courseId)
    .executeTakeFirst();
  return row?.settings ?? null;
}

export interface NewPage {
  lessonId: string;
  nodeId: string;
  sectionId: string;
  position: number;
  attempt: number;
  timeLimit: number | null;
  now: string;
}

/**
 * Creates the page of a node unless an active one exists. Two tabs reaching the same page at
 * once both land here: the unique indexes keep one row, and both read that row back.
 */
export async function insertPageIfMissing(trx: Tx, p: NewPage): Promise<PageRow> {
  await trx
    .insertInto('lessonPages')
    .values({
      id: randomUUID(),
      lessonId: p.lessonId,
      nodeId: p.nodeId,
      sectionId: p.sectionId,
      attempt: p.attempt,
      position: p.position,
      state: 'ACTIVE',
      progress: 'ONGOING',
      timeLimit: p.timeLimit,
      openedAt: p.now,
      lastSeenAt: p.now,
      answeredAt: null,
      startedAt: null,
      createdAt: p.now,
      updatedAt: p.now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await activePageOfNode(trx, p.lessonId, p.nodeId);
  if (!row) throw new Error(`page of node ${p.nodeId} was neither created nor found`);
  return row;
}

export async function lastAttempt(trx: Tx, lessonId: string, nodeId: string): Promise<{ attempt: number; best: number }> {
  const row = await trx
    .selectFrom('lessonPages')
    .select((eb) => [eb.fn.max('attempt').as('attempt'), eb.fn.max('scoreActual').as('best')])
    .where('lessonId', '=', lessonId)
    .where('nodeId', '=', nodeId)
    .executeTakeFirst();
  return { attempt: Number(row?.attempt ?? 0), best: Number(row?.best ?? 0) };
}

export interface GradedWrite {
  inputs: string;
  results: string;
  scoreActual: number;
  scoreMax: number;
  now: string;
  hintsUsed: number;
}

/**
 * THE one-grade guarantee: the row is written only if it is still unanswered, active and has
 * the hint count the grade was computed with. A second submission (another tab, a replay, a
 * concurrent request on another process) updates 0 rows and is refused.
 */
export async function recordAnswer(trx: Tx, pageId: string, w: GradedWrite): Promise<boolean> {
  const res = await trx
    .updateTable('lessonPages')
    .set({
      inputs: w.inputs,
      results: w.results,
      scoreActual: w.scoreActual,
      scoreMax: w.scoreMax,
      progress: 'COMPLETED',
      answeredAt: w.now,
      updatedAt: w.now,
    })
    .where('id', '=', pageId)
    .where('state', '=', 'ACTIVE')
    .where('answeredAt', 'is', null)
    .where('hintsUsed', '=', w.hintsUsed)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Adds XP and a done page to the learner in one statement, so concurrent lessons never lose an update. */
export async function creditUser(trx: Tx, kind: DbKind, userId: string, xp: number, donePages: number, now: string): Promise<void> {
  if (xp === 0 && donePages === 0) return;
  const scoring =
    kind === 'postgres'
      ? sql<string>`jsonb_set(coalesce(nullif(scoring, ''), '{}')::jsonb, '{xp}', to_jsonb(round((coalesce((nullif(scoring, '')::jsonb ->> 'xp')::numeric, 0) + ${xp})::numeric, 2)))::text`
      : sql<string>`json_set(coalesce(nullif(scoring, ''), '{}'), '$.xp', round(coalesce(json_extract(scoring, '$.xp'), 0) + ${xp}, 2))`;
  await trx
    .updateTable('users')
    .set({ scoring, donePageCount: sql<number>`done_page_count + ${donePages}`, updatedAt: now })
    .where('id', '=', userId)
    .execute();
}

export async function addTime(trx: Tx, lesson: { id: string; userId: string }, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  await trx
    .updateTable('lessons')
    .set({ timeSpent: sql<number>`time_spent + ${seconds}`, timeAlive: sql<number>`time_alive + ${seconds}` })
    .where('id', '=', lesson.id)
    .execute();
  await trx.updateTable('users').set({ timeAlive: sql<number>`time_alive + ${seconds}` }).where('id', '=', lesson.userId).execute();
}
