import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import { prepared } from '../../db/prepared';
import type { CourseBlocksTable, LessonPagesTable, LessonsTable } from '../../db/schema';
import type { PlanNode } from './plan';
import type { Tx } from '../../db/tx';

export type LessonRow = Selectable<LessonsTable>;
type FullPageRow = Selectable<LessonPagesTable>;
/**
 * A page as the player decides with it. The answer columns (`inputs`, `results`: kilobytes of
 * JSON once answered) are left out of the lesson's page list, read on every request, and read
 * for the one page that is shown (`withAnswer`); absent means not read yet.
 */
export type PageRow = Omit<FullPageRow, 'inputs' | 'results'> &
  Partial<Pick<FullPageRow, 'inputs' | 'results'>>;

export const PAGE_COLUMNS = [
  'id',
  'lessonId',
  'nodeId',
  'sectionId',
  'attempt',
  'position',
  'state',
  'progress',
  'hintsUsed',
  'scoreActual',
  'scoreMax',
  'timeSpent',
  'timeAlive',
  'timeLimit',
  'openedAt',
  'answeredAt',
  'createdAt',
  'updatedAt',
  'startedAt',
  'lastSeenAt',
  'choiceOf',
  'launchToken',
  // Parametrised exercises: the page's drawn values ('{}' for every other page), decision 0042.
  'sheet',
] as const;
export type BlockRow = Pick<
  Selectable<CourseBlocksTable>,
  'id' | 'title' | 'type' | 'attachmentIds' | 'settings' | 'content'
>;

/** The learner's time accommodation in the lesson's class (decision 0019); null: not enrolled any more. */
export interface AccommodationColumns {
  timeFactor: number | null;
  noTimeLimit: number | null;
}
export type OwnLessonRow = LessonRow & AccommodationColumns;

/**
 * Lessons (`l`) with their learner's time accommodation in the lesson's class (decision 0019),
 * read together wherever a lesson's time is judged: no extra query.
 */
export const lessonsWithAccommodation = (db: Db) =>
  db
    .selectFrom('lessons as l')
    .leftJoin('classUsers as cu', (j) =>
      j
        .onRef('cu.classId', '=', 'l.classId')
        .onRef('cu.userId', '=', 'l.userId')
        .on('cu.role', '=', 'STUDENT'),
    )
    .selectAll('l')
    .select(['cu.timeFactor', 'cu.noTimeLimit']);

/** Only the owner's lessons: the player is personal, administrators included (docs/api.md). */
// The player's queries run on every request: prepared once (db/prepared.ts, decision 0007).
const ownLessonQuery = prepared((db: Db, lessonId: string, contextId: string, userId: string) =>
  lessonsWithAccommodation(db)
    .where('l.id', '=', lessonId)
    .where('l.contextId', '=', contextId)
    .where('l.userId', '=', userId),
);

export async function findOwnLesson(
  db: Db | Tx,
  contextId: string,
  userId: string,
  lessonId: string,
): Promise<OwnLessonRow | undefined> {
  return ownLessonQuery.first(db, lessonId, contextId, userId);
}

export async function planNodes(db: Db | Tx, courseId: string): Promise<PlanNode[]> {
  return db
    .selectFrom('courseNodes')
    .select([
      'id',
      'parentId',
      'type',
      'order',
      'title',
      'blockId',
      'settings',
      'tools',
      'attachmentIds',
      'conditions',
    ])
    .where('courseId', '=', courseId)
    .execute();
}

const activePagesQuery = prepared((db: Db, lessonId: string) =>
  db
    .selectFrom('lessonPages')
    .select(PAGE_COLUMNS)
    .where('lessonId', '=', lessonId)
    .where('state', '!=', 'ARCHIVED'),
);

export async function activePages(db: Db | Tx, lessonId: string): Promise<PageRow[]> {
  return activePagesQuery.all(db, lessonId);
}

const answerQuery = prepared((db: Db, pageId: string) =>
  db.selectFrom('lessonPages').select(['inputs', 'results']).where('id', '=', pageId),
);

/** The page with its answer columns read (once). */
export async function withAnswer(db: Db | Tx, page: PageRow): Promise<PageRow> {
  if (page.inputs !== undefined && page.results !== undefined) return page;
  const answer = await answerQuery.first(db, page.id);
  return { ...page, inputs: answer?.inputs ?? '', results: answer?.results ?? '' };
}

const pageQuery = prepared((db: Db, pageId: string, lessonId: string) =>
  db.selectFrom('lessonPages').selectAll().where('id', '=', pageId).where('lessonId', '=', lessonId),
);

export async function findPage(db: Db | Tx, lessonId: string, pageId: string): Promise<PageRow | undefined> {
  return pageQuery.first(db, pageId, lessonId);
}

const activePageOfNodeQuery = prepared((db: Db, lessonId: string, nodeId: string) =>
  db
    .selectFrom('lessonPages')
    .select(PAGE_COLUMNS)
    .where('lessonId', '=', lessonId)
    .where('nodeId', '=', nodeId)
    .where('state', '!=', 'ARCHIVED'),
);

export async function activePageOfNode(
  db: Db | Tx,
  lessonId: string,
  nodeId: string,
): Promise<PageRow | undefined> {
  return activePageOfNodeQuery.first(db, lessonId, nodeId);
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
  const row = await db
    .selectFrom('courseBlocks')
    .select('solution')
    .where('id', '=', blockId)
    .executeTakeFirst();
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
  /** A multiblock child's page: the multiblock's node id (one active choice per lesson and multiblock). */
  choiceOf: string | null;
  now: string;
  /** The page's sheet (JSON text): a parametrised block's draw, else '{}' (datasets.ts newSheet). */
  sheet: string;
}

/**
 * Creates the page of a node unless an active one exists. Two tabs reaching the same page at
 * once both land here: the unique indexes keep one row, and both read that row back. Two tabs
 * choosing different children of one multiblock: the index on `choice_of` keeps the first, and
 * the other finds no page of its node (undefined: the caller refuses the choice).
 */
const insertPageQuery = prepared(
  (
    db: Db,
    id: string,
    lessonId: string,
    nodeId: string,
    sectionId: string,
    attempt: number,
    position: number,
    timeLimit: number | null,
    choiceOf: string | null,
    now: string,
    sheet: string,
  ) =>
    db
      .insertInto('lessonPages')
      .values({
        id,
        lessonId,
        nodeId,
        sectionId,
        attempt,
        position,
        state: 'ACTIVE',
        progress: 'ONGOING',
        timeLimit,
        choiceOf,
        sheet,
        openedAt: now,
        lastSeenAt: now,
        answeredAt: null,
        startedAt: null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict((oc) => oc.doNothing()),
);

export async function insertPageIfMissing(trx: Tx, p: NewPage): Promise<PageRow | undefined> {
  await insertPageQuery.run(
    trx,
    randomUUID(),
    p.lessonId,
    p.nodeId,
    p.sectionId,
    p.attempt,
    p.position,
    p.timeLimit,
    p.choiceOf,
    p.now,
    p.sheet,
  );
  return activePageOfNode(trx, p.lessonId, p.nodeId);
}

const snake = (c: string) => c.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
const PAGE_SQL_COLUMNS = sql.raw(PAGE_COLUMNS.map(snake).join(', '));

/**
 * PostgreSQL: reaching a page in ONE statement (decision 0025) — the page's next attempt number,
 * its insert and the lesson's move, where `reach` took BEGIN, the attempt's read, the insert, the
 * read back, the lesson's update and COMMIT (6 round trips holding a pooled connection). One
 * statement is one transaction: the page and the lesson's move commit together, as before.
 * The lesson is updated only when the page was inserted; when nothing was (another request made
 * a page of this node or of this choice meanwhile: a unique index), undefined is returned and
 * the caller takes the transaction's path, which reads what the other request committed.
 * Locks: the new page's index entries, then the lesson — no learner row, so no cycle with an
 * answer (page, learner, lesson).
 */
export async function reachPagePg(
  db: Db,
  p: Omit<NewPage, 'attempt'> & { advance: boolean },
): Promise<PageRow | undefined> {
  const { rows } = await sql<PageRow>`
    with ins as (
      insert into lesson_pages (id, lesson_id, node_id, section_id, attempt, position, state, progress,
        time_limit, choice_of, opened_at, last_seen_at, answered_at, started_at, created_at, updated_at, sheet)
      values (${randomUUID()}, ${p.lessonId}, ${p.nodeId}, ${p.sectionId},
        (select coalesce(max(attempt), 0) + 1 from lesson_pages where lesson_id = ${p.lessonId} and node_id = ${p.nodeId}),
        ${p.position}, 'ACTIVE', 'ONGOING', ${p.timeLimit}, ${p.choiceOf}, ${p.now}, ${p.now}, null, null,
        ${p.now}, ${p.now}, ${p.sheet})
      on conflict do nothing
      returning ${PAGE_SQL_COLUMNS}
    ), moved as (
      update lessons set
        current_node_id = case when ${p.advance}::boolean then ${p.nodeId} else current_node_id end,
        started_at = coalesce(started_at, ${p.now}),
        progress = coalesce(progress, 'ONGOING'),
        updated_at = ${p.now}
      where id = ${p.lessonId} and exists (select 1 from ins)
    )
    select * from ins`.execute(db);
  return rows[0];
}

const lastAttemptQuery = prepared((db: Db, lessonId: string, nodeId: string) =>
  db
    .selectFrom('lessonPages')
    .select((eb) => [eb.fn.max('attempt').as('attempt'), eb.fn.max('scoreActual').as('best')])
    .where('lessonId', '=', lessonId)
    .where('nodeId', '=', nodeId),
);

export async function lastAttempt(
  trx: Tx,
  lessonId: string,
  nodeId: string,
): Promise<{ attempt: number; best: number }> {
  const row = await lastAttemptQuery.first(trx, lessonId, nodeId);
  return { attempt: Number(row?.attempt ?? 0), best: Number(row?.best ?? 0) };
}

export interface GradedWrite {
  inputs: string;
  results: string;
  scoreActual: number;
  scoreMax: number;
  now: string;
  hintsUsed: number;
  /** A learning module's score: the launch it came with, which must still be the page's. */
  launch?: string | undefined;
}

/**
 * THE one-grade guarantee: the row is written only if it is still unanswered, active and has
 * the hint count the grade was computed with. A second submission (another tab, a replay, a
 * concurrent request on another process) updates 0 rows and is refused. Making `answered_at`
 * non-null fires the trigger that credits XP and re-sums the lesson (migration 0013).
 */
const gradeUpdate = (db: Db, pageId: string, w: Omit<GradedWrite, 'launch'>) =>
  db
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
    .where('hintsUsed', '=', w.hintsUsed);

// prepared() counts the builder's parameters (Function.length): they are spelled out, no rest.
const recordAnswerQuery = prepared(
  (
    db: Db,
    id: string,
    inputs: string,
    results: string,
    actual: number,
    max: number,
    now: string,
    hints: number,
  ) => gradeUpdate(db, id, { inputs, results, scoreActual: actual, scoreMax: max, now, hintsUsed: hints }),
);

/** The same for a learning module's score, also conditional on its launch, which it uses up. */
const recordLaunchedScoreQuery = prepared(
  (
    db: Db,
    id: string,
    inputs: string,
    results: string,
    actual: number,
    max: number,
    now: string,
    hints: number,
    launch: string,
  ) =>
    gradeUpdate(db, id, { inputs, results, scoreActual: actual, scoreMax: max, now, hintsUsed: hints })
      .set({ launchToken: null })
      .where('launchToken', '=', launch),
);

/**
 * The same, also conditional on the lesson's number of completed pages being `completedSeen`
 * (the answering fast path, record.ts: nothing completed or retried behind its read).
 */
const recordIfUnchangedQuery = prepared(
  (
    db: Db,
    id: string,
    inputs: string,
    results: string,
    actual: number,
    max: number,
    now: string,
    hints: number,
    lessonId: string,
    completedSeen: number,
  ) =>
    gradeUpdate(db, id, { inputs, results, scoreActual: actual, scoreMax: max, now, hintsUsed: hints }).where(
      (eb) =>
        eb(
          eb
            .selectFrom('lessonPages as o')
            .select((o) => o.fn.countAll<number>().as('n'))
            .where('o.lessonId', '=', lessonId)
            .where('o.state', '!=', 'ARCHIVED')
            .where('o.progress', '=', 'COMPLETED'),
          '=',
          completedSeen,
        ),
    ),
);

/**
 * PostgreSQL's form of the same (migration 0017): the check is a VOLATILE function that locks the
 * page, the learner and the lesson and then counts with a new snapshot, which a subquery of the
 * statement could not. Run on its own, outside any explicit transaction: one statement is one
 * transaction, acknowledged after its commit (synchronous_commit stays on).
 */
const recordIfUnchangedPgQuery = prepared(
  (
    db: Db,
    id: string,
    inputs: string,
    results: string,
    actual: number,
    max: number,
    now: string,
    hints: number,
    lessonId: string,
    completedSeen: number,
  ) =>
    gradeUpdate(db, id, { inputs, results, scoreActual: actual, scoreMax: max, now, hintsUsed: hints }).where(
      sql<boolean>`lesson_completed_count_is(${id}, ${lessonId}, ${completedSeen})`,
    ),
);

type GradeArgs = [string, string, string, number, number, string, number];
const argsOf = (pageId: string, w: GradedWrite): GradeArgs => [
  pageId,
  w.inputs,
  w.results,
  w.scoreActual,
  w.scoreMax,
  w.now,
  w.hintsUsed,
];

export async function recordAnswer(trx: Tx, pageId: string, w: GradedWrite): Promise<boolean> {
  const n =
    w.launch === undefined
      ? await recordAnswerQuery.run(trx, ...argsOf(pageId, w))
      : await recordLaunchedScoreQuery.run(trx, ...argsOf(pageId, w), w.launch);
  return n === 1;
}

/** `recordAnswer` (no launch) if the lesson still has `completedSeen` completed pages; true when written. */
export async function recordAnswerIfUnchanged(
  trx: Tx,
  pageId: string,
  w: GradedWrite,
  lessonId: string,
  completedSeen: number,
): Promise<boolean> {
  return (await recordIfUnchangedQuery.run(trx, ...argsOf(pageId, w), lessonId, completedSeen)) === 1;
}

/** `recordAnswerIfUnchanged` on PostgreSQL, as one autocommitted statement; true when written. */
export async function recordAnswerIfUnchangedPg(
  db: Db,
  pageId: string,
  w: GradedWrite,
  lessonId: string,
  completedSeen: number,
): Promise<boolean> {
  return (await recordIfUnchangedPgQuery.run(db, ...argsOf(pageId, w), lessonId, completedSeen)) === 1;
}

export async function addTime(
  trx: Tx,
  lesson: { id: string; userId: string },
  seconds: number,
): Promise<void> {
  if (seconds <= 0) return;
  // The learner's row before the lesson's: the order an answer takes them (its page, then the
  // trigger of migration 0013 locks the user, then the lesson; 0017's check the same). The other
  // order let a ping on one page and an answer on another page of the same lesson each hold the
  // row the other waits for: a deadlock, one of the two failing (PostgreSQL).
  await trx
    .updateTable('users')
    .set({ timeAlive: sql<number>`time_alive + ${seconds}` })
    .where('id', '=', lesson.userId)
    .execute();
  await trx
    .updateTable('lessons')
    .set({ timeSpent: sql<number>`time_spent + ${seconds}`, timeAlive: sql<number>`time_alive + ${seconds}` })
    .where('id', '=', lesson.id)
    .execute();
}
