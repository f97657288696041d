import { accommodationOf } from '@parcours/domain/time-accommodation';
import type { Db } from '../../db/db';
import { prepared } from '../../db/prepared';
import { notFound } from '../scope';
import { judgeForWrite, judgeSynced } from './context';
import type { Access, Loaded, PlayerContext } from './context';
import { PAGE_COLUMNS } from './repository';
import type { OwnLessonRow, PageRow } from './repository';
import { windowOf } from './windows';
import type { WindowColumns } from './windows';

/**
 * What an answer must read of the learner's own state, read once (decision 0016): the lesson,
 * the enrolment's time accommodation (decision 0019), the class and class-program windows
 * (decision 0009) and the lesson's active pages, in ONE statement — a row per active page, the
 * lesson's columns repeated on each (a lesson has tens of pages, not thousands). Before, these
 * were three to four statements. Content (plan, blocks, grading data) comes from the content
 * cache; none of this is cached: every write judges what the database holds now.
 */

/** Page columns come back prefixed, window columns too, so they never collide with the lesson's. */
const pageKey = (c: string) => `pg${c[0]!.toUpperCase()}${c.slice(1)}`;
const PAGE_KEYS = PAGE_COLUMNS.map((c) => [c, pageKey(c)] as const);

const lessonStateQuery = prepared((db: Db, lessonId: string, contextId: string, userId: string) =>
  db
    .selectFrom('lessons as l')
    .leftJoin('classUsers as cu', (j) =>
      j
        .onRef('cu.classId', '=', 'l.classId')
        .onRef('cu.userId', '=', 'l.userId')
        .on('cu.role', '=', 'STUDENT'),
    )
    .leftJoin('classes as c', 'c.id', 'l.classId')
    .leftJoin('classPrograms as cp', 'cp.id', 'l.classProgramId')
    .leftJoin('lessonPages as p', (j) => j.onRef('p.lessonId', '=', 'l.id').on('p.state', '!=', 'ARCHIVED'))
    .selectAll('l')
    .select([
      'cu.timeFactor',
      'cu.noTimeLimit',
      'c.startAt as winClassStartAt',
      'c.expireAt as winClassExpireAt',
      'cp.id as winProgramId',
      'cp.startAt as winStartAt',
      'cp.expireAt as winExpireAt',
      'cp.openingBoundaries as winOpeningBoundaries',
    ])
    // Typed by hand below (rowsOf): Kysely cannot type a computed alias list.
    .select(PAGE_KEYS.map(([c, k]) => `p.${c} as ${k}`) as unknown as 'p.id')
    .where('l.id', '=', lessonId)
    .where('l.contextId', '=', contextId)
    .where('l.userId', '=', userId),
);

type Row = Record<string, unknown>;

export interface LessonState {
  lesson: OwnLessonRow;
  window: WindowColumns;
  pages: PageRow[];
}

/** Whether a column of the joined row is the lesson's (not a prefixed page or window column). */
const lessonColumn = new Map<string, boolean>();
function isLessonColumn(key: string): boolean {
  let yes = lessonColumn.get(key);
  // Decided once per column name (a fixed set): a regular expression per column per answer
  // was 2.5 % of the server's time answering (bench profile, decision 0016 addendum).
  if (yes === undefined) lessonColumn.set(key, (yes = !/^(pg|win)[A-Z]/.test(key)));
  return yes;
}

/** Splits the joined rows into the lesson, its window and its pages; undefined: not the viewer's lesson. */
export function lessonStateOf(rows: Row[]): LessonState | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const lesson: Row = {};
  for (const k in first) if (isLessonColumn(k)) lesson[k] = first[k];
  const pages: PageRow[] = [];
  for (const r of rows) {
    if (r.pgId === null || r.pgId === undefined) continue;
    const page: Row = {};
    for (const [c, k] of PAGE_KEYS) page[c] = r[k];
    pages.push(page as PageRow);
  }
  const window: WindowColumns = {
    classStartAt: first.winClassStartAt as string | null,
    classExpireAt: first.winClassExpireAt as string | null,
    program:
      first.winProgramId === null || first.winProgramId === undefined
        ? null
        : {
            startAt: first.winStartAt as string | null,
            expireAt: first.winExpireAt as string | null,
            openingBoundaries: first.winOpeningBoundaries as string,
          },
  };
  return { lesson: lesson as unknown as OwnLessonRow, window, pages };
}

/**
 * The open lesson an answer (or a module's score) is for, judged as `loadLesson(…, 'write')`
 * judges it, with its plan and pages: one statement, plus the content cache.
 */
export async function loadForWrite(ctx: PlayerContext, lessonId: string): Promise<Loaded> {
  const state = await readState(ctx, lessonId);
  await judgeForWrite(ctx, state.lesson, windowOf(state.window));
  return loaded(ctx, state.lesson, state.pages);
}

/**
 * The open lesson the player shows (GET …/pages/current), judged as `loadLesson(…, access, true)`
 * judges it — the progression rules applied first — with its plan and pages: the lesson and its
 * pages in one statement (decision 0025), where they were two. The progression rules write
 * lessons only, never pages, so the pages read with the lesson are still the lesson's.
 */
export async function loadForOpen(ctx: PlayerContext, lessonId: string, access: Access): Promise<Loaded> {
  const state = await readState(ctx, lessonId);
  const { lesson, validUntil } = await judgeSynced(ctx, state.lesson, access);
  return { ...(await loaded(ctx, lesson, state.pages)), rulesValidUntil: validUntil };
}

async function readState(ctx: PlayerContext, lessonId: string): Promise<LessonState> {
  const rows = (await lessonStateQuery.all(ctx.db, lessonId, ctx.contextId, ctx.userId)) as unknown as Row[];
  const state = lessonStateOf(rows);
  if (!state) throw notFound('Lesson');
  return state;
}

async function loaded(ctx: PlayerContext, lesson: OwnLessonRow, pages: PageRow[]): Promise<Loaded> {
  const course = await ctx.cache.course(ctx.db, lesson.courseId);
  return {
    lesson,
    plan: ctx.cache.plan(course, lesson.enabledSectionIds),
    pages,
    settings: ctx.cache.gradingSettings(course),
    accommodation: accommodationOf(lesson),
  };
}
