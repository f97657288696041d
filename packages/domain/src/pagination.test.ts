import { describe, expect, it } from 'vitest';
import { DASHBOARD_PAGE_SIZE, LIMITS, clampPage, pageCount, pageOf, slicePage } from './pagination';

describe('constants', () => {
  it('match SPEC §9', () => {
    expect(DASHBOARD_PAGE_SIZE).toBe(5);
    expect(LIMITS).toEqual({ GLOBAL: 50, COMPETENCY: 20, CATEGORY: 50 });
  });
});

describe('pageCount', () => {
  it.each<[number, number | undefined, number]>([
    [0, undefined, 0],
    [-3, undefined, 0],
    [1, undefined, 1],
    [5, undefined, 1],
    [6, undefined, 2],
    [10, undefined, 2],
    [11, undefined, 3],
    [11, 10, 2],
    [1, 1, 1],
    [Number.NaN, undefined, 0],
  ])('%d items by %s → %d', (total, size, expected) => {
    expect(pageCount(total, size)).toBe(expected);
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('rejects page size %d', (size) => {
    expect(() => pageCount(10, size)).toThrow(RangeError);
  });
});

describe('pageOf', () => {
  it.each<[number, number | undefined, number]>([
    [0, undefined, 1],
    [4, undefined, 1],
    [5, undefined, 2],
    [9, undefined, 2],
    [10, undefined, 3],
    [-1, undefined, 1],
    [25, 10, 3],
    [Number.NaN, undefined, 1],
  ])('index %d by %s → page %d', (index, size, expected) => {
    expect(pageOf(index, size)).toBe(expected);
  });
});

describe('slicePage', () => {
  const items = Array.from({ length: 12 }, (_, i) => i);
  it.each<[number, number | undefined, number[]]>([
    [1, undefined, [0, 1, 2, 3, 4]],
    [2, undefined, [5, 6, 7, 8, 9]],
    [3, undefined, [10, 11]],
    [4, undefined, []],
    [0, undefined, []],
    [-1, undefined, []],
    [1.5, undefined, []],
    [2, 10, [10, 11]],
  ])('page %d by %s', (page, size, expected) => {
    expect(slicePage(items, page, size)).toEqual(expected);
  });

  it('an empty list has empty pages', () => {
    expect(slicePage([], 1)).toEqual([]);
  });

  it.each(Array.from({ length: 12 }, (_, i) => [i]))('index %d is on pageOf(index)', (index) => {
    expect(slicePage(items, pageOf(index))).toContain(index);
  });
});

describe('clampPage', () => {
  it.each<[number, number, number]>([
    [1, 0, 1],
    [3, 0, 1],
    [3, 12, 3],
    [4, 12, 3],
    [0, 12, 1],
    [-2, 12, 1],
    [2, 6, 2],
    [Number.NaN, 12, 1],
  ])('page %d of %d items → %d', (page, total, expected) => {
    expect(clampPage(page, total)).toBe(expected);
  });
});
