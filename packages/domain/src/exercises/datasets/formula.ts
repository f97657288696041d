/**
 * Formulas of parametrised exercises (docs/product.md §3 CourseBlock `datasetsComputed`, decision 0042):
 * parsed by mathjs's expression parser, then accepted only if every node of the parsed tree is
 * on a short list — numbers, the block's value names, arithmetic, comparisons, a condition
 * `a ? b : c` and a few number functions. Nothing else reaches evaluation: no assignment, no
 * function definition, no property access, no matrix, no string, no unit, no `import`. Server
 * side only (the web app never imports this file: mathjs stays out of its bundles).
 */
import { all, create } from 'mathjs/number';
import type { MathNode } from 'mathjs';
import type { Datasets, DatasetValues } from './draw';
import { drawDataset, tidy } from './draw';

// mathjs types `all` as possibly undefined for its number build; it is always there.
const math = create(all!);

/** Number functions a formula may call. */
export const FORMULA_FUNCTIONS: ReadonlySet<string> = new Set([
  'abs',
  'ceil',
  'floor',
  'round',
  'min',
  'max',
  'sqrt',
  'pow',
  'mod',
]);

const OPERATORS: ReadonlySet<string> = new Set([
  'add',
  'subtract',
  'multiply',
  'divide',
  'pow',
  'mod',
  'unaryMinus',
  'unaryPlus',
  'smaller',
  'smallerEq',
  'larger',
  'largerEq',
  'equal',
  'unequal',
  'and',
  'or',
  'not',
]);

export const MAX_FORMULA_LENGTH = 500;

export interface Formula {
  readonly text: string;
  /** The value names it reads. */
  readonly names: readonly string[];
  evaluate(values: Readonly<DatasetValues>): number;
}

export type ParsedFormula = { ok: true; formula: Formula } | { ok: false; message: string };

/** Why `node` is refused, or null when it is allowed. */
function refusal(node: MathNode, known: ReadonlySet<string>, parent: MathNode | null): string | null {
  switch (node.type) {
    case 'ConstantNode':
      return typeof (node as unknown as { value: unknown }).value === 'number'
        ? null
        : 'only numbers are allowed';
    case 'ParenthesisNode':
    case 'ConditionalNode':
      return null;
    case 'OperatorNode': {
      const fn = (node as unknown as { fn: string }).fn;
      return OPERATORS.has(fn)
        ? null
        : `the operator ${(node as unknown as { op: string }).op} is not allowed`;
    }
    case 'FunctionNode': {
      const fn = (node as unknown as { fn: MathNode; name: string }).fn;
      if (fn.type !== 'SymbolNode') return 'only named functions can be called';
      const name = (node as unknown as { name: string }).name;
      return FORMULA_FUNCTIONS.has(name) ? null : `unknown function ${name}`;
    }
    case 'SymbolNode': {
      const name = (node as unknown as { name: string }).name;
      // The name of a called function is a SymbolNode under its FunctionNode.
      if (parent?.type === 'FunctionNode' && (parent as unknown as { fn: MathNode }).fn === node) return null;
      return known.has(name) ? null : `unknown value ${name}`;
    }
    default:
      return `${node.type.replace(/Node$/, '').toLowerCase()} expressions are not allowed`;
  }
}

/** Parses `text` over the value names `known`; refuses anything beyond plain arithmetic on them. */
export function parseFormula(text: string, known: ReadonlySet<string>): ParsedFormula {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, message: 'a formula is required' };
  if (text.length > MAX_FORMULA_LENGTH)
    return { ok: false, message: `a formula has at most ${MAX_FORMULA_LENGTH} characters` };
  let root: MathNode;
  try {
    root = math.parse(text);
  } catch (e) {
    return { ok: false, message: `cannot read the formula: ${(e as Error).message}` };
  }
  let problem: string | null = null;
  const names = new Set<string>();
  root.traverse((node, _path, parent) => {
    if (problem) return;
    problem = refusal(node, known, parent);
    if (!problem && node.type === 'SymbolNode' && known.has((node as unknown as { name: string }).name))
      names.add((node as unknown as { name: string }).name);
  });
  if (problem) return { ok: false, message: problem };
  const compiled = root.compile();
  return {
    ok: true,
    formula: {
      text,
      names: [...names],
      evaluate(values) {
        // A Map scope: the values are looked up by name only, never on an object's prototype.
        const scope = new Map<string, number>();
        for (const n of names) {
          if (!Object.hasOwn(values, n)) throw new FormulaError(`${text}: no value for ${n}`);
          scope.set(n, values[n]!);
        }
        const result: unknown = compiled.evaluate(scope);
        const n = typeof result === 'boolean' ? Number(result) : result;
        if (typeof n !== 'number' || !Number.isFinite(n))
          throw new FormulaError(`${text} gives ${String(result)} with ${JSON.stringify(values)}`);
        return tidy(n);
      },
    },
  };
}

export class FormulaError extends Error {}

/** `datasetsComputed`: computed values by name, each formula over the variables and the computed values before it. */
export type ComputedFormulas = Record<string, string>;

export type ParsedParameters =
  | { ok: true; names: Set<string>; computed: [string, Formula][] }
  | { ok: false; name: string; message: string };

/** Parses every computed formula in order; `name` says which one is wrong. */
export function parseParameters(datasets: Datasets, computed: ComputedFormulas): ParsedParameters {
  const names = new Set(Object.keys(datasets));
  const out: [string, Formula][] = [];
  for (const [name, text] of Object.entries(computed)) {
    if (names.has(name))
      return { ok: false, name, message: `${name} is already a variable or a computed value` };
    const parsed = parseFormula(text, names);
    if (!parsed.ok) return { ok: false, name, message: parsed.message };
    out.push([name, parsed.formula]);
    names.add(name);
  }
  return { ok: true, names, computed: out };
}

/** The drawn variables with every computed value added, in order. */
export function computeValues(drawn: DatasetValues, computed: readonly [string, Formula][]): DatasetValues {
  const values = { ...drawn };
  for (const [name, f] of computed) values[name] = f.evaluate(values);
  return values;
}

/** A page's values: the draw from `seed`, then the computed values. */
export function drawPageValues(
  datasets: Datasets,
  computed: readonly [string, Formula][],
  seed: string,
): DatasetValues {
  return computeValues(drawDataset(datasets, seed), computed);
}
