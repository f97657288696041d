import { describe, expect, it } from 'vitest';
import { ratingPercent, ratingScore, ratingStars, type StarFill } from './rating';

const F = 'full';
const H = 'half';
const E = 'empty';

describe.each<[number | null | undefined, number, StarFill[], number]>([
  [null, 0, [E, E, E], 0],
  [Number.NaN, 0, [E, E, E], 0],
  [-0.2, 0, [E, E, E], 0],
  [0, 0, [E, E, E], 0],
  [0.08, 0, [E, E, E], 8],
  [1 / 6, 0.5, [H, E, E], 16.7],
  [0.2, 0.5, [H, E, E], 20],
  [0.4, 1, [F, E, E], 40],
  [0.5, 1.5, [F, H, E], 50],
  [0.6, 1.5, [F, H, E], 60],
  [0.7, 2, [F, F, E], 70],
  [0.7333, 2, [F, F, E], 73.3],
  [0.8, 2, [F, F, E], 80],
  [5 / 6, 2.5, [F, F, H], 83.3],
  [0.99, 2.5, [F, F, H], 99],
  [1, 3, [F, F, F], 100],
  [1.4, 3, [F, F, F], 100],
])('rating of %s', (fraction, score, stars, percent) => {
  it(`scores ${score} stars`, () => expect(ratingScore(fraction)).toBe(score));
  it(`fills ${stars.join(' ')}`, () => expect(ratingStars(fraction)).toEqual(stars));
  it(`reads ${percent} %`, () => expect(ratingPercent(fraction)).toBe(percent));
});
