/**
 * Decision 0009: a page's results tell the expected answers only once no further attempt of the
 * page can be graded. While a retry is open they say, per row and per item, what the learner
 * gave and whether it was right — never what they did not give.
 */
import type { PageResults } from '../entities';
import type { RowCorrection } from './registry';
import { exerciseRegistry, isExerciseType } from './registry';

/** A row's correction without its key (the type's own `withoutKey`); anything unknown is dropped. */
function rowWithoutKey(row: unknown): RowCorrection | null {
  const c = row as RowCorrection | null;
  if (!c || typeof c !== 'object' || !isExerciseType(c.type)) return null;
  const grader = exerciseRegistry[c.type] as { withoutKey(detail: unknown): unknown };
  return { ...c, detail: grader.withoutKey(c.detail) } as RowCorrection;
}

/**
 * The results as a page with a retry still open shows them. Kept: everything about what the
 * learner gave — right/wrong per row and item, the messages tied to their own picks or typed
 * answer — and the block's general feedbacks (docs/product.md §4: not answer-specific; the demo's are tips).
 * Withheld: a wrongly answered row's `incorrect` message (the `danger` one `gradePage` puts first
 * for the row), the answer-specific text where authors state the answer ("The European emergency
 * number is 112").
 */
export function withoutKey(results: PageResults): PageResults {
  const correction = results.correction.map(rowWithoutKey);
  const rightRow = (i: number | null) => i !== null && correction[i]?.correct === true;
  return {
    ...results,
    correction,
    feedbacks: results.feedbacks.filter(
      (f) => f.source === 'general' || rightRow(f.rowIndex) || f.preset !== 'danger',
    ),
    keyWithheld: true,
  };
}
