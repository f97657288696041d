/**
 * Parametrised exercises (docs/product.md §3 CourseBlock `datasets`, LessonPage `sheet.datasetComputed`):
 * an author gives each variable a list of values or a range; each learner's page draws one value
 * per variable, once, when the page is created, and keeps it (the server stores the draw in the
 * page's sheet). The draw is seeded (by the page id) so it is reproducible in tests and audits.
 */
import { z } from 'zod';

/** Variable and computed-value names: what a formula and a `{{name}}` placeholder can refer to. */
export const VALUE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
export const MAX_VARIABLES = 20;
/** A range draws among at most this many steps: a typo such as step 0.0001 is refused, not looped over. */
export const MAX_RANGE_STEPS = 100_000;

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const variableSchema = z.union([
  z.strictObject({ values: z.array(finite).min(1, 'at least one value').max(1000) }),
  z
    .strictObject({
      min: finite,
      max: finite,
      step: finite.refine((s) => s > 0, 'step must be above 0').default(1),
    })
    .refine((r) => r.max >= r.min, 'max must not be below min')
    .refine((r) => (r.max - r.min) / r.step <= MAX_RANGE_STEPS, `at most ${MAX_RANGE_STEPS} steps`),
]);
export type Variable = z.infer<typeof variableSchema>;

export const datasetsSchema = z
  .record(z.string().regex(VALUE_NAME, 'a name is a letter or _ then letters, digits or _'), variableSchema)
  .refine((d) => Object.keys(d).length <= MAX_VARIABLES, `at most ${MAX_VARIABLES} variables`);
export type Datasets = z.infer<typeof datasetsSchema>;

/** Drawn and computed values by name: what a page's `sheet.datasetComputed` holds. */
export type DatasetValues = Record<string, number>;

/** FNV-1a: a 32-bit seed from any string (a page id). */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and well distributed enough to pick exercise numbers (not for secrets). */
export function seededRandom(seed: string): () => number {
  let a = hash32(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Binary floating point makes 0.1 × 3 read 0.30000000000000004: values keep 12 significant digits. */
export function tidy(n: number): number {
  return Number(n.toPrecision(12));
}

function pick(v: Variable, random: () => number): number {
  if ('values' in v) return v.values[Math.floor(random() * v.values.length)]!;
  const steps = Math.floor((v.max - v.min) / v.step + 1e-9);
  return tidy(v.min + Math.floor(random() * (steps + 1)) * v.step);
}

/** One value per variable, in the order the author wrote them, from `seed`. */
export function drawDataset(datasets: Datasets, seed: string): DatasetValues {
  const random = seededRandom(seed);
  const out: DatasetValues = {};
  for (const [name, v] of Object.entries(datasets)) out[name] = pick(v, random);
  return out;
}
