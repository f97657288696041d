import { describe, expect, it } from 'vitest';
import {
  categoryPercent,
  competencyLevels,
  competencyWidgetPadding,
  type CompetencyNode,
  type PointSums,
} from './dashboard-levels';

function node(id: string, parentId: string | null = null, order = 0): CompetencyNode {
  return { id, parentId, title: id, icon: null, order, isGeneric: false };
}

const sums = (entries: [string, number, number][]) =>
  new Map<string, PointSums>(entries.map(([id, actual, max]) => [id, { actual, max }]));

describe('competencyLevels', () => {
  it.each<
    [string, CompetencyNode[], [string, number, number][], [string, number, number, number, string | null][]]
  >([
    [
      'no results: every competency, no medal',
      [node('a'), node('b', null, 1)],
      [],
      [
        ['a', 0, 0, 0, null],
        ['b', 0, 0, 0, null],
      ],
    ],
    [
      'one leaf per medal',
      [node('a', null, 0), node('b', null, 1), node('c', null, 2)],
      [
        ['a', 2, 10],
        ['b', 5, 10],
        ['c', 9, 10],
      ],
      [
        ['a', 2, 10, 0.2, 'bronze'],
        ['b', 5, 10, 0.5, 'silver'],
        ['c', 9, 10, 0.9, 'gold'],
      ],
    ],
    [
      'children roll up into their parent, which comes first',
      [node('c2', 'p', 2), node('p'), node('c1', 'p', 1)],
      [
        ['p', 1, 2],
        ['c1', 3, 4],
        ['c2', 0, 4],
      ],
      [
        ['p', 4, 10, 0.4, 'bronze'],
        ['c1', 3, 4, 0.75, 'gold'],
        ['c2', 0, 4, 0, null],
      ],
    ],
    [
      'grandchildren roll up twice',
      [node('g', 'c'), node('c', 'r'), node('r')],
      [['g', 3, 4]],
      [
        ['r', 3, 4, 0.75, 'gold'],
        ['c', 3, 4, 0.75, 'gold'],
        ['g', 3, 4, 0.75, 'gold'],
      ],
    ],
    ['an unknown parent makes a root', [node('x', 'gone')], [['x', 1, 1]], [['x', 1, 1, 1, 'gold']]],
    [
      'a cycle does not loop',
      [node('a', 'b'), node('b', 'a'), node('r')],
      [['a', 1, 2]],
      [['r', 0, 0, 0, null]],
    ],
  ])('%s', (_, nodes, given, expected) => {
    const levels = competencyLevels(nodes, sums(given));
    expect(levels.map((l) => [l.id, l.actual, l.max, l.ratio, l.medal])).toEqual(expected);
  });

  it('gives each row its depth', () => {
    const levels = competencyLevels([node('r'), node('c', 'r'), node('g', 'c')], new Map());
    expect(levels.map((l) => l.depth)).toEqual([0, 1, 2]);
  });

  it('keeps at most LIMITCOMPETENCY children per parent and LIMITGLOBAL rows', () => {
    const many = [node('r'), ...Array.from({ length: 30 }, (_, i) => node(`c${i}`, 'r', i))];
    expect(competencyLevels(many, new Map())).toHaveLength(1 + 20);
    const roots = Array.from({ length: 70 }, (_, i) => node(`r${i}`, null, i));
    expect(competencyLevels(roots, new Map())).toHaveLength(50);
    expect(competencyLevels(roots, new Map(), { perParent: 5, total: 3 }).map((l) => l.id)).toEqual([
      'r0',
      'r1',
      'r2',
    ]);
  });
});

describe.each<[number, number, number]>([
  [0, 0, 0],
  [5, 0, 0],
  [0, 10, 0],
  [1, 3, 33],
  [57, 100, 57],
  [2, 3, 66],
  [10, 10, 100],
  [12, 10, 100],
  [Number.NaN, 10, 0],
])('categoryPercent(%s / %s)', (actual, max, percent) => {
  it(`is ${percent}`, () => expect(categoryPercent({ actual, max })).toBe(percent));
});

describe('medal colour on levels (SPEC §4: below 0.5 danger, below 0.75 warning, else success)', () => {
  it.each<[number, number, string]>([
    [0, 0, 'danger'],
    [0, 10, 'danger'],
    [4.9, 10, 'danger'],
    [5, 10, 'warning'],
    [7.4, 10, 'warning'],
    [7.5, 10, 'success'],
    [10, 10, 'success'],
  ])('%s / %s is %s', (actual, max, color) => {
    expect(competencyLevels([node('a')], sums([['a', actual, max]]))[0]?.color).toBe(color);
  });
});

describe('generic competencies are reported down to the reporting level (SPEC §9, default 1)', () => {
  const generic = (id: string, parentId: string | null = null, order = 0): CompetencyNode => ({
    ...node(id, parentId, order),
    isGeneric: parentId === null,
  });
  const tree = [
    generic('g'),
    generic('g1', 'g'),
    generic('g11', 'g1'),
    node('s'),
    node('s1', 's'),
    node('s11', 's1'),
  ];
  it.each<[string, number | undefined, string[]]>([
    ['default level 1', undefined, ['g', 'g1', 's', 's1', 's11']],
    ['level 0: the generic root only', 0, ['g', 's', 's1', 's11']],
    ['level 2: everything', 2, ['g', 'g1', 'g11', 's', 's1', 's11']],
  ])('%s', (_name, level, ids) => {
    const limits = { perParent: 20, total: 50 };
    const levels =
      level === undefined
        ? competencyLevels(tree, sums([['g11', 3, 4]]))
        : competencyLevels(tree, sums([['g11', 3, 4]]), limits, level);
    expect(levels.map((l) => l.id)).toEqual(ids);
    // A hidden competency's points still count in its ancestors.
    expect(levels.find((l) => l.id === 'g')).toMatchObject({ actual: 3, max: 4, medal: 'gold' });
  });
});

describe('competencyWidgetPadding (SPEC §9)', () => {
  it.each<[number, string]>([
    [0, '80px'],
    [1, '80px'],
    [3, '200px'],
    [4, '140px'],
    [6, '200px'],
    [8, '140px'],
    [12, '140px'],
    [7, '80px'],
  ])('%s competencies: %s', (count, padding) => {
    expect(competencyWidgetPadding(count)).toBe(padding);
  });
});
