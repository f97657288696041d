import { timeAccommodationSchema } from '@parcours/domain/time-accommodation';
import { choiceOf, factorsFor, inputOf } from './accommodation-choice';
import type { TimeAccommodationView } from './api';

const view = (timeFactor: number | null, noTimeLimit = false): TimeAccommodationView => ({
  timeFactor,
  noTimeLimit,
});

describe('accommodation choice (decision 0019)', () => {
  it.each<[string, TimeAccommodationView, string]>([
    ['none', view(null), 'none'],
    ['×1 stored', view(1), 'none'],
    ['×1.5', view(1.5), '1.5'],
    ['×1.33 from content', view(1.33), '1.33'],
    ['no limit', view(null, true), 'unlimited'],
  ])('%s → %s', (_label, a, choice) => {
    expect(choiceOf(a)).toBe(choice);
    // Round trip: the choice sends back what is stored, and the route's schema takes it.
    const input = inputOf(choice);
    expect(timeAccommodationSchema.safeParse(input).success).toBe(true);
    expect(choiceOf({ timeFactor: input.timeFactor, noTimeLimit: input.noTimeLimit })).toBe(choice);
  });

  it.each<[string, TimeAccommodationView, number[]]>([
    ['the usual factors', view(null), [1.25, 1.5, 2, 3, 4]],
    ['one of them', view(2), [1.25, 1.5, 2, 3, 4]],
    ['plus the learner’s own', view(1.33), [1.25, 1.33, 1.5, 2, 3, 4]],
    ['no limit adds none', view(null, true), [1.25, 1.5, 2, 3, 4]],
  ])('%s', (_label, a, factors) => {
    expect(factorsFor(a)).toEqual(factors);
  });
});
