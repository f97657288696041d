import { describe, expect, it } from 'vitest';
import type { LessonState, PageProgress } from './entities';
import {
  certificateAvailable,
  lessonHasEnded,
  nodeCompletedShare,
  progressColor,
  progressionPercent,
  scorePercent,
  scoreRatio,
} from './progress';
import type { ProgressColor } from './progress';

describe('lessonHasEnded', () => {
  it.each<[LessonState, PageProgress | null, boolean]>([
    ['SKIPPED', null, true],
    ['SKIPPED', 'ONGOING', true],
    ['AVAILABLE', 'COMPLETED', true],
    ['DONE', 'COMPLETED', true],
    ['DONE', null, false],
    ['AVAILABLE', 'ONGOING', false],
    ['AVAILABLE', null, false],
    ['EXPIRED', 'ONGOING', false],
    ['LOCKED', null, false],
    ['HIDDEN', null, false],
  ])('%s / %s → %s', (state, progress, expected) => {
    expect(lessonHasEnded({ state, progress })).toBe(expected);
  });
});

describe('certificateAvailable', () => {
  it.each<[LessonState, PageProgress | null, string | null, boolean]>([
    ['AVAILABLE', 'COMPLETED', 'CERT-1', true],
    ['SKIPPED', null, 'CERT-1', true],
    ['AVAILABLE', 'COMPLETED', null, false],
    ['AVAILABLE', 'COMPLETED', '', false],
    ['AVAILABLE', 'COMPLETED', '  ', false],
    ['AVAILABLE', 'ONGOING', 'CERT-1', false],
    ['DONE', null, 'CERT-1', false],
  ])('%s / %s / %j → %s', (state, progress, certificationRef, expected) => {
    expect(certificateAvailable({ state, progress, certificationRef })).toBe(expected);
  });
});

const pages = (...progress: (PageProgress | null)[]) =>
  progress.map((p, i) => ({ nodeId: `n${i}`, progress: p }));

describe('nodeCompletedShare', () => {
  it.each<[string, ReturnType<typeof pages>, number]>([
    ['no pages', pages(), 0],
    ['one completed', pages('COMPLETED'), 1],
    ['one ongoing', pages('ONGOING'), 0.5],
    ['one untouched', pages(null), 0],
    ['completed + untouched', pages('COMPLETED', null), 0.5],
    ['ongoing + untouched', pages('ONGOING', null), 0.25],
    ['completed + ongoing + untouched + untouched', pages('COMPLETED', 'ONGOING', null, null), 0.375],
    ['all completed', pages('COMPLETED', 'COMPLETED', 'COMPLETED'), 1],
  ])('%s → %d', (_label, list, expected) => {
    expect(nodeCompletedShare(list)).toBeCloseTo(expected, 12);
  });
});

describe('progressionPercent', () => {
  const node = (list: ReturnType<typeof pages>, order = 0) => ({
    nodeId: `s${order}`,
    title: null,
    order,
    pages: list,
  });
  it.each<[string, ReturnType<typeof node>[], number]>([
    ['empty tree', [], 0],
    ['one node without pages', [node(pages())], 0],
    ['one node fully done', [node(pages('COMPLETED', 'COMPLETED'))], 100],
    ['one node half done', [node(pages('COMPLETED', null))], 50],
    ['ongoing counts half', [node(pages('ONGOING'))], 50],
    ['mean over nodes, not pages', [node(pages('COMPLETED')), node(pages(null, null, null))], 50],
    ['a page-less node still counts as 0', [node(pages('COMPLETED')), node(pages())], 50],
    ['thirds round to nearest', [node(pages('COMPLETED')), node(pages(null)), node(pages(null))], 33],
    ['two thirds round up', [node(pages('COMPLETED')), node(pages('COMPLETED')), node(pages(null))], 67],
    [
      '68.75 rounds up',
      [
        node(pages('COMPLETED', 'ONGOING', null, null)),
        node(pages('COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED')),
      ],
      69,
    ],
    ['12.5 rounds up', [node(pages('ONGOING', null)), node(pages(null))], 13],
    [
      'half a percent from a long tree rounds up',
      [
        node(pages('ONGOING', ...Array<null>(9).fill(null))),
        ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => node(pages(null), i)),
      ],
      1,
    ],
    [
      '1/8 of one node of 5',
      [node(pages('ONGOING', null, null, null)), ...[1, 2, 3, 4].map((i) => node(pages(null), i))],
      3,
    ],
    ['all completed', [node(pages('COMPLETED')), node(pages('COMPLETED', 'COMPLETED'))], 100],
  ])('%s → %i', (_label, tree, expected) => {
    expect(progressionPercent(tree)).toBe(expected);
  });
});

describe('scoreRatio', () => {
  it.each<[number, number, number]>([
    [5, 10, 0.5],
    [0, 10, 0],
    [10, 10, 1],
    [12, 10, 1],
    [-3, 10, 0],
    [5, 0, 0],
    [5, -10, 0],
    [0, 0, 0],
    [Number.NaN, 10, 0],
    [5, Number.NaN, 0],
    [5, Number.POSITIVE_INFINITY, 0],
    [1, 3, 1 / 3],
  ])('%d / %d → %d', (actual, max, expected) => {
    expect(scoreRatio({ actual, max })).toBeCloseTo(expected, 12);
  });
});

describe('scorePercent', () => {
  it.each<[number, number, number | null]>([
    [5, 10, 50],
    [10, 10, 100],
    [0, 10, 0],
    [1, 3, 33],
    [2, 3, 66],
    [999, 1000, 99],
    [0.57, 1, 57],
    [0.29, 1, 29],
    [5, 0, null],
    [5, -1, null],
    [Number.NaN, 10, null],
  ])('%d / %d → %j', (actual, max, expected) => {
    expect(scorePercent({ actual, max })).toBe(expected);
  });
});

describe('progressColor', () => {
  it.each<[number | null | undefined, ProgressColor]>([
    [0, 'danger'],
    [0.49, 'danger'],
    [0.5, 'primary'],
    [0.99, 'primary'],
    [1, 'success'],
    [1.2, 'success'],
    [-1, 'danger'],
    [Number.NaN, 'danger'],
    [null, 'danger'],
    [undefined, 'danger'],
  ])('%d → %s', (ratio, expected) => {
    expect(progressColor(ratio)).toBe(expected);
  });
});
