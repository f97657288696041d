import { describe, expect, it } from 'vitest';
import { lessonStateOf } from '../../../src/modules/lesson-pages/lesson-state';

/**
 * The one-statement read of an answer (decision 0016) comes back as joined rows: the lesson's
 * columns, the window's (`win…`) and a page's (`pg…`) on each. Splitting them is per answer, so
 * which columns are the lesson's is decided once per column name (the split must not depend on
 * which rows came first).
 */
const lessonCols = { id: 'l1', userId: 'u1', scoring: '{}' };
const window = {
  winClassStartAt: '2026-01-01',
  winClassExpireAt: null,
  winProgramId: 'cp1',
  winStartAt: null,
  winExpireAt: '2027-01-01',
  winOpeningBoundaries: '[]',
};
const pageRow = (id: string | null) => ({ pgId: id, pgNodeId: id && `n-${id}`, pgState: id && 'ACTIVE' });

describe('lessonStateOf', () => {
  it.each([
    { name: 'no row: not the viewer lesson', rows: [], lesson: undefined, pages: undefined },
    {
      name: 'a lesson without pages (left join: null page columns)',
      rows: [{ id: 'l1', userId: 'u1', ...window, ...pageRow(null) }],
      lesson: { id: 'l1', userId: 'u1' },
      pages: [],
    },
    {
      name: 'a row per page, the lesson columns repeated',
      rows: [
        { id: 'l1', userId: 'u1', ...window, ...pageRow('p1') },
        { id: 'l1', userId: 'u1', ...window, ...pageRow('p2') },
      ],
      lesson: { id: 'l1', userId: 'u1' },
      pages: ['p1', 'p2'],
    },
    {
      name: 'columns that only look prefixed stay the lesson’s (pg/win then a lower case letter)',
      rows: [{ ...lessonCols, pginfo: 1, window: 2, ...window, ...pageRow('p1') }],
      lesson: { id: 'l1', userId: 'u1', scoring: '{}', pginfo: 1, window: 2 },
      pages: ['p1'],
    },
  ])('$name', ({ rows, lesson, pages }) => {
    const state = lessonStateOf(rows);
    if (lesson === undefined) return expect(state).toBeUndefined();
    expect(state!.lesson).toEqual(lesson);
    expect(state!.pages.map((p) => p.id)).toEqual(pages);
    expect(state!.window).toEqual({
      classStartAt: '2026-01-01',
      classExpireAt: null,
      program: { startAt: null, expireAt: '2027-01-01', openingBoundaries: '[]' },
    });
  });
});
