import { classUsersDoc, lesson } from '../../test/fixtures';
import {
  buildClassViews,
  competencyFamily,
  DEFAULT_FILTERS,
  filterClasses,
  nextOpeningDelay,
  type ClassView,
} from './model';

const NOW = new Date('2025-03-01T12:00:00Z');

const doc = classUsersDoc([
  {
    id: 'c1',
    name: 'Current',
    startAt: '2025-01-01T00:00:00Z',
    expireAt: '2025-12-31T00:00:00Z',
    teachers: ['Ana'],
    programs: [
      {
        id: 'p1',
        name: 'P1',
        courses: [
          { id: 'k1', title: 'K1', competencyIds: ['a'] },
          { id: 'k2', title: 'K2' },
        ],
      },
    ],
  },
  { id: 'c2', name: 'Tomorrow noon+', startAt: '2025-03-02T13:00:00Z', programs: [] },
  { id: 'c3', name: 'Starts in 3 h', startAt: '2025-03-01T15:00:00Z', programs: [] },
  { id: 'c4', name: 'Over', startAt: '2024-01-01T00:00:00Z', expireAt: '2025-01-01T00:00:00Z', programs: [] },
]);

describe('home model', () => {
  it('applies the class timing rules (a class starting within a day is current)', () => {
    const views = buildClassViews(doc, [], NOW);
    expect(views.map((v) => [v.id, v.period])).toEqual([
      ['c1', 'current'],
      ['c2', 'next'],
      ['c3', 'current'],
      ['c4', 'past'],
    ]);
    expect(views[0]!.teachers).toEqual(['Ana']);
  });

  it('joins lessons to courses and hides courses whose lesson is HIDDEN', () => {
    const views = buildClassViews(
      doc,
      [
        lesson('l1', 'c1', 'p1-k1', 'k1', { percentProgression: 50 }),
        lesson('l2', 'c1', 'p1-k2', 'k2', { state: 'HIDDEN' }),
      ],
      NOW,
    );
    const courses = views[0]!.programs[0]!.courses;
    expect(courses.map((c) => c.courseId)).toEqual(['k1']);
    expect(courses[0]!.lesson).toMatchObject({ id: 'l1', percent: 50, scorePercent: null });
  });

  it('filters by period', () => {
    const views = buildClassViews(doc, [], NOW);
    expect(filterClasses(views, DEFAULT_FILTERS).map((v) => v.id)).toEqual(['c1', 'c2', 'c3']);
    expect(filterClasses(views, { ...DEFAULT_FILTERS, period: 'next' }).map((v) => v.id)).toEqual(['c2']);
    expect(filterClasses(views, { ...DEFAULT_FILTERS, period: 'past' }).map((v) => v.id)).toEqual(['c4']);
  });

  it('filters by competency family and narrows the cards to matching courses', () => {
    const views = buildClassViews(doc, [], NOW);
    const family = [
      { id: 'root', parentId: null },
      { id: 'a', parentId: 'root' },
    ];
    expect([...competencyFamily('root', family)].sort()).toEqual(['a', 'root']);
    const result = filterClasses(views, { ...DEFAULT_FILTERS, competencyId: 'root' }, family);
    expect(result.map((v) => v.id)).toEqual(['c1']);
    expect(result[0]!.programs[0]!.courses.map((c) => c.courseId)).toEqual(['k1']);
  });
});

describe('home model: class timing refresh', () => {
  const view = (startAt: string | null, programStart: string | null = null): ClassView => ({
    id: 'c',
    name: 'C',
    startAt,
    expireAt: null,
    period: 'current',
    teachers: [],
    mobileAllowed: true,
    programs: [
      {
        classProgramId: 'cp',
        programId: 'p',
        name: 'P',
        courses: [],
        window: { startAt: programStart, expireAt: null },
      },
    ],
  });

  it('waits for the next class start plus 200 ms', () => {
    expect(nextOpeningDelay([view('2025-03-01T12:00:10Z'), view('2025-03-01T12:00:05Z')], NOW)).toBe(5_200);
  });

  it('also waits for a class-program that opens after its class', () => {
    expect(nextOpeningDelay([view('2025-01-01T00:00:00Z', '2025-03-01T12:01:00Z')], NOW)).toBe(60_200);
  });

  it('has nothing to wait for once everything has started', () => {
    expect(
      nextOpeningDelay([view('2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z'), view(null)], NOW),
    ).toBeNull();
  });
});
