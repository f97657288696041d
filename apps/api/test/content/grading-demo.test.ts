import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowValidator } from '@parcours/domain/exercises/solution';
import { blockSolutionSchema } from '@parcours/domain/exercises/solution';
import type { PageRow } from '@parcours/domain/exercises/grade-page';
import {
  ROW_POINTS,
  allAnswersEmpty,
  gradePage,
  pageContentSchema,
  pageRows,
  parsePageAnswers,
} from '@parcours/domain/exercises/grade-page';
import { exerciseRegistry } from '@parcours/domain/exercises/registry';
import { drawPageValues } from '@parcours/domain/exercises/datasets/formula';
import { computedFormulas, instantiateSolution } from '@parcours/domain/exercises/datasets/instantiate';
import type { BlockSolution } from '@parcours/domain/exercises/solution';
import { importFolder } from '../../src/content/importer';
import { parseJson } from '../../src/db/schema';
import type { TestDb } from './helpers';
import { DEMO, openTestDb } from './helpers';

/** What a learner who knows the answer sends, written the way a person would type or pick it. */
function learnerAnswer(v: RowValidator, style: 'plain' | 'typed'): unknown {
  switch (v.type) {
    case 'multiple-choice':
    case 'image-cliquable':
      return style === 'plain' ? v.expected : [...v.expected].reverse();
    case 'combined-choice':
      return v.expected;
    case 'drag-n-drop':
      return v.expected.map((list) => (style === 'plain' ? list : [...list].reverse()));
    case 'pick-words':
      return style === 'plain' ? v.expected.positions : v.expected.words;
    case 'free-answer':
      if (v.expected.kind === 'number')
        return style === 'plain'
          ? String(v.expected.value)
          : `${String(v.expected.value).replace('.', ',')} `;
      return style === 'plain' ? v.expected.accept[0] : ` ${v.expected.accept[0]!.toUpperCase()}.`;
  }
}

interface DemoPage {
  id: string;
  rows: PageRow[];
  solution: ReturnType<typeof blockSolutionSchema.parse>;
  hints: { cost: number }[];
}

/** A parametrised block (decision 0042) is graded with one learner's values: a draw stands in. */
function forOneLearner(solution: BlockSolution): BlockSolution {
  if (!solution.parameters) return solution;
  const values = drawPageValues(solution.parameters.datasets, computedFormulas(solution), 'demo-learner');
  return instantiateSolution(solution, values);
}

let t: TestDb;
let pages: DemoPage[];

beforeAll(async () => {
  t = await openTestDb();
  const report = await importFolder(t.db, DEMO, { filesDir: t.filesDir });
  expect(report.errors).toEqual([]);
  const blocks = await t.db
    .selectFrom('courseBlocks')
    .select(['id', 'content', 'settings', 'solution'])
    .execute();
  pages = blocks.map((b) => ({
    id: b.id,
    // Parsing with the domain schemas is itself a check: the stored format is what graders read.
    rows: pageRows(pageContentSchema.parse(parseJson(b.content, {}))),
    solution: forOneLearner(blockSolutionSchema.parse(parseJson(b.solution, {}))),
    hints: parseJson<{ hints: { cost: number }[] }>(b.settings, { hints: [] }).hints,
  }));
});
afterAll(async () => t.close());

describe('grading the demo content with its own expected answers', () => {
  it('covers every exercise type', () => {
    const types = new Set(pages.flatMap((p) => p.solution.validators.map((v) => v.type)));
    expect([...types].sort()).toEqual(Object.keys(exerciseRegistry).sort());
  });

  it.each(['plain', 'typed'] as const)('every exercise row scores 1 (%s answers)', (style) => {
    let graded = 0;
    for (const page of pages)
      for (const v of page.solution.validators) {
        const row = page.rows.find((r) => r.section === v.section && r.row === v.row);
        expect(row?.content.type, `${page.id} ${v.section}:${v.row}`).toBe(v.type);
        const grader = exerciseRegistry[v.type];
        const answer = learnerAnswer(v, style);
        expect(grader.answerSchema(row!.content).safeParse(answer).success, `${page.id} ${v.type}`).toBe(
          true,
        );
        expect(grader.grade(v.expected, answer, row!.content), `${page.id} ${v.type}`).toMatchObject({
          ratio: 1,
          correct: true,
        });
        graded++;
      }
    expect(graded).toBeGreaterThanOrEqual(30);
  });

  it('every exercise page scores full marks through parsePageAnswers and gradePage', () => {
    const exercisePages = pages.filter((p) => p.solution.validators.length > 0);
    expect(exercisePages.length).toBeGreaterThan(0);
    for (const page of exercisePages) {
      const raw = page.rows.map((r) => {
        const v = page.solution.validators.find((x) => x.section === r.section && x.row === r.row);
        return v ? learnerAnswer(v, 'typed') : null;
      });
      const parsed = parsePageAnswers(page.rows, raw);
      expect(parsed, page.id).toMatchObject({ ok: true });
      if (!parsed.ok) continue;
      expect(allAnswersEmpty(page.rows, parsed.answers)).toBe(false);
      const g = gradePage({
        rows: page.rows,
        solution: page.solution,
        answers: parsed.answers,
        hintsUsed: 0,
        hintCosts: page.hints.map((h) => h.cost),
        settings: { hints: true, feedbacks: true, retry: false },
      });
      const max = page.solution.validators.length * ROW_POINTS;
      expect(g.score, page.id).toEqual({ actual: max, max });
      expect(g.outcome).toBe('correct');
      expect(g.feedbacks.some((f) => f.message.length === 0)).toBe(false);
    }
  });

  it('an unanswered exercise page scores 0 and counts as all empty', () => {
    for (const page of pages.filter((p) => p.solution.validators.length > 0)) {
      const g = gradePage({
        rows: page.rows,
        solution: page.solution,
        answers: [],
        hintsUsed: 0,
        hintCosts: [],
        settings: { hints: true, feedbacks: true, retry: false },
      });
      expect(g.score.actual, page.id).toBe(0);
      expect(allAnswersEmpty(page.rows, [])).toBe(true);
    }
  });
});
