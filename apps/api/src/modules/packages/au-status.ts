/**
 * A cmi5 AU's status as the player lists it (decision 0071): what its record in the learner's
 * registration comes to. Pure, table-tested. Satisfaction is moveOn's own rule (move-on.ts), never
 * judged again here; the rest only says how far the AU went before that.
 */
import type { AuStatus } from '@parcours/domain/entities';
import type { MoveOn } from '../../content/packages/manifest';
import { moveOnMet } from './move-on';
import type { AuRecord } from './move-on';

/** The AU's record (cmi5-satisfaction.ts `auRecord`) as far as its status needs it. */
export interface AuStatusRecord extends AuRecord {
  /** A teacher or an operator waived it (§9.3.7). */
  waived: boolean;
  /** The LMS launched it in the registration (its `launched` statement, §9.3.1). */
  launched: boolean;
}

/**
 * Waived first (it counts as satisfied, and says why); then satisfied once moveOn is met; before
 * that the strongest outcome recorded — passed over failed (a later session may pass), either
 * over completed —, in progress once launched, else not attempted.
 */
export function auStatus(moveOn: MoveOn, r: AuStatusRecord): AuStatus {
  if (r.waived) return 'waived';
  if (moveOnMet(moveOn, r)) return 'satisfied';
  if (r.passed) return 'passed';
  if (r.failed) return 'failed';
  if (r.completed) return 'completed';
  if (r.launched || r.ended) return 'inProgress';
  return 'notAttempted';
}
