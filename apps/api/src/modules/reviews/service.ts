import { COMMENT_MAX, MAX_RATING } from '@parcours/domain/constants';
import type { Db, DbKind } from '../../db/db';
import { newId } from '../../lib/ids';
import { ApiError } from '../../plugins/errors';
import { writeTx } from '../../db/tx';
import type { Viewer } from '../scope';
import { uniqueViolation } from '../../db/constraint-errors';
import { completedProgram, followsProgram, insertReview } from './repository';
import type { ReviewRow } from './repository';

export { COMMENT_MAX };

/** The ratios a 1..5 rating gives (docs/product.md §3, §9: ratio = rating / 5): 0.2, 0.4, 0.6, 0.8, 1. */
export const REVIEW_RATIOS: readonly number[] = Array.from(
  { length: MAX_RATING },
  (_, i) => (i + 1) / MAX_RATING,
);

/** A ratio is accepted when it is one of those, give or take float noise from the client. */
export function isRatingRatio(ratio: number): boolean {
  return REVIEW_RATIOS.some((r) => Math.abs(r - ratio) < 1e-9);
}

export interface NewReview {
  classId: string;
  comment?: string | null | undefined;
  resourceType: 'program';
  resourceId: string;
  ratio: number;
}

/**
 * One review per learner and program (docs/product.md §2 /evaluate), from a learner of the class who has
 * completed the program's end (docs/product.md §4; decision 0009): a program not started or not finished,
 * or a teacher of the class, is refused with 403. The unique index on
 * (user_id, resource_type, resource_id) decides between two concurrent submissions: the loser
 * gets 409 BAD_REQUEST, never a 500 nor a second row.
 */
export async function createReview(
  db: Db,
  kind: DbKind,
  v: Viewer,
  input: NewReview,
  now: Date,
): Promise<ReviewRow> {
  if (!(await followsProgram(db, v, input.classId, input.resourceId))) {
    throw new ApiError(403, 'Forbidden', 'You can only evaluate a program of one of your classes.', {
      pointer: '/resourceId',
    });
  }
  if (!(await completedProgram(db, v, input.classId, input.resourceId))) {
    throw new ApiError(403, 'Forbidden', 'You can evaluate a program once you have completed it.', {
      pointer: '/resourceId',
    });
  }
  const ratio = REVIEW_RATIOS.find((r) => Math.abs(r - input.ratio) < 1e-9) ?? input.ratio;
  const comment = input.comment?.trim() ? input.comment : null;
  const row: ReviewRow = {
    id: newId(),
    contextId: v.contextId,
    userId: v.userId,
    classId: input.classId,
    resourceType: input.resourceType,
    resourceId: input.resourceId,
    ratio,
    comment,
    createdAt: now.toISOString(),
  };
  try {
    await writeTx(db, kind, (trx) => insertReview(trx, row));
  } catch (err) {
    if (uniqueViolation(err))
      throw new ApiError(409, 'BAD_REQUEST', 'You have already evaluated this program.');
    throw err;
  }
  return row;
}
