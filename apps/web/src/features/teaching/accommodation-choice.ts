import type { TimeAccommodationInput } from '@parcours/domain/time-accommodation';
import type { TimeAccommodationView } from './api';

/**
 * The teacher's choice of a learner's time accommodation, as one select (decision 0019): none,
 * a few usual factors, or no limit. A factor set otherwise (content, ×1.33) is offered as it is.
 */
export const COMMON_FACTORS = [1.25, 1.5, 2, 3, 4] as const;

/** The select's value: 'none', 'unlimited' or the factor as text ('1.5'). */
export type Choice = string;

export function choiceOf(a: TimeAccommodationView): Choice {
  if (a.noTimeLimit) return 'unlimited';
  return a.timeFactor === null || a.timeFactor === 1 ? 'none' : String(a.timeFactor);
}

/** The body of the PUT for a choice (validated by the same schema as the route). */
export function inputOf(choice: Choice): TimeAccommodationInput {
  if (choice === 'unlimited') return { timeFactor: null, noTimeLimit: true };
  if (choice === 'none') return { timeFactor: null, noTimeLimit: false };
  return { timeFactor: Number(choice), noTimeLimit: false };
}

/** The factors the select offers: the usual ones, plus the learner's own when it is another. */
export function factorsFor(a: TimeAccommodationView): number[] {
  const own = a.noTimeLimit || a.timeFactor === null || a.timeFactor === 1 ? null : a.timeFactor;
  const all: number[] = [...COMMON_FACTORS];
  if (own !== null && !all.includes(own)) all.push(own);
  return all.sort((x, y) => x - y);
}
