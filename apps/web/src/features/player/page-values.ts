/**
 * A parametrised exercise shows the learner's own values (docs/product.md §3 `sheet.datasetComputed`,
 * decision 0042): every `{{name}}` of the block's statement and rows is replaced by that value,
 * written the learner's way (decimal comma in French). Kept per block object, so a render does
 * not build a new block (and redraw its rows) unless the page document changed.
 */
import type { BlockView, LessonPageAttributes } from '@parcours/domain/entities';
import { fillDeep } from '@parcours/domain/exercises/datasets/placeholders';

const filled = new WeakMap<BlockView, { key: string; block: BlockView }>();

export function withPageValues(
  block: BlockView,
  sheet: LessonPageAttributes['sheet'],
  language: string,
): BlockView {
  const values = sheet?.datasetComputed ?? {};
  if (!block.content.datasetNames || Object.keys(values).length === 0) return block;
  const key = `${language}\u0000${JSON.stringify(values)}`;
  const hit = filled.get(block);
  if (hit?.key === key) return hit.block;
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 6 });
  const out: BlockView = {
    ...block,
    title: fillDeep(block.title, values, (n) => format.format(n)),
    content: fillDeep(block.content, values, (n) => format.format(n)),
  };
  filled.set(block, { key, block: out });
  return out;
}
