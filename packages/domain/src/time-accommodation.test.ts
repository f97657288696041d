import { describe, expect, it } from 'vitest';
import {
  accommodatedLimit,
  accommodationOf,
  mostGenerousAccommodation,
  timeAccommodationSchema,
} from './time-accommodation';
import type { TimeAccommodation } from './time-accommodation';

const x = (factor: number | null): TimeAccommodation => ({ factor, unlimited: false });
const UNLIMITED: TimeAccommodation = { factor: null, unlimited: true };

describe('accommodatedLimit', () => {
  it.each<[string, number | null | undefined, TimeAccommodation | undefined, number | null]>([
    ['no accommodation given', 60, undefined, 60],
    ['factor null means ×1', 60, x(null), 60],
    ['factor 1 keeps the limit', 60, x(1), 60],
    ['×1.5 of 60 s', 60, x(1.5), 90],
    ['×1.5 of 45 s rounds 67.5 up', 45, x(1.5), 68],
    ['×1.33 of 10 s rounds 13.3 up', 10, x(1.33), 14],
    ['×1.1 of 60 s is 66, not 67 (binary fractions)', 60, x(1.1), 66],
    ['×1.15 of 20 s is 23', 20, x(1.15), 23],
    ['×4 of 30 s', 30, x(4), 120],
    ['×2 of 1 s', 1, x(2), 2],
    ['a factor below 1 never shortens', 60, x(0.5), 60],
    ['a factor above 4 is capped', 60, x(10), 240],
    ['a non-finite factor counts as ×1', 60, x(Number.NaN), 60],
    ['no limit in the content', null, x(1.5), null],
    ['undefined limit', undefined, x(1.5), null],
    ['zero is no limit', 0, x(1.5), null],
    ['negative is no limit', -5, x(2), null],
    ['unlimited learner', 60, UNLIMITED, null],
    ['unlimited wins over a factor', 60, { factor: 2, unlimited: true }, null],
    ['unlimited and no limit', null, UNLIMITED, null],
  ])('%s', (_label, limit, acc, expected) => {
    expect(accommodatedLimit(limit, acc)).toBe(expected);
  });
});

describe('accommodationOf (stored columns)', () => {
  it.each<[string, Parameters<typeof accommodationOf>[0], TimeAccommodation]>([
    ['SQLite flag 0', { timeFactor: 1.5, noTimeLimit: 0 }, { factor: 1.5, unlimited: false }],
    ['SQLite flag 1', { timeFactor: null, noTimeLimit: 1 }, { factor: null, unlimited: true }],
    [
      'no enrolment row (left join)',
      { timeFactor: null, noTimeLimit: null },
      { factor: null, unlimited: false },
    ],
    ['boolean', { timeFactor: undefined, noTimeLimit: true }, { factor: null, unlimited: true }],
  ])('%s', (_label, row, expected) => {
    expect(accommodationOf(row)).toEqual(expected);
  });
});

describe('timeAccommodationSchema', () => {
  it.each<[string, unknown, boolean]>([
    ['×1.5', { timeFactor: 1.5, noTimeLimit: false }, true],
    ['×1', { timeFactor: 1, noTimeLimit: false }, true],
    ['×1.15 (two decimals)', { timeFactor: 1.15, noTimeLimit: false }, true],
    ['×1.33', { timeFactor: 1.33, noTimeLimit: false }, true],
    ['×4', { timeFactor: 4, noTimeLimit: false }, true],
    ['removed', { timeFactor: null, noTimeLimit: false }, true],
    ['no limit', { timeFactor: null, noTimeLimit: true }, true],
    ['no limit with ×1', { timeFactor: 1, noTimeLimit: true }, true],
    ['below 1', { timeFactor: 0.9, noTimeLimit: false }, false],
    ['above 4', { timeFactor: 4.01, noTimeLimit: false }, false],
    ['three decimals', { timeFactor: 1.333, noTimeLimit: false }, false],
    ['a factor and no limit', { timeFactor: 2, noTimeLimit: true }, false],
    ['a string factor', { timeFactor: '1.5', noTimeLimit: false }, false],
    ['missing flag', { timeFactor: 1.5 }, false],
    ['extra key', { timeFactor: 1.5, noTimeLimit: false, userId: 'x' }, false],
  ])('%s', (_label, input, ok) => {
    expect(timeAccommodationSchema.safeParse(input).success).toBe(ok);
  });
});

describe('mostGenerousAccommodation (node mode: several enrolments)', () => {
  it.each<[string, TimeAccommodation[], TimeAccommodation]>([
    ['no enrolment', [], x(null)],
    ['one without accommodation', [x(null)], x(null)],
    ['×1 is no accommodation', [x(1), x(null)], x(null)],
    ['one ×1.5', [x(1.5)], x(1.5)],
    ['×1.5 and ×2 give ×2', [x(1.5), x(2)], x(2)],
    ['order does not matter', [x(2), x(1.5), x(null)], x(2)],
    ['none beside ×1.25', [x(null), x(1.25)], x(1.25)],
    ['no limit beats any factor', [x(4), UNLIMITED, x(2)], UNLIMITED],
    ['no limit alone', [UNLIMITED], UNLIMITED],
    ['a factor with the flag still means no limit', [{ factor: 2, unlimited: true }], UNLIMITED],
    ['a factor above 4 counts as 4', [x(10), x(3)], x(4)],
    ['a factor below 1 never shortens', [x(0.5)], x(null)],
    ['a non-finite factor counts as ×1', [x(Number.NaN), x(Number.POSITIVE_INFINITY)], x(null)],
  ])('%s', (_label, all, expected) => {
    expect(mostGenerousAccommodation(all)).toEqual(expected);
  });

  it('its result gives the largest limit of any of them', () => {
    const all = [x(1.5), x(2), x(null)];
    const best = accommodatedLimit(30, mostGenerousAccommodation(all));
    expect(best).toBe(Math.max(...all.map((a) => accommodatedLimit(30, a) ?? 0)));
    expect(best).toBe(60);
  });
});
