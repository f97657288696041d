import { emptyBatch } from './tables';
import { generateLearners } from './learners';
import type { GenerateOptions } from './learners';
import type { Template } from './template';
import type { Writer } from './writers';

export { readTemplate } from './template';
export type { Template } from './template';
export { learnerEmail, learnerId } from './learners';
export { postgresWriter, sqliteWriter } from './writers';
export type { Writer } from './writers';

/** Learners per transaction: big enough to amortise a commit, small enough to keep memory flat. */
const BATCH = 2_000;

/**
 * Writes learners `from`..`to`-1 (see generateLearners) through `writer`, BATCH per transaction.
 * Returns the lesson pages written.
 */
export async function generate(
  writer: Writer,
  template: Template,
  from: number,
  to: number,
  opts: GenerateOptions,
): Promise<{ pages: number }> {
  let pages = 0;
  for (let start = from; start < to; start += BATCH) {
    const batch = emptyBatch();
    pages += generateLearners(template, start, Math.min(to, start + BATCH), opts, batch);
    await writer.write(batch);
  }
  return { pages };
}
