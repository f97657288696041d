import { describe, expect, it } from 'vitest';
import {
  GRACE_SECONDS,
  pageClockLimit,
  remainingChangesAt,
  remainingSeconds,
} from '../../../src/modules/lesson-pages/clock';

/**
 * Until when a page document's clock leaves it as it is (decision 0068): the answer cache keeps
 * a page read until then, so each instant must be the first at which the shown number changes.
 */
const T = Date.parse('2026-05-01T10:00:00.000Z');
const at = (ms: number) => new Date(T + ms);

describe('remainingChangesAt', () => {
  it.each([
    // [now − T, deadline − T, next change − T]
    [0, 60_000, 1_000],
    [1, 60_000, 1_000],
    [999, 60_000, 1_000],
    [1_000, 60_000, 2_000],
    [59_000, 60_000, 60_000],
    [59_999, 60_000, 60_000],
    [500, 60_250, 1_250],
    [60_000, 60_000, Infinity],
    [90_000, 60_000, Infinity],
  ])('now %i, deadline %i: next change at %s', (now, deadline, next) => {
    expect(remainingChangesAt(at(now), T + deadline)).toBe(next === Infinity ? Infinity : T + next);
  });

  it('is no clock without a deadline', () => {
    expect(remainingChangesAt(at(0), null)).toBe(Infinity);
  });

  it.each([0, 1, 250, 999, 1_000, 12_345, 59_999])(
    'at %i ms, the time left is the same until the next change and differs at it',
    (now) => {
      const deadline = T + 60_000;
      const next = remainingChangesAt(at(now), deadline);
      expect(remainingSeconds(new Date(next - 1), deadline)).toBe(remainingSeconds(at(now), deadline));
      expect(remainingSeconds(new Date(next), deadline)).not.toBe(remainingSeconds(at(now), deadline));
    },
  );
});

describe('pageClockLimit', () => {
  const late = (deadline: number) => T + deadline + GRACE_SECONDS * 1000 + 1;
  it.each([
    ['no clock', 0, null, null, Infinity],
    ["the page's countdown", 200, 10_000, null, T + 1_000],
    ["the lesson's countdown", 200, null, 10_500, T + 500],
    ['the sooner of both', 200, 10_000, 10_500, T + 500],
    ["the lesson's lateness, once its countdown rests at 0", 11_000, null, 10_000, late(10_000)],
    ['nothing once the lesson is late', late(10_000) - T, null, 10_000, Infinity],
  ])('%s', (_name, now, page, lesson, limit) => {
    expect(
      pageClockLimit(at(now), page === null ? null : T + page, lesson === null ? null : T + lesson),
    ).toBe(limit);
  });
});
