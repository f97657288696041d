import { afterPageCompleted } from '../progression/service';
import type { Loaded, PlayerContext } from './context';
import { everySlotDone } from './plan';
import { recordAnswer, recordAnswerIfUnchanged, recordAnswerIfUnchangedPg } from './repository';
import type { GradedWrite, LessonRow, PageRow } from './repository';
import { writeTx } from '../../db/tx';

/**
 * Writing a graded page (decision 0016). The page's conditional UPDATE is the one-grade
 * guarantee (decision 0005); the database's trigger `lesson_page_answered` (migration 0013)
 * credits the learner's XP and re-sums the lesson's score inside that same statement.
 *
 * Fast path (an answer that does not end the lesson): the UPDATE is the whole write — one
 * statement, no savepoint; on SQLite in the group commit's transaction, on PostgreSQL a
 * transaction of its own, its check done under the lesson's lock (migration 0017, decision 0025). It is also conditional on the
 * number of the lesson's completed pages being the one this request read: if another process
 * completed or retried a page of the lesson since, it updates nothing and the full path below
 * decides, re-reading inside the transaction. With that count unchanged, no slot can have become
 * done behind the read (each slot has at most one active page, so a newly done slot would need
 * another to come undone), so "this answer does not complete the lesson", decided from the read,
 * still holds when the write happens — SQLite has one writer; PostgreSQL's check holds the locks
 * every other answer of the lesson needs until the commit.
 *
 * Full path (the answer that ends the lesson, a module's score, or a lost race): the
 * same UPDATE, then `afterPageCompleted` re-reads the lesson's pages under the lesson's lock and
 * decides completion and what follows it (the program's rules, the day's record).
 */

/**
 * Whether completing `page` with this grade completes every slot of the lesson, as read — its
 * new score included, since a later page's conditions may pass it over by that score (decision 0051).
 */
export function completesLesson(
  l: Loaded,
  page: PageRow,
  w: Pick<GradedWrite, 'scoreActual' | 'scoreMax'>,
): boolean {
  const graded = { ...page, progress: 'COMPLETED', scoreActual: w.scoreActual, scoreMax: w.scoreMax };
  return everySlotDone(l.plan, [...l.pages.filter((p) => p.id !== page.id), graded]);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The lesson as the trigger left it after the fast path (its score over the pages read plus this one). */
function lessonAfter(l: Loaded, page: PageRow, w: GradedWrite): LessonRow {
  const others = l.pages.filter((p) => p.answeredAt !== null && p.id !== page.id);
  const sum = (f: (p: PageRow) => number) => others.reduce((acc, p) => acc + Number(f(p)), 0);
  const global = {
    actual: round2(sum((p) => p.scoreActual) + w.scoreActual),
    max: round2(sum((p) => p.scoreMax) + w.scoreMax),
  };
  return {
    ...l.lesson,
    scoring: JSON.stringify({ global }),
    progress: 'ONGOING',
    startedAt: l.lesson.startedAt ?? w.now,
    updatedAt: w.now,
  };
}

/**
 * Records the graded page in one transaction; returns the lesson after it, or null when another
 * submission graded the page first (nothing written).
 */
export async function writeGrade(
  ctx: PlayerContext,
  l: Loaded,
  page: PageRow,
  w: GradedWrite,
): Promise<LessonRow | null> {
  if (w.launch === undefined && !completesLesson(l, page, w)) {
    const seen = l.pages.filter((p) => p.progress === 'COMPLETED').length;
    const written =
      ctx.kind === 'sqlite'
        ? await writeTx(
            ctx.db,
            ctx.kind,
            (trx) => recordAnswerIfUnchanged(trx, page.id, w, l.lesson.id, seen),
            { oneStatement: true },
          )
        : // One statement, one round trip, its own transaction (migration 0017, decision 0025).
          await recordAnswerIfUnchangedPg(ctx.db, page.id, w, l.lesson.id, seen);
    if (written) return lessonAfter(l, page, w);
    // Nothing written: graded meanwhile, or the lesson changed since it was read. The full path tells which.
  }
  return writeTx(ctx.db, ctx.kind, async (trx) => {
    if (!(await recordAnswer(trx, page.id, w))) return null;
    return afterPageCompleted(trx, l.lesson, ctx.receivedAt, l.plan);
  });
}
