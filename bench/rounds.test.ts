import { describe, expect, it } from 'vitest';
import {
  benchRounds,
  fixed,
  littleRatio,
  machineText,
  median,
  roundOrder,
  spread,
  summarize,
  summaryText,
  targetText,
  verdict,
  worst,
} from './rounds';
import type { Better, Target } from './rounds';

/** toBeCloseTo, where NaN (nothing measured) expects NaN. */
function close(actual: number, expected: number, digits: number): void {
  if (Number.isNaN(expected)) expect(actual).toBeNaN();
  else expect(actual).toBeCloseTo(expected, digits);
}

describe('benchRounds', () => {
  it.each([
    { env: {}, rounds: 3 },
    { env: { BENCH_ROUNDS: '5' }, rounds: 5 },
    { env: { BENCH_ROUNDS: '1' }, rounds: 1 },
    { env: { BENCH_ROUNDS: '2.7' }, rounds: 2 },
    { env: { BENCH_ROUNDS: '0' }, rounds: 3 },
    { env: { BENCH_ROUNDS: 'many' }, rounds: 3 },
  ])('$env → $rounds', ({ env, rounds }) => {
    expect(benchRounds(env)).toBe(rounds);
  });
});

describe('roundOrder', () => {
  it.each([
    { items: ['floor', 'read'], round: 0, order: ['floor', 'read'] },
    { items: ['floor', 'read'], round: 1, order: ['read', 'floor'] },
    { items: ['floor', 'read'], round: 2, order: ['floor', 'read'] },
    { items: ['bare', 'a', 'b'], round: 3, order: ['b', 'a', 'bare'] },
    { items: ['only'], round: 1, order: ['only'] },
    { items: [], round: 1, order: [] },
  ])('round $round of $items', ({ items, round, order }) => {
    expect(roundOrder(items, round)).toEqual(order);
  });

  it('leaves the given list as it was', () => {
    const items = ['a', 'b'];
    roundOrder(items, 1);
    expect(items).toEqual(['a', 'b']);
  });
});

describe('median, spread, worst', () => {
  it.each([
    { values: [], median: NaN, spread: NaN, higher: NaN, lower: NaN },
    { values: [0.8], median: 0.8, spread: 0, higher: 0.8, lower: 0.8 },
    { values: [1.2, 0.8, 1.0], median: 1.0, spread: 0.4, higher: 0.8, lower: 1.2 },
    { values: [4, 1, 3, 2], median: 2.5, spread: 3, higher: 1, lower: 4 },
    { values: [5, 5, 5], median: 5, spread: 0, higher: 5, lower: 5 },
  ])('$values', ({ values, median: m, spread: s, higher, lower }) => {
    close(median(values), m, 10);
    close(spread(values), s, 10);
    expect(worst(values, 'higher')).toBe(higher);
    expect(worst(values, 'lower')).toBe(lower);
  });
});

describe('verdict: the median and the worst round both meet the target', () => {
  const atLeast: Target = { better: 'higher', limit: 0.9 };
  const atMost: Target = { better: 'lower', limit: 2 };
  it.each([
    { name: 'every round above', values: [0.95, 1.0, 0.92], target: atLeast, met: true },
    { name: 'a median above, one round below', values: [0.95, 1.0, 0.85], target: atLeast, met: false },
    { name: 'exactly at the limit', values: [0.9, 0.9, 0.9], target: atLeast, met: true },
    { name: 'all below', values: [0.79, 0.8, 0.81], target: atLeast, met: false },
    { name: 'latency, every round within', values: [1.2, 1.9, 2.0], target: atMost, met: true },
    { name: 'latency, one round over', values: [1.2, 1.3, 2.4], target: atMost, met: false },
    { name: 'nothing measured', values: [], target: atLeast, met: false },
    { name: 'a round that measured nothing', values: [1.0, NaN, 1.0], target: atLeast, met: false },
  ])('$name', ({ values, target, met }) => {
    expect(verdict(summarize(values, target.better), target)).toBe(met);
  });

  it('errors in a round miss the target whatever the figures', () => {
    expect(verdict(summarize([1, 1, 1], 'higher'), atLeast, false)).toBe(false);
  });
});

describe('texts', () => {
  it.each([
    {
      values: [0.95, 0.88, 1.0],
      better: 'higher' as Better,
      digits: 2,
      unit: '',
      text: 'median 0.95, worst 0.88, spread 0.12 (3 rounds: 0.95, 0.88, 1.00)',
    },
    {
      values: [41, 60],
      better: 'lower' as Better,
      digits: 0,
      unit: ' ms',
      text: 'median 51 ms, worst 60 ms, spread 19 ms (2 rounds: 41, 60)',
    },
    {
      values: [1.5],
      better: 'lower' as Better,
      digits: 1,
      unit: '',
      text: 'median 1.5, worst 1.5, spread 0.0 (1 round: 1.5)',
    },
    {
      values: [],
      better: 'higher' as Better,
      digits: 2,
      unit: '',
      text: 'median n/a, worst n/a, spread n/a (0 rounds: )',
    },
  ])('$text', ({ values, better, digits, unit, text }) => {
    expect(summaryText(summarize(values, better), digits, unit)).toBe(text);
  });

  it.each([
    { target: { better: 'higher', limit: 0.5 } as Target, unit: '', text: '≥ 0.5' },
    { target: { better: 'lower', limit: 50 } as Target, unit: ' ms', text: '≤ 50 ms' },
  ])('$text', ({ target, unit, text }) => {
    expect(targetText(target, unit)).toBe(text);
  });

  it.each([
    { value: 0.456, digits: 2, text: '0.46' },
    { value: 41.5, digits: 0, text: '42' },
    { value: NaN, digits: 2, text: 'n/a' },
    { value: Infinity, digits: 0, text: 'n/a' },
  ])('fixed($value, $digits) → $text', ({ value, digits, text }) => {
    expect(fixed(value, digits)).toBe(text);
  });

  it('machineText', () => {
    expect(machineText([12.345, 11, 5.9], [{ model: ' Intel Xeon ' }, { model: 'Intel Xeon' }])).toBe(
      'load average 12.35 / 11.00 / 5.90 (1/5/15 min), 2 × Intel Xeon',
    );
  });
});

describe("littleRatio: p99 over the mean wait (Little's law)", () => {
  it.each([
    // 100 connections at 2 000 answers/s wait 50 ms on average: a p99 of 100 ms is twice that.
    { p99: 100, rps: 2000, connections: 100, ratio: 2 },
    // The slow run: 194 ms at 1 169 answers/s (mean wait 85.5 ms).
    { p99: 194, rps: 1169, connections: 100, ratio: 2.268 },
    { p99: 10, rps: 2000, connections: 20, ratio: 1 },
    { p99: 50, rps: 0, connections: 100, ratio: NaN },
  ])('p99 $p99 ms at $rps/s, $connections connections', ({ p99, rps, connections, ratio }) => {
    close(littleRatio(p99, rps, connections), ratio, 3);
  });
});
