import type { Kysely, Selectable } from 'kysely';
import type { DbKind } from '../../db/db';
import type { Database, LessonsTable } from '../../db/schema';
import { writeDailyRecord } from '../records/repository';
import { writeTx } from '../../db/tx';
import { applyProgression, syncProgression } from './rules';
import type { ProgramContextLoader } from './rules';

type LessonRow = Selectable<LessonsTable>;

/**
 * Called by `afterPageCompleted`, inside the transaction of the answer that completes a lesson:
 * the program's rules run at once (the next lessons unlock, the end of the program is marked)
 * and the learner's daily score record is written. Idempotent: a retry that completes the
 * lesson again changes nothing but the day's record.
 */
export async function onLessonCompleted(trx: Kysely<Database>, lesson: LessonRow, now: Date): Promise<void> {
  if (lesson.classProgramId)
    await applyProgression(trx, [{ userId: lesson.userId, classProgramId: lesson.classProgramId }], now);
  await writeDailyRecord(trx, lesson.userId, now);
}

/**
 * For the player's reads and writes: the lesson as the progression rules have it now (a window
 * that opened or closed, a time limit that ran out), written first when something is due, and
 * until when the rules would have it so without a write (`nextChangeAt`).
 */
export async function syncLesson(
  db: Kysely<Database>,
  kind: DbKind,
  lesson: LessonRow,
  now: Date,
  contextsOf?: ProgramContextLoader,
): Promise<{ lesson: LessonRow; validUntil: number }> {
  const view = await syncProgression(db, [lesson], now, (fn) => writeTx(db, kind, fn), contextsOf);
  return { lesson: view.rows[0] ?? lesson, validUntil: view.validUntil };
}
