import { hasLessonEnded, isLessonClosed, nextLessonState, stepIndexOf } from '@parcours/domain/lesson-state';
import type { ActionAnswer } from '@parcours/domain/lesson-state';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import { writeTx } from '../../db/tx';
import { notFound } from '../scope';
import {
  answersOf,
  applyProgression,
  lessonsOfPrograms,
  loadProgramContexts,
  toProgramLesson,
} from '../progression/rules';
import type { LessonRow } from '../progression/rules';

export interface ActionContext {
  db: Db;
  kind: DbKind;
  contextId: string;
  userId: string;
  now: Date;
}

const invalid = (i: number, field: 'actionIdx' | 'choiceIdx', detail: string) =>
  ApiError.validation([{ detail, source: { pointer: `/inputs/${i}/${field}` } }]);

/**
 * POST /lessons/{id}/actions (docs/product.md §4 "Choosing an unlocked lesson"): the learner answers the
 * end-of-lesson question of an ended lesson; each choice opens its target lesson
 * (CHOSEN_BY_ACTION). One transaction: the answers are kept on the lesson (a second, different
 * answer is 409 INVALID_INPUTS; the same one again is a no-op) and the targets are opened.
 * Returns the id of the lesson the first choice opens.
 */
export async function answerActions(
  ctx: ActionContext,
  lessonId: string,
  inputs: ActionAnswer[],
): Promise<string> {
  return writeTx(ctx.db, ctx.kind, async (trx) => {
    // The owner only, administrators included: acting on a lesson is personal.
    const lesson = await trx
      .selectFrom('lessons')
      .selectAll()
      .where('id', '=', lessonId)
      .where('contextId', '=', ctx.contextId)
      .where('userId', '=', ctx.userId)
      .executeTakeFirst();
    if (!lesson) throw notFound('Lesson');
    if (!lesson.classProgramId) throw invalid(0, 'actionIdx', 'This lesson has no end-of-lesson question.');
    const pair = { userId: lesson.userId, classProgramId: lesson.classProgramId };
    // Time first (a window may have closed since the last read), then the question.
    await applyProgression(trx, [pair], ctx.now);
    const [siblings, contexts] = await Promise.all([
      lessonsOfPrograms(trx, [pair]),
      loadProgramContexts(trx, [lesson.classProgramId]),
    ]);
    const program = contexts.get(lesson.classProgramId);
    const self = siblings.find((s) => s.id === lesson.id) ?? lesson;
    const step = program?.steps[stepIndexOf(program.steps, self.courseId)];
    const question = step?.question;
    if (!program || !question) throw invalid(0, 'actionIdx', 'This lesson has no end-of-lesson question.');

    const seen = new Set<number>();
    inputs.forEach((input, i) => {
      // One question per lesson: the only action index is 0.
      if (input.actionIdx !== 0)
        throw invalid(i, 'actionIdx', `No action ${input.actionIdx}: this lesson has 1.`);
      if (seen.has(input.actionIdx))
        throw invalid(i, 'actionIdx', `Action ${input.actionIdx} is answered twice.`);
      seen.add(input.actionIdx);
      if (input.choiceIdx >= question.choices.length)
        throw invalid(
          i,
          'choiceIdx',
          `No choice ${input.choiceIdx}: the question has ${question.choices.length}.`,
        );
    });
    const program0 = toProgramLesson(self);
    if (!hasLessonEnded(program0))
      throw new ApiError(409, 'BAD_REQUEST', 'The lesson has not ended yet: its question comes at its end.');

    const earlier = answersOf(self.actions);
    const fresh = inputs.filter((input) => {
      const before = earlier.find((a) => a.actionIdx === input.actionIdx);
      if (before && before.choiceIdx !== input.choiceIdx)
        throw new ApiError(409, 'INVALID_INPUTS', 'This question is already answered.');
      return !before;
    });

    const targets: LessonRow[] = inputs.map((input) => {
      const courseId = question.choices[input.choiceIdx]?.target;
      const target = siblings.find((s) => s.courseId === courseId);
      if (!target) throw new ApiError(404, 'MODEL_NOT_FOUND', 'The lesson this choice opens does not exist.');
      if (isLessonClosed(nextLessonState(toProgramLesson(target).state, 'CHOSEN_BY_ACTION')))
        throw new ApiError(
          403,
          'Forbidden',
          'The lesson this choice opens is not open (its window is closed or not started).',
        );
      return target;
    });

    if (fresh.length > 0) {
      const stored = parseJson<Record<string, unknown> | null>(self.actions, null) ?? {};
      const answers = [...earlier, ...fresh.map((a) => ({ ...a, at: ctx.now.toISOString() }))];
      const res = await trx
        .updateTable('lessons')
        .set({ actions: JSON.stringify({ ...stored, answers }), updatedAt: ctx.now.toISOString() })
        .where('id', '=', self.id)
        .where('actions', '=', self.actions)
        .executeTakeFirst();
      // Another request answered in between (PostgreSQL re-checks the WHERE after waiting).
      if (Number(res.numUpdatedRows) !== 1)
        throw new ApiError(409, 'INVALID_INPUTS', 'This question is already answered.');
      // The rules now see the answer: its target opens (CHOSEN_BY_ACTION), idempotently.
      await applyProgression(trx, [pair], ctx.now);
    }
    return targets[0]!.id;
  });
}
