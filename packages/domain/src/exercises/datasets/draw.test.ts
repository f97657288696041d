import { describe, expect, it } from 'vitest';
import { datasetsSchema, drawDataset, seededRandom, tidy } from './draw';

describe('drawDataset', () => {
  it.each([
    // seed, datasets, expected draw (fixed by the seed: a change here changes every learner's numbers)
    ['page-1', { prix: { values: [40, 60, 80] } }, { prix: 40 }],
    ['page-2', { prix: { values: [40, 60, 80] } }, { prix: 80 }],
    ['page-1', { remise: { min: 10, max: 30, step: 5 } }, { remise: 15 }],
    ['page-3', { x: { min: 0.1, max: 0.3, step: 0.1 } }, { x: 0.2 }],
    ['any', { seul: { values: [7] } }, { seul: 7 }],
    ['any', { r: { min: 5, max: 5, step: 1 } }, { r: 5 }],
  ])('%s draws %j', (seed, datasets, expected) => {
    expect(drawDataset(datasetsSchema.parse(datasets), seed)).toEqual(expected);
  });

  it('draws the same values for the same seed and different values across seeds', () => {
    const d = datasetsSchema.parse({
      prix: { min: 20, max: 200, step: 1 },
      remise: { values: [10, 15, 20, 25] },
    });
    expect(drawDataset(d, 'p')).toEqual(drawDataset(d, 'p'));
    const draws = new Set(Array.from({ length: 50 }, (_, i) => JSON.stringify(drawDataset(d, `p${i}`))));
    expect(draws.size).toBeGreaterThan(40);
  });

  it('stays inside the range, on its steps, and reaches both ends', () => {
    const d = datasetsSchema.parse({ v: { min: 1.5, max: 3, step: 0.5 } });
    const seen = new Set(Array.from({ length: 200 }, (_, i) => drawDataset(d, `s${i}`).v));
    expect([...seen].sort()).toEqual([1.5, 2, 2.5, 3]);
  });

  it('gives numbers in [0, 1)', () => {
    const r = seededRandom('x');
    for (let i = 0; i < 1000; i++) {
      const n = r();
      expect(n >= 0 && n < 1).toBe(true);
    }
  });

  it('keeps 12 significant digits', () => {
    expect(tidy(0.1 * 3)).toBe(0.3);
    expect(tidy(80 * 0.85)).toBe(68);
  });
});

describe('datasetsSchema', () => {
  it.each([
    [{ '1x': { values: [1] } }, 'a name'],
    [{ x: { values: [] } }, 'at least one value'],
    [{ x: { min: 3, max: 1 } }, 'max must not be below min'],
    [{ x: { min: 0, max: 1, step: 0 } }, 'step must be above 0'],
    [{ x: { min: 0, max: 1, step: 0.000001 } }, 'steps'],
    [{ x: { values: ['a'] } }, ''],
    [{ x: { min: 0, max: 1, extra: 1 } }, ''],
  ])('refuses %j', (input, message) => {
    const r = datasetsSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain(message);
  });
});
