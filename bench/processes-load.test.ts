import { describe, expect, it } from 'vitest';
import type { CallStats } from './learners-load';
import { sideBySide, summarise } from './processes-load';
import { nextBackend } from './proxy';

const stats = (ms: number[], errors = 0): CallStats => ({ ms, errors, statuses: new Map() });

describe('nextBackend', () => {
  it.each([
    { backends: ['a'], counter: 0, pick: 'a' },
    { backends: ['a'], counter: 7, pick: 'a' },
    { backends: ['a', 'b'], counter: 0, pick: 'a' },
    { backends: ['a', 'b'], counter: 1, pick: 'b' },
    { backends: ['a', 'b'], counter: 2, pick: 'a' },
    { backends: ['a', 'b', 'c'], counter: 5, pick: 'c' },
  ])('$backends, request $counter → $pick', ({ backends, counter, pick }) => {
    expect(nextBackend(backends, counter)).toBe(pick);
  });

  it('refuses an empty list', () => {
    expect(() => nextBackend([], 0)).toThrow('no backend');
  });
});

describe('summarise and sideBySide', () => {
  it('counts errors as requests and keeps every call of either run, sorted', () => {
    const one = summarise(new Map([['GET b', stats([1, 2, 3], 1)]]));
    const many = summarise(
      new Map([
        ['GET b', stats([4])],
        ['GET a', stats([], 2)],
      ]),
    );
    expect(one.get('GET b')).toMatchObject({ requests: 4, errors: 1 });
    const rows = sideBySide(one, many);
    expect(rows.map((r) => r.call)).toEqual(['GET a', 'GET b']);
    expect(rows[0]!.one).toBeUndefined();
    expect(rows[0]!.many).toMatchObject({ requests: 2, errors: 2 });
    expect(rows[1]!.many).toMatchObject({ requests: 1, errors: 0 });
  });
});
