import { describe, expect, it } from 'vitest';
import { expiryFor, signaturesChangeAt } from '../../src/modules/files/signing';

/** The answer cache keeps signed bytes until the signatures would change (decision 0068). */
describe('signaturesChangeAt', () => {
  const STEP = 300_000;
  const M = Math.floor(Date.parse('2026-05-01T10:00:00.000Z') / STEP) * STEP;
  it.each([M, M + 1, M + 1_000, M + STEP / 2, M + STEP - 1, M + STEP])(
    'from %i: the same expiry until the change, another at it',
    (now) => {
      const next = signaturesChangeAt(now);
      expect(next).toBeGreaterThan(now);
      expect(expiryFor(next - 1)).toBe(expiryFor(now));
      expect(expiryFor(next)).not.toBe(expiryFor(now));
    },
  );
});
