import type { Kysely, Selectable } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database, LessonsTable } from '../../db/schema';
import { buildPlan, everySlotDone } from '../lesson-pages/plan';
import type { LessonPlan } from '../lesson-pages/plan';
import { jsonStrings } from '../programs/serializer';
import { onLessonCompleted } from './on-lesson-completed';

type LessonRow = Selectable<LessonsTable>;

/**
 * What a lesson becomes once one of its pages is completed (graded, skipped by its time limit,
 * or a slide/tincan closed). Runs inside the caller's transaction, after the page row is
 * written, so the lesson never disagrees with its pages.
 *
 * - `scoring.global` = Σ score of the lesson's non-archived answered pages (actual / max): a
 *   retry's archived attempt no longer counts, its new attempt does.
 * - `progress` ONGOING once started; COMPLETED (state DONE, `endedAt`) when every page of the
 *   enabled sections is completed.
 *
 * `plan`: the lesson's pages when the caller already built them (the player does), else loaded.
 *
 * The next issue (unlocking the next lessons, end of program) extends this function.
 */
// Run with every answer: prepared once (db/prepared.ts).
const touchLesson = prepared((db: Kysely<Database>, id: string, now: string) =>
  db.updateTable('lessons').set({ updatedAt: now }).where('id', '=', id),
);
const pageScores = prepared((db: Kysely<Database>, lessonId: string) =>
  db
    .selectFrom('lessonPages')
    .select(['nodeId', 'progress', 'scoreActual', 'scoreMax', 'answeredAt'])
    .where('lessonId', '=', lessonId)
    .where('state', '!=', 'ARCHIVED'),
);
const writeLesson = prepared(
  (
    db: Kysely<Database>,
    id: string,
    scoring: string,
    progress: string,
    state: string,
    endedAt: string | null,
    startedAt: string | null,
    updatedAt: string,
  ) =>
    db
      .updateTable('lessons')
      .set({ scoring, progress, state, endedAt, startedAt, updatedAt })
      .where('id', '=', id),
);

export async function afterPageCompleted(
  trx: Kysely<Database>,
  lesson: LessonRow,
  now: Date,
  plan?: LessonPlan,
): Promise<LessonRow> {
  const iso = now.toISOString();
  // Written first so that, on PostgreSQL, two pages of the same lesson completed at once take
  // turns here (row lock) and each sum sees the other's committed page; SQLite has one writer.
  await touchLesson.run(trx, lesson.id, iso);

  const pages = await pageScores.all(trx, lesson.id);
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const graded = pages.filter((p) => p.answeredAt !== null);
  const sum = (f: (p: (typeof graded)[number]) => number) =>
    round2(graded.reduce((acc, p) => acc + Number(f(p)), 0));
  const scoring = { global: { actual: sum((p) => p.scoreActual), max: sum((p) => p.scoreMax) } };

  plan ??= buildPlan(
    await trx
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
      .where('courseId', '=', lesson.courseId)
      .execute(),
    jsonStrings(lesson.enabledSectionIds),
  );
  // Slots passed over by their conditions count as done (decision 0051).
  const allDone = everySlotDone(plan, pages);

  const next = {
    scoring: JSON.stringify(scoring),
    progress: allDone ? 'COMPLETED' : 'ONGOING',
    // A skipped lesson stays skipped; otherwise completion makes it DONE.
    state: allDone && lesson.state === 'AVAILABLE' ? 'DONE' : lesson.state,
    endedAt: allDone ? (lesson.endedAt ?? iso) : lesson.endedAt,
    startedAt: lesson.startedAt ?? iso,
    updatedAt: iso,
  };
  await writeLesson.run(
    trx,
    lesson.id,
    next.scoring,
    next.progress,
    next.state,
    next.endedAt,
    next.startedAt,
    next.updatedAt,
  );
  // Issue 4: the next lessons unlock and the day's record is written, in this same transaction.
  if (allDone) await onLessonCompleted(trx, { ...lesson, ...next }, now);
  return { ...lesson, ...next };
}
