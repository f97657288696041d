import { describe, expect, it } from 'vitest';
import { hashKey, partialMatchKey, replaceEqualDeep, type QueryKey } from './keys';

describe('hashKey', () => {
  it.each<[string, QueryKey, QueryKey, boolean]>([
    // why, a, b, same hash
    ['same strings', ['home', 'lessons'], ['home', 'lessons'], true],
    ["an object's key order", ['a', { x: 1, y: 2 }], ['a', { y: 2, x: 1 }], true],
    [
      'nested objects in any order',
      [{ f: { b: [1, { d: 1, c: 2 }], a: 1 } }],
      [{ f: { a: 1, b: [1, { c: 2, d: 1 }] } }],
      true,
    ],
    ['an array is ordered', ['a', 'b'], ['b', 'a'], false],
    ['a nested array is ordered', [{ ids: [1, 2] }], [{ ids: [2, 1] }], false],
    ['a number and its string', ['level', 1], ['level', '1'], false],
    ['a prefix is another key', ['home'], ['home', 'lessons'], false],
    ['a different value', ['a', { x: 1 }], ['a', { x: 2 }], false],
    // As JSON (and TanStack Query): a property set to undefined is no property.
    ['an undefined property', ['a', { x: 1, y: undefined }], ['a', { x: 1 }], true],
  ])('%s', (_why, a, b, same) => {
    expect(hashKey(a) === hashKey(b)).toBe(same);
  });

  it('is the JSON of the key with sorted object keys', () => {
    expect(hashKey(['a', { b: 1, a: [true, null] }])).toBe('["a",{"a":[true,null],"b":1}]');
  });
});

describe('partialMatchKey', () => {
  it.each<[string, unknown, unknown, boolean]>([
    // why, key, filter, matches
    ['the same key', ['home', 'lessons', 'u1'], ['home', 'lessons', 'u1'], true],
    ['a prefix', ['home', 'lessons', 'u1'], ['home'], true],
    ['a longer prefix', ['home', 'lessons', 'u1'], ['home', 'lessons'], true],
    ['the empty filter', ['home', 'lessons', 'u1'], [], true],
    ['a longer filter', ['home'], ['home', 'lessons', 'u1'], false],
    ['another first element', ['homework', 'lessons'], ['home'], false],
    ['a later element differs', ['home', 'lessons', 'u1'], ['home', 'lessons', 'u2'], false],
    ['a subset of an object', ['stats', { user: 'u1', period: 'week' }], ['stats', { user: 'u1' }], true],
    [
      'an object property differs',
      ['stats', { user: 'u1', period: 'week' }],
      ['stats', { user: 'u2' }],
      false,
    ],
    ['a property the key lacks', ['stats', { user: 'u1' }], ['stats', { user: 'u1', period: 'week' }], false],
    ['a nested subset', ['a', { f: { x: 1, y: 2 } }], ['a', { f: { x: 1 } }], true],
    ['a number against its string', ['level', 1], ['level', '1'], false],
    ['an object against a string', ['a', { id: 1 }], ['a', 'id'], false],
    ['null against an object', ['a', null], ['a', {}], false],
    ['an object against null', ['a', {}], ['a', null], false],
    ['null against null', ['a', null], ['a', null], true],
  ])('%s', (_why, key, filter, matches) => {
    expect(partialMatchKey(key, filter)).toBe(matches);
  });
});

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('replaceEqualDeep', () => {
  it.each<[string, unknown, unknown]>([
    ['a plain object', { a: 1, b: 'x' }, { a: 1, b: 'x' }],
    ['an object in another key order', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['an array', [1, 2, 3], [1, 2, 3]],
    [
      'nested objects and arrays',
      { list: [{ id: 1, tags: ['a'] }], meta: { n: 1 } },
      { list: [{ id: 1, tags: ['a'] }], meta: { n: 1 } },
    ],
    ['an undefined-valued key', { a: 1, b: undefined }, { a: 1, b: undefined }],
    ['an empty object', {}, {}],
    ['an object without prototype', Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 }],
  ])('keeps the previous reference for an equal %s', (_what, previous, next) => {
    expect(replaceEqualDeep(previous, next)).toBe(previous);
  });

  it.each<[string, unknown, unknown]>([
    ['a different number', 1, 2],
    ['a string for a number', 1, '1'],
    ['an array for an object', { 0: 'a' }, ['a']],
    ['an object for null', null, {}],
    ['a new object for undefined', undefined, { a: 1 }],
  ])('returns the next value for %s', (_what, previous, next) => {
    expect(replaceEqualDeep(previous, next)).toBe(next);
  });

  it('gives a new top object for a changed leaf, keeping its unchanged siblings', () => {
    const previous = { user: { name: 'Ada' }, lessons: [{ id: 1 }, { id: 2, done: false }], total: 2 };
    const next = { user: { name: 'Ada' }, lessons: [{ id: 1 }, { id: 2, done: true }], total: 2 };
    const shared = replaceEqualDeep(previous, next);
    expect(shared).toEqual(next);
    expect(shared).not.toBe(previous);
    expect(shared).not.toBe(next);
    expect(shared.user).toBe(previous.user);
    expect(shared.lessons).not.toBe(previous.lessons);
    expect(shared.lessons[0]).toBe(previous.lessons[0]);
    // The changed element itself is rebuilt from the next answer's parts.
    expect(shared.lessons[1]).not.toBe(previous.lessons[1]);
    expect(shared.lessons[1]).toEqual({ id: 2, done: true });
  });

  it.each([
    ['longer', [{ id: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }, { id: 3 }]],
    ['shorter', [{ id: 1 }, { id: 2 }], [{ id: 1 }]],
    ['empty', [{ id: 1 }], []],
  ])('makes a new array for a %s one, keeping the equal elements', (_how, previous, next) => {
    const shared = replaceEqualDeep(previous, next);
    expect(shared).not.toBe(previous);
    expect(Array.isArray(shared)).toBe(true);
    expect(shared).toEqual(next);
    shared.forEach((element, index) => {
      if (index < previous.length) expect(element).toBe(previous[index]);
    });
  });

  it.each<[string, object, object]>([
    ['a Date', new Date(0), new Date(0)],
    ['a class instance', new Point(1, 2), new Point(1, 2)],
    ['a Map', new Map([['a', 1]]), new Map([['a', 1]])],
  ])(
    'replaces %s, even an equal one (only plain objects and arrays are compared)',
    (_what, previous, next) => {
      expect(replaceEqualDeep(previous, next)).toBe(next);
      const shared = replaceEqualDeep({ at: previous, n: 1 }, { at: next, n: 1 });
      expect(shared.at).toBe(next);
    },
  );

  it.each<[string, object, object]>([
    ['a key that becomes undefined', { a: 1, b: 2 }, { a: 1, b: undefined }],
    ['an undefined key that appears', { a: 1 }, { a: 1, b: undefined }],
    ['an undefined key that goes', { a: 1, b: undefined }, { a: 1 }],
    ['an undefined key renamed', { a: undefined }, { b: undefined }],
  ])('sees %s as a change', (_what, previous, next) => {
    const shared = replaceEqualDeep(previous, next);
    expect(shared).not.toBe(previous);
    expect(shared).toStrictEqual(next);
  });
});
