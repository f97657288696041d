import { windowPhase } from '@parcours/domain/class-timing';
import { LESSON_STATES } from '@parcours/domain/entities';
import type { LessonState } from '@parcours/domain/entities';
import { nextLessonState } from '@parcours/domain/lesson-state';
import type { Db, DbKind } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import { writeTx } from '../../db/tx';
import { applyProgression, lessonsOfPrograms, loadProgramContexts } from '../progression/rules';
import type { LessonRow } from '../progression/rules';
import { notFound } from '../scope';

export interface ResetContext {
  db: Db;
  kind: DbKind;
  contextId: string;
  userId: string;
  now: Date;
}

const STATES = new Set<string>(LESSON_STATES);

/**
 * POST /class-programs/{id}/reset/me: the learner restarts a program. In one transaction, their
 * lessons of it take the RESET event (then the unlock rules: the first course AVAILABLE, the
 * others LOCKED), lose progress, scores, answers to questions and certification; their pages are
 * ARCHIVED — kept, never deleted, so earlier answers stay in the database and XP already earned
 * stays earned. Only while the program's window is open (else 403).
 */
export async function resetMyProgram(ctx: ResetContext, classProgramId: string): Promise<LessonRow[]> {
  return writeTx(ctx.db, ctx.kind, async (trx) => {
    const pair = { userId: ctx.userId, classProgramId };
    const lessons = (await lessonsOfPrograms(trx, [pair])).filter((l) => l.contextId === ctx.contextId);
    if (lessons.length === 0) throw notFound('Class program');
    const contexts = await loadProgramContexts(trx, [classProgramId]);
    const program = contexts.get(classProgramId);
    if (!program) throw notFound('Class program');
    const phase = windowPhase(program.window, ctx.now);
    if (phase !== 'open')
      throw new ApiError(
        403,
        'Forbidden',
        phase === 'closed' ? 'This program is closed.' : 'This program has not started yet.',
      );

    const iso = ctx.now.toISOString();
    const ids = lessons.map((l) => l.id);
    await trx
      .updateTable('lessonPages')
      .set({ state: 'ARCHIVED', updatedAt: iso })
      .where('lessonId', 'in', ids)
      .where('state', '!=', 'ARCHIVED')
      .execute();
    // One UPDATE per state the lessons go to (LOCKED, and HIDDEN for a window not open), not one
    // per lesson: under load on PostgreSQL each statement is a round trip inside the transaction.
    const byNextState = new Map<LessonState, string[]>();
    for (const l of lessons) {
      const state: LessonState = STATES.has(l.state) ? (l.state as LessonState) : 'LOCKED';
      const next = nextLessonState(state, 'RESET');
      byNextState.set(next, [...(byNextState.get(next) ?? []), l.id]);
    }
    for (const [state, lessonIds] of byNextState) {
      await trx
        .updateTable('lessons')
        .set({
          state,
          progress: null,
          scoring: JSON.stringify({ global: { actual: 0, max: 0 } }),
          actions: JSON.stringify({ interactive: [], unlockedLessons: [] }),
          isEndOfProgram: 0,
          certificationRef: null,
          currentNodeId: null,
          startedAt: null,
          endedAt: null,
          timeSpent: 0,
          timeAlive: 0,
          updatedAt: iso,
        })
        .where('id', 'in', lessonIds)
        .execute();
    }
    // Read once in this transaction: a reset changes lessons, never the program.
    await applyProgression(trx, [pair], ctx.now, contexts);
    return lessonsOfPrograms(trx, [pair]);
  });
}
