/**
 * A parametrised block's solution for one learner (decision 0042): each row whose expected answer
 * is a formula gets the answer computed from that learner's values, so the graders stay the same
 * for every block. Server side only (imports the formula parser).
 */
import type { BlockSolution, RowValidator } from '../solution';
import type { DatasetValues } from './draw';
import type { Formula } from './formula';
import { FormulaError, parseFormula, parseParameters } from './formula';

/** Row types whose expected answer may be a formula: a number (with a tolerance) and a choice index. */
export const FORMULA_ROW_TYPES: ReadonlySet<string> = new Set(['free-answer', 'combined-choice']);

interface Parsed {
  computed: [string, Formula][];
  byValidator: Map<RowValidator, Formula>;
}

// A cached block's solution is parsed once; its formulas are compiled once with it.
const parsedSolutions = new WeakMap<BlockSolution, Parsed>();

function parsed(solution: BlockSolution): Parsed {
  let p = parsedSolutions.get(solution);
  if (p) return p;
  const params = solution.parameters ?? { datasets: {}, computed: {} };
  const parameters = parseParameters(params.datasets, params.computed);
  if (!parameters.ok) throw new FormulaError(`${parameters.name}: ${parameters.message}`);
  const byValidator = new Map<RowValidator, Formula>();
  for (const v of solution.validators) {
    if (v.formula === undefined) continue;
    const f = parseFormula(v.formula, parameters.names);
    if (!f.ok) throw new FormulaError(`section ${v.section} row ${v.row}: ${f.message}`);
    byValidator.set(v, f.formula);
  }
  parsedSolutions.set(solution, (p = { computed: parameters.computed, byValidator }));
  return p;
}

/** The compiled computed formulas of a solution (empty for a block without parameters). */
export function computedFormulas(solution: BlockSolution): readonly [string, Formula][] {
  return parsed(solution).computed;
}

export function isParametrised(solution: BlockSolution): boolean {
  return solution.parameters !== undefined && Object.keys(solution.parameters.datasets).length > 0;
}

function instantiate(v: RowValidator, f: Formula, values: DatasetValues): RowValidator {
  const result = f.evaluate(values);
  const { formula: _formula, ...rest } = v;
  if (rest.type === 'free-answer') {
    const tolerance = rest.expected.kind === 'number' ? rest.expected.tolerance : 0;
    return { ...rest, expected: { kind: 'number', value: result, tolerance } };
  }
  if (rest.type === 'combined-choice') {
    if (!Number.isInteger(result) || result < 0)
      throw new FormulaError(`${f.text} gives ${result}, not a choice index`);
    return { ...rest, expected: result };
  }
  throw new FormulaError(`a ${rest.type} row cannot have a formula`);
}

/** The solution with the learner's expected answers in place of the formulas. */
export function instantiateSolution(solution: BlockSolution, values: DatasetValues): BlockSolution {
  const { byValidator } = parsed(solution);
  if (byValidator.size === 0) return solution;
  return {
    ...solution,
    validators: solution.validators.map((v) => {
      const f = byValidator.get(v);
      return f ? instantiate(v, f, values) : v;
    }),
  };
}
