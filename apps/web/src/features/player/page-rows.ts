/**
 * The page's rows in reading order and the docs/product.md §5 no-answer rule, as in
 * packages/domain/src/exercises (pageRows, isEmptyAnswer, allAnswersEmpty). Restated here because
 * those modules build zod schemas when loaded, and zod would add about 28 kB gzip to the player
 * chunk for three small functions; page-rows.test.ts checks both agree.
 */
import {
  EXERCISE_TYPES,
  type BlockView,
  type ExerciseType,
  type PublicRowView,
} from '@parcours/domain/entities';

export interface PageRow {
  section: number;
  row: number;
  content: PublicRowView;
}

const exerciseTypes: ReadonlySet<string> = new Set(EXERCISE_TYPES);

export function isExerciseRow(type: unknown): type is ExerciseType {
  return typeof type === 'string' && exerciseTypes.has(type);
}

export function pageRows(content: BlockView['content']): PageRow[] {
  return content.sections.flatMap((s, section) =>
    s.rows.map((row, i) => ({ section, row: i, content: row })),
  );
}

/** null, a blank string, an empty list or only empty lists (drag-n-drop); index 0 is an answer. */
export function isBlank(answer: unknown): boolean {
  if (answer === null || answer === undefined) return true;
  if (typeof answer === 'string') return answer.trim() === '';
  if (Array.isArray(answer)) return answer.every(isBlank);
  return false;
}

export function allAnswersEmpty(rows: readonly PageRow[], answers: readonly unknown[]): boolean {
  return rows.every((r, i) => !isExerciseRow(r.content.type) || isBlank(answers[i]));
}
