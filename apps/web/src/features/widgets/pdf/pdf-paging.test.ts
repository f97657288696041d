import { describe, expect, it } from 'vitest';
import { fitScale, pageForKey, parsePageInput, stepZoom } from './pdf-paging';

describe('pageForKey', () => {
  it.each([
    ['PageDown', 1, 3, 2],
    ['ArrowRight', 2, 3, 3],
    ['ArrowDown', 3, 3, 3],
    ['PageUp', 2, 3, 1],
    ['ArrowLeft', 1, 3, 1],
    ['ArrowUp', 3, 3, 2],
    ['Home', 3, 3, 1],
    ['End', 1, 3, 3],
    ['Enter', 1, 3, null],
    ['a', 1, 3, null],
  ])('%s on page %s of %s → %s', (key, page, count, expected) =>
    expect(pageForKey(key, page, count)).toBe(expected),
  );
});

describe('parsePageInput', () => {
  it.each([
    ['2', 3, 2],
    ['0', 3, 1],
    ['9', 3, 3],
    ['-4', 3, 1],
    ['', 3, null],
    ['abc', 3, null],
  ])('%j of %s → %s', (text, count, expected) => expect(parsePageInput(text, count)).toBe(expected));
});

describe('stepZoom', () => {
  it.each([
    [1, 1, 1.25],
    [1, -1, 0.75],
    [1.1, 1, 1.25],
    [1.1, -1, 1],
    [3, 1, 3],
    [0.5, -1, 0.5],
  ] as const)('%s step %s → %s', (scale, direction, expected) =>
    expect(stepZoom(scale, direction)).toBe(expected),
  );
});

describe('fitScale', () => {
  it.each([
    [800, 400, 2],
    [0, 400, 1],
    [100, 1000, 0.25],
    [10000, 100, 4],
  ])('frame %s, page %s → %s', (frame, page, expected) => expect(fitScale(frame, page)).toBe(expected));
});
