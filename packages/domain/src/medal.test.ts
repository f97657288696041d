import { describe, expect, it } from 'vitest';
import { medalColor, medalOf } from './medal';
import type { Medal, MedalColor } from './medal';

describe.each<[number | null | undefined, Medal | null, MedalColor]>([
  [null, null, 'danger'],
  [undefined, null, 'danger'],
  [Number.NaN, null, 'danger'],
  [0, null, 'danger'],
  [-0.2, null, 'danger'],
  [0.01, 'bronze', 'danger'],
  [0.2, 'bronze', 'danger'],
  [0.4999, 'bronze', 'danger'],
  [0.5, 'silver', 'warning'],
  [0.6, 'silver', 'warning'],
  [0.7499, 'silver', 'warning'],
  [0.75, 'gold', 'success'],
  [0.8, 'gold', 'success'],
  [1, 'gold', 'success'],
  [1.5, 'gold', 'success'],
])('ratio %d', (ratio, medal, color) => {
  it(`medal ${String(medal)}`, () => {
    expect(medalOf(ratio)).toBe(medal);
  });
  it(`colour ${color}`, () => {
    expect(medalColor(ratio)).toBe(color);
  });
});
