import { describe, expect, it } from 'vitest';
import {
  MAX_TIMER_DELAY_MS,
  classPeriod,
  effectiveWindow,
  isClassUnlocked,
  isExpired,
  nextRefreshDelay,
  toInstant,
} from './class-timing';
import type { ClassPeriod, TimeWindow } from './class-timing';
import type { LessonState } from './entities';

const NOW = new Date('2024-03-10T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (offsetMs: number): string => new Date(NOW.getTime() + offsetMs).toISOString();
const w = (startAt: string | null, expireAt: string | null): TimeWindow => ({ startAt, expireAt });

describe('toInstant', () => {
  it.each<[string | null | undefined, number | null]>([
    ['2024-03-10T12:00:00Z', NOW.getTime()],
    ['2024-03-10T14:00:00+02:00', NOW.getTime()],
    ['2024-03-10T07:00:00-05:00', NOW.getTime()],
    ['2024-03-10', Date.UTC(2024, 2, 10)],
    [null, null],
    [undefined, null],
    ['', null],
    ['   ', null],
    ['not a date', null],
  ])('%j → %j', (iso, expected) => {
    expect(toInstant(iso)).toBe(expected);
  });
});

describe('isExpired', () => {
  it.each<[string, string | null, boolean]>([
    ['open-ended', null, false],
    ['expires in 1 ms', at(1), false],
    ['expires exactly now', at(0), true],
    ['expired 1 ms ago', at(-1), true],
    ['same instant written with an offset', '2024-03-10T13:00:00+01:00', true],
    ['one second later written with an offset', '2024-03-10T13:00:01+01:00', false],
    ['unparsable counts as open-ended', 'soon', false],
  ])('%s', (_label, expireAt, expected) => {
    expect(isExpired({ expireAt }, NOW)).toBe(expected);
  });
});

describe('classPeriod', () => {
  it.each<[string, TimeWindow, ClassPeriod]>([
    ['no dates at all', w(null, null), 'current'],
    ['started, open-ended', w(at(-DAY), null), 'current'],
    ['starts exactly now', w(at(0), at(DAY)), 'current'],
    ['starts in 1 hour', w(at(HOUR), null), 'current'],
    ['starts in a day minus 1 ms', w(at(DAY - 1), null), 'current'],
    ['starts in exactly a day', w(at(DAY), null), 'next'],
    ['starts in a week', w(at(7 * DAY), at(30 * DAY)), 'next'],
    ['expires exactly now', w(at(-DAY), at(0)), 'past'],
    ['expired yesterday', w(at(-7 * DAY), at(-DAY)), 'past'],
    ['expires in 1 ms', w(at(-DAY), at(1)), 'current'],
    ['no start, expired', w(null, at(-1)), 'past'],
    ['expired wins over a future start (bad data)', w(at(2 * DAY), at(-1)), 'past'],
    ['start in 23 h written in +02:00', w('2024-03-11T13:00:00+02:00', null), 'current'],
    ['start in 25 h written in -05:00', w('2024-03-11T08:00:00-05:00', null), 'next'],
  ])('%s', (_label, window, expected) => {
    expect(classPeriod(window, NOW)).toBe(expected);
  });
});

describe('nextRefreshDelay', () => {
  it.each<[string, TimeWindow, number | null]>([
    ['no start', w(null, null), null],
    ['already started', w(at(-1), null), null],
    ['starts exactly now', w(at(0), null), null],
    ['starts in 1 ms', w(at(1), null), 201],
    ['starts in 1 hour', w(at(HOUR), at(DAY)), HOUR + 200],
    ['starts in 2 days (still refreshed at its start)', w(at(2 * DAY), null), 2 * DAY + 200],
    ['start with an offset, 30 min ahead', w('2024-03-10T13:30:00+01:00', null), 30 * 60_000 + 200],
    ['future start but already expired', w(at(HOUR), at(-1)), null],
    ['far future start is capped for setTimeout', w(at(60 * DAY), null), MAX_TIMER_DELAY_MS],
  ])('%s', (_label, window, expected) => {
    expect(nextRefreshDelay(window, NOW)).toBe(expected);
  });
});

describe('effectiveWindow', () => {
  const cls = w('2024-01-01T00:00:00Z', '2024-12-31T00:00:00Z');
  it.each<[string, TimeWindow, Partial<TimeWindow> | null | undefined, TimeWindow]>([
    ['no class-program', cls, undefined, cls],
    ['class-program without dates', cls, w(null, null), cls],
    [
      'narrower on both sides',
      cls,
      w('2024-03-01T00:00:00Z', '2024-06-30T00:00:00Z'),
      w('2024-03-01T00:00:00Z', '2024-06-30T00:00:00Z'),
    ],
    ['wider on both sides keeps the class', cls, w('2023-01-01T00:00:00Z', '2025-01-01T00:00:00Z'), cls],
    [
      'later start only',
      cls,
      w('2024-02-01T00:00:00Z', null),
      w('2024-02-01T00:00:00Z', '2024-12-31T00:00:00Z'),
    ],
    [
      'earlier end only',
      cls,
      { expireAt: '2024-05-01T00:00:00Z' },
      w('2024-01-01T00:00:00Z', '2024-05-01T00:00:00Z'),
    ],
    [
      'open-ended class takes the program window',
      w(null, null),
      w('2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'),
      w('2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'),
    ],
    [
      'compares instants, not strings (offset makes it earlier)',
      cls,
      w(null, '2024-12-31T01:00:00+02:00'),
      w('2024-01-01T00:00:00Z', '2024-12-31T01:00:00+02:00'),
    ],
    [
      'compares instants, not strings (offset makes it later)',
      cls,
      w('2023-12-31T23:30:00-01:00', null),
      w('2023-12-31T23:30:00-01:00', '2024-12-31T00:00:00Z'),
    ],
    ['equal instants keep the class string', cls, w('2024-01-01T01:00:00+01:00', null), cls],
  ])('%s', (_label, classWindow, program, expected) => {
    expect(effectiveWindow(classWindow, program)).toEqual(expected);
  });

  it('a narrower class-program window changes the period', () => {
    const now = new Date('2024-07-01T00:00:00Z');
    const narrowed = effectiveWindow(cls, w('2024-03-01T00:00:00Z', '2024-06-30T00:00:00Z'));
    expect(classPeriod(cls, now)).toBe('current');
    expect(classPeriod(narrowed, now)).toBe('past');
    const before = new Date('2024-02-20T00:00:00Z');
    expect(classPeriod(narrowed, before)).toBe('next');
    expect(nextRefreshDelay(narrowed, before)).toBe(
      Date.parse('2024-03-01T00:00:00Z') - before.getTime() + 200,
    );
  });
});

describe('isClassUnlocked', () => {
  it.each<[LessonState[], boolean]>([
    [[], false],
    [['HIDDEN'], false],
    [['HIDDEN', 'HIDDEN'], false],
    [['HIDDEN', 'LOCKED'], true],
    [['AVAILABLE'], true],
    [['EXPIRED'], true],
    [['DONE', 'HIDDEN'], true],
  ])('%j → %s', (states, expected) => {
    expect(isClassUnlocked(states.map((state) => ({ state })))).toBe(expected);
  });
});
