/**
 * The home keeps of each lesson only what it shows: the query cache (and so a drawn home's data
 * and the device's kept copy) holds no page tree, no actions, no relationships.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { classUsersDoc, lesson } from '../../../test/fixtures';
import { buildClassViews } from '../model';
import { HOME_LESSON_FIELDS, homeLesson, lessonsQueryOptions } from './get-lessons';

const NOW = new Date('2026-06-01T00:00:00.000Z');

/** A lesson as the API answers it, its tree and actions filled in. */
const full = (overrides: Parameters<typeof lesson>[4] = {}) => ({
  ...lesson('l-1', 'c1', 'p1-k1', 'k1', {
    currentNodeId: 'n-2',
    enabledSectionIds: ['s-1'],
    tree: [
      {
        nodeId: 's-1',
        title: 'Section',
        order: 0,
        pages: [
          { nodeId: 'n-1', progress: 'COMPLETED' },
          { nodeId: 'n-2', progress: 'ONGOING' },
        ],
      },
    ],
    actions: { interactive: [], unlockedLessons: [{ id: 'l-2', title: 'Next' }] },
    ...overrides,
  }),
  relationships: { course: { data: { type: 'courses', id: 'k1' } } },
});

afterEach(() => vi.unstubAllGlobals());

describe("the home's lessons", () => {
  it('keep only the fields the home shows', () => {
    const kept = homeLesson(full());
    expect(Object.keys(kept)).toEqual(['type', 'id', 'attributes']);
    expect(Object.keys(kept.attributes).sort()).toEqual([...HOME_LESSON_FIELDS].sort());
    expect(JSON.stringify(kept)).not.toMatch(/tree|actions|enabledSectionIds|relationships/);
  });

  it.each([
    ['not started', {}],
    [
      'started, half done, scored',
      {
        startedAt: '2026-05-01T00:00:00.000Z',
        percentProgression: 50,
        scoring: { global: { actual: 3, max: 4 } },
      },
    ],
    ['completed', { progress: 'COMPLETED' as const, percentProgression: 100 }],
    ['skipped', { state: 'SKIPPED' as const }],
    ['hidden', { state: 'HIDDEN' as const }],
    ['locked', { state: 'LOCKED' as const }],
  ])('draw the same class cards as the whole lesson: %s', (_, overrides) => {
    const classes = classUsersDoc([
      { id: 'c1', name: 'Class 1', programs: [{ id: 'p1', name: 'P', courses: [{ id: 'k1', title: 'K' }] }] },
    ]);
    const whole = full(overrides);
    expect(buildClassViews(classes, [homeLesson(whole)], NOW)).toEqual(
      buildClassViews(classes, [whole], NOW),
    );
  });

  it('are what the query keeps of the API answer', async () => {
    setToken('token');
    mockApi({ lessons: { body: { data: [full()], meta: { total: 1 } } } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const data = await client.fetchQuery(lessonsQueryOptions('u-1'));
    expect(data).toEqual([homeLesson(full())]);
    expect(
      JSON.stringify(
        client
          .getQueryCache()
          .getAll()
          .map((query) => query.state.data),
      ),
    ).not.toContain('tree');
  });
});
