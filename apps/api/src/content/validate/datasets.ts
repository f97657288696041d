/**
 * Parametrised blocks (docs/product.md §3 `datasets`, `datasetsComputed`; decision 0042): every formula is
 * parsed in the formula library's safe subset, every `{{name}}` names a value, and the formulas
 * are tried on sample draws so a division by zero or an index out of range fails the import with
 * its path instead of a learner's page.
 */
import { drawDataset } from '@parcours/domain/exercises/datasets/draw';
import type { Formula } from '@parcours/domain/exercises/datasets/formula';
import {
  computeValues,
  FormulaError,
  parseFormula,
  parseParameters,
} from '@parcours/domain/exercises/datasets/formula';
import { FORMULA_ROW_TYPES } from '@parcours/domain/exercises/datasets/instantiate';
import { placeholderNamesDeep } from '@parcours/domain/exercises/datasets/placeholders';
import type { BlockFile } from '../format';
import type { Push } from '../issues';

/** Sample draws tried at import (a range's ends are not guaranteed: the check is a safety net, not a proof). */
const SAMPLE_DRAWS = 64;

type Row = BlockFile['sections'][number]['rows'][number];

function rowFormula(row: Row): string | undefined {
  if (row.type === 'free-answer' && 'formula' in row.expected) return row.expected.formula;
  if (row.type === 'combined-choice' && typeof row.expected !== 'number') return row.expected.formula;
  return undefined;
}

export function validateDatasets(blk: BlockFile, bp: string, cf: string, push: Push): void {
  const rows = blk.sections.flatMap((s, si) =>
    s.rows.map((row, ri) => ({ row, rp: `${bp}.sections[${si}].rows[${ri}]` })),
  );
  if (!blk.datasets) {
    if (Object.keys(blk.datasetsComputed).length)
      push(cf, `${bp}.datasetsComputed`, 'computed values need datasets');
    for (const { row, rp } of rows)
      if (rowFormula(row) !== undefined)
        push(cf, `${rp}.expected.formula`, 'a formula needs the block to have datasets');
    return;
  }
  if (Object.keys(blk.datasets).length === 0)
    push(cf, `${bp}.datasets`, 'datasets need at least one variable');
  const params = parseParameters(blk.datasets, blk.datasetsComputed);
  if (!params.ok) {
    push(cf, `${bp}.datasetsComputed.${params.name}`, params.message);
    return;
  }
  const unknownNames = (value: unknown, p: string) => {
    for (const n of placeholderNamesDeep(value))
      if (!params.names.has(n)) push(cf, p, `{{${n}}} names no variable or computed value`);
  };
  if (blk.statement) unknownNames(blk.statement.html, `${bp}.statement.html`);
  if (blk.table) unknownNames(blk.table, `${bp}.table`);

  const checks: { formula: Formula; path: string; choices: number | null }[] = [];
  for (const { row, rp } of rows) {
    unknownNames(row, rp);
    const text = rowFormula(row);
    if (text === undefined) continue;
    if (!FORMULA_ROW_TYPES.has(row.type)) continue;
    const parsed = parseFormula(text, params.names);
    if (!parsed.ok) push(cf, `${rp}.expected.formula`, parsed.message);
    else
      checks.push({
        formula: parsed.formula,
        path: `${rp}.expected.formula`,
        choices: row.type === 'combined-choice' ? row.choices.length : null,
      });
  }

  const failed = new Set<string>();
  for (let i = 0; i < SAMPLE_DRAWS; i++) {
    let values;
    try {
      values = computeValues(drawDataset(blk.datasets, `import-check-${i}`), params.computed);
    } catch (e) {
      if (!(e instanceof FormulaError)) throw e;
      push(cf, `${bp}.datasetsComputed`, e.message);
      return;
    }
    for (const c of checks) {
      if (failed.has(c.path)) continue;
      try {
        const v = c.formula.evaluate(values);
        if (c.choices !== null && (!Number.isInteger(v) || v < 0 || v >= c.choices)) {
          failed.add(c.path);
          push(
            cf,
            c.path,
            `gives ${v} with ${JSON.stringify(values)}: not a choice index (0 to ${c.choices - 1})`,
          );
        }
      } catch (e) {
        if (!(e instanceof FormulaError)) throw e;
        failed.add(c.path);
        push(cf, c.path, e.message);
      }
    }
  }
}
