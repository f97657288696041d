import { describe, expect, it } from 'vitest';
import type { AuStatus } from '@parcours/domain/entities';
import type { MoveOn } from '../../../src/content/packages/manifest';
import { auStatus } from '../../../src/modules/packages/au-status';
import type { AuStatusRecord } from '../../../src/modules/packages/au-status';

/** Decision 0071: a cmi5 AU's status from its record in the registration, moveOn deciding satisfied. */
const none: AuStatusRecord = {
  launched: false,
  completed: false,
  passed: false,
  failed: false,
  score: null,
  ended: false,
  waived: false,
};
const launched = { ...none, launched: true };

const cases: [string, MoveOn, Partial<AuStatusRecord>, AuStatus][] = [
  ['never launched', 'Passed', {}, 'notAttempted'],
  [
    'never launched, NotApplicable (satisfied for the course, not opened)',
    'NotApplicable',
    {},
    'notAttempted',
  ],
  ['launched', 'Passed', launched, 'inProgress'],
  ['launched, its session ended without a result', 'Passed', { ...launched, ended: true }, 'inProgress'],
  ['NotApplicable once a session ended', 'NotApplicable', { ...launched, ended: true }, 'satisfied'],
  ['Passed and passed', 'Passed', { ...launched, passed: true, score: 0.9 }, 'satisfied'],
  ['Passed, failed', 'Passed', { ...launched, failed: true, score: 0.4 }, 'failed'],
  ['Passed, failed then passed', 'Passed', { ...launched, failed: true, passed: true }, 'satisfied'],
  ['Passed, only completed', 'Passed', { ...launched, completed: true }, 'completed'],
  ['Completed and completed', 'Completed', { ...launched, completed: true }, 'satisfied'],
  ['Completed, only passed', 'Completed', { ...launched, passed: true }, 'passed'],
  ['CompletedAndPassed, passed only', 'CompletedAndPassed', { ...launched, passed: true }, 'passed'],
  [
    'CompletedAndPassed, completed and failed',
    'CompletedAndPassed',
    { ...launched, completed: true, failed: true },
    'failed',
  ],
  [
    'CompletedAndPassed, both',
    'CompletedAndPassed',
    { ...launched, completed: true, passed: true },
    'satisfied',
  ],
  ['CompletedOrPassed, completed', 'CompletedOrPassed', { ...launched, completed: true }, 'satisfied'],
  ['waived without a launch', 'Passed', { waived: true }, 'waived'],
  ['waived after a failure', 'CompletedAndPassed', { ...launched, failed: true, waived: true }, 'waived'],
];

describe('a cmi5 AU status (decision 0071)', () => {
  it.each(cases)('%s (%s)', (_name, moveOn, record, expected) => {
    expect(auStatus(moveOn, { ...none, ...record })).toBe(expected);
  });
});
