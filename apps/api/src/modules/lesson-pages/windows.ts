import { lessonWindow, windowPhase } from '@parcours/domain/class-timing';
import type { TimeWindow } from '@parcours/domain/class-timing';
import { lessonStateAt } from '@parcours/domain/lesson-state';
import type { Db } from '../../db/db';
import { prepared } from '../../db/prepared';
import { ApiError } from '../../plugins/errors';
import { applyProgression, toProgramLesson } from '../progression/rules';
import { jsonObject } from '../programs/serializer';
import { GRACE_SECONDS } from './clock';
import type { PlayerContext } from './context';
import type { LessonRow } from './repository';
import { writeTx } from '../../db/tx';

/**
 * Issue 10 finding 1 (decision 0009): every write of the player judges the class's and the
 * class program's windows on the server's clock, as it judges time limits. The windows are read
 * from the database on each write (one indexed query), not from the content cache: a teacher who
 * closes a class early is obeyed at once.
 */

const classProgramWindowQuery = prepared((db: Db, classProgramId: string) =>
  db
    .selectFrom('classPrograms as cp')
    .innerJoin('classes as c', 'c.id', 'cp.classId')
    .select([
      'cp.startAt',
      'cp.expireAt',
      'cp.openingBoundaries',
      'c.startAt as classStartAt',
      'c.expireAt as classExpireAt',
    ])
    .where('cp.id', '=', classProgramId),
);

const classWindowQuery = prepared((db: Db, classId: string) =>
  db.selectFrom('classes').select(['startAt', 'expireAt']).where('id', '=', classId),
);

/** What a lesson's window is made of: its class's, and its class program's when it has one. */
export interface WindowColumns {
  classStartAt: string | null;
  classExpireAt: string | null;
  program: { startAt: string | null; expireAt: string | null; openingBoundaries: string } | null;
}

/** The window the lesson's pages may be written in: its class's, narrowed by its class program's (docs/product.md §3). */
export function windowOf(w: WindowColumns): TimeWindow {
  const cls = { startAt: w.classStartAt, expireAt: w.classExpireAt };
  if (!w.program) return cls;
  const bounds = jsonObject(w.program.openingBoundaries);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return lessonWindow(cls, {
    startAt: w.program.startAt,
    expireAt: w.program.expireAt,
    openingBoundaries: { from: str(bounds.from), to: str(bounds.to) },
  });
}

export async function writeWindowOf(
  db: Db,
  lesson: Pick<LessonRow, 'classId' | 'classProgramId'>,
): Promise<TimeWindow> {
  if (lesson.classProgramId) {
    const cp = await classProgramWindowQuery.first(db, lesson.classProgramId);
    if (cp) return windowOf({ classStartAt: cp.classStartAt, classExpireAt: cp.classExpireAt, program: cp });
  }
  const cls = await classWindowQuery.first(db, lesson.classId);
  return { startAt: cls?.startAt ?? null, expireAt: cls?.expireAt ?? null };
}

/**
 * Refuses a write outside the window. A closed window is first recorded (the lesson EXPIRED, or
 * SKIPPED when its own time ran out before the window closed; the program's rules for the
 * others) in one transaction, so nothing of the refused write is graded and the dashboard shows
 * the lesson as ended at once. `known`: the window when the caller read it with the lesson
 * (lesson-state.ts), in the same statement.
 */
export async function refuseIfWindowClosed(
  ctx: PlayerContext,
  lesson: LessonRow,
  known?: TimeWindow,
): Promise<void> {
  const window = known ?? (await writeWindowOf(ctx.db, lesson));
  const phase = windowPhase(window, ctx.receivedAt);
  if (phase === 'open') return;
  const iso = ctx.receivedAt.toISOString();
  await writeTx(ctx.db, ctx.kind, async (trx) => {
    if (lesson.classProgramId) {
      await applyProgression(
        trx,
        [{ userId: lesson.userId, classProgramId: lesson.classProgramId }],
        ctx.receivedAt,
      );
      return;
    }
    const state = lessonStateAt(toProgramLesson(lesson), window, ctx.receivedAt, {
      graceSeconds: GRACE_SECONDS,
    });
    if (state === lesson.state) return;
    await trx
      .updateTable('lessons')
      .set({ state, updatedAt: iso })
      .where('id', '=', lesson.id)
      .where('state', '=', lesson.state)
      .execute();
  });
  if (phase === 'pending') throw new ApiError(403, 'Forbidden', 'This lesson is not open yet.');
  throw new ApiError(409, 'LESSON_SKIPPED', 'The class is over: this lesson is closed.');
}
