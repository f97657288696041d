import { describe, expect, it } from 'vitest';
import {
  bytesPerResponse,
  isDrawnPage,
  kilobytes,
  loadKey,
  pageRatio,
  roundPlan,
  type PageLoad,
} from './pages-figures';

const load = (rps: number): PageLoad => ({ rps, p50: 1, p99: 2, bytes: 100, errors: 0, non2xx: 0 });

describe('roundPlan', () => {
  it('runs every subject at every connection count, alternating from round to round', () => {
    const even = roundPlan(0).map(loadKey);
    expect(even).toEqual(['lessons@1', 'home@1', 'player@1', 'lessons@10', 'home@10', 'player@10']);
    expect(roundPlan(1).map(loadKey)).toEqual([
      'player@10',
      'home@10',
      'lessons@10',
      'player@1',
      'home@1',
      'lessons@1',
    ]);
    expect(roundPlan(2).map(loadKey)).toEqual(even);
  });
});

describe('figures', () => {
  it.each([
    [load(500), load(2000), 0.25],
    [load(0), load(2000), 0],
    [load(500), load(0), NaN],
    [undefined, load(2000), NaN],
    [load(500), undefined, NaN],
  ])('pageRatio(%o, %o) = %d', (page, reference, expected) => {
    expect(pageRatio(page, reference)).toBe(expected);
  });

  it.each([
    [12_000, 4, 3_000],
    [0, 0, NaN],
  ])('bytesPerResponse(%d, %d) = %d', (total, responses, expected) => {
    expect(bytesPerResponse(total, responses)).toBe(expected);
  });

  it('tells a drawn page from the shell', () => {
    expect(isDrawnPage('<div id="root" data-prerendered="signed-in"><h1>')).toBe(true);
    expect(isDrawnPage('<div id="root"><div class="boot">')).toBe(false);
    // The sign-in screen is drawn too, but for no learner.
    expect(isDrawnPage('<div id="root" data-prerendered="sign-in">')).toBe(false);
  });

  it('writes kilobytes', () => {
    expect(kilobytes(2048)).toBe('2.0 kB');
    expect(kilobytes(NaN)).toBe('n/a');
  });
});
