/**
 * Parametrised exercises in the player (decision 0042): a page's values are drawn when the page
 * is created and kept in its `sheet`, so a reload, another device or a later grading sees the
 * same numbers; grading uses the expected answers computed from them; the page document shows
 * only the values the block's statement and rows name until the key may be shown.
 */
import { randomUUID } from 'node:crypto';
import type { DatasetValues } from '@parcours/domain/exercises/datasets/draw';
import { drawPageValues } from '@parcours/domain/exercises/datasets/formula';
import {
  computedFormulas,
  instantiateSolution,
  isParametrised,
} from '@parcours/domain/exercises/datasets/instantiate';
import type { BlockSolution } from '@parcours/domain/exercises/solution';
import { parseJson } from '../../db/schema';
import type { BlockContent, ContentCache } from './content-cache';
import type { PageRow } from './repository';

export interface PageSheet {
  /** docs/product.md §3 LessonPage `sheet.datasetComputed`: the drawn variables and the computed values. */
  datasetComputed?: DatasetValues;
}

/** The sheet of a new page of `content`'s block (JSON text): its draw, or `{}` for a block without datasets. */
export function newSheet(cache: ContentCache, content: BlockContent | null): string {
  if (!content) return '{}';
  const { solution } = cache.grading(content);
  if (!isParametrised(solution)) return '{}';
  const values = drawPageValues(solution.parameters!.datasets, computedFormulas(solution), randomUUID());
  return JSON.stringify({ datasetComputed: values } satisfies PageSheet);
}

export function valuesOf(page: Pick<PageRow, 'sheet'>): DatasetValues {
  const v = parseJson<PageSheet>(page.sheet, {}).datasetComputed;
  return v && typeof v === 'object' ? v : {};
}

/**
 * The learner's values on `page`: its stored draw; for a page created before its block had
 * datasets (a re-import), a draw seeded by the page id, so what it shows and how it is graded agree.
 */
export function pageValues(solution: BlockSolution, page: Pick<PageRow, 'sheet' | 'id'>): DatasetValues {
  if (!isParametrised(solution)) return {};
  const values = valuesOf(page);
  const p = solution.parameters!;
  const needed = [...Object.keys(p.datasets), ...Object.keys(p.computed)];
  return needed.every((n) => typeof values[n] === 'number')
    ? values
    : drawPageValues(p.datasets, computedFormulas(solution), page.id);
}

/** The solution this learner's answer is graded with: expected answers from their own values. */
export function solutionFor(solution: BlockSolution, page: Pick<PageRow, 'sheet' | 'id'>): BlockSolution {
  return isParametrised(solution) ? instantiateSolution(solution, pageValues(solution, page)) : solution;
}

/** What the page document carries of the sheet: every value once the key shows, before that the named ones. */
export function sheetView(
  values: DatasetValues,
  answered: boolean,
  shownNames: readonly string[] | undefined,
  keyShown: boolean,
): { datasetComputed: DatasetValues } {
  if (answered && keyShown) return { datasetComputed: values };
  const shown: DatasetValues = {};
  for (const n of shownNames ?? []) if (typeof values[n] === 'number') shown[n] = values[n];
  return { datasetComputed: shown };
}
