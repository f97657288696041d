/**
 * cmi5 `moveOn` (spec §13.1.4): when the AU counts as satisfied, and the page's score then.
 * Pure, table-tested. What the AU said in its registration: the cmi5 defined completed, passed
 * and failed statements (their verbs and the passed or failed score), and whether a session ended.
 */
import type { MoveOn } from '../../content/packages/manifest';

export interface AuRecord {
  completed: boolean;
  passed: boolean;
  failed: boolean;
  /** The passed statement's score as a fraction (else the failed one's), null without one. */
  score: number | null;
  /** A session of the registration ended (terminated, or closed by the player). */
  ended: boolean;
}

/**
 * Satisfied per moveOn. NotApplicable is satisfied as soon as the registration exists (§9.6.1);
 * the page waits for the end of a session so that the learner has opened the AU.
 */
export function moveOnMet(moveOn: MoveOn, r: AuRecord): boolean {
  switch (moveOn) {
    case 'Passed':
      return r.passed;
    case 'Completed':
      return r.completed;
    case 'CompletedAndPassed':
      return r.completed && r.passed;
    case 'CompletedOrPassed':
      return r.completed || r.passed;
    case 'NotApplicable':
      return r.ended || r.completed || r.passed;
  }
}

/**
 * The page's fraction once satisfied, by the tincan score's rule: the passed statement's score
 * when it has one, else the whole page (the AU's criteria are met). Null while not satisfied.
 */
export function moveOnFraction(moveOn: MoveOn, r: AuRecord): number | null {
  if (!moveOnMet(moveOn, r)) return null;
  if (r.passed && r.score !== null) return Math.min(1, Math.max(0, r.score));
  return 1;
}

/** A result score as a fraction: scaled, else raw within [min, max]; null when neither reads. */
export function fractionOf(
  score: { scaled?: number; raw?: number; min?: number; max?: number } | undefined,
): number | null {
  if (!score) return null;
  if (typeof score.scaled === 'number') return score.scaled;
  if (typeof score.raw === 'number' && typeof score.max === 'number') {
    const min = score.min ?? 0;
    return score.max > min ? (score.raw - min) / (score.max - min) : null;
  }
  return null;
}
