import { describe, expect, it } from 'vitest';
import {
  allBadgePictures,
  badgeFileName,
  badgeLevel,
  badgePicturePath,
  BADGE_KINDS,
  cappedMedal,
  clampDone,
  deltaSign,
  xpDelta,
  type BadgeLevelName,
  type BadgeSize,
  type BadgeType,
} from './badges';
import type { Medal } from './medal';

describe.each<[BadgeType, number | null, BadgeLevelName]>([
  ['level', null, 'none'],
  ['level', 0, 'none'],
  ['level', 0.2, 'bronze'],
  ['level', 0.4999, 'bronze'],
  ['level', 0.5, 'silver'],
  ['level', 0.7499, 'silver'],
  ['level', 0.75, 'gold'],
  ['level', 1, 'gold'],
  ['theme', 0, 'none'],
  ['theme', 0.2, 'bronze'],
  ['theme', 0.5, 'silver'],
  ['theme', 0.8, 'silver'],
  ['theme', 1, 'silver'],
  ['PI', 0.3, 'xp'],
  ['certification', 1, 'certification'],
])('badgeLevel(%s, %s)', (type, ratio, level) => {
  it(`is ${level}`, () => {
    expect(badgeLevel(type, ratio)).toBe(level);
    expect(BADGE_KINDS[type].levels).toContain(level);
  });
});

describe.each<[number, Medal, Medal | null]>([
  [0, 'gold', null],
  [0.3, 'bronze', 'bronze'],
  [0.9, 'bronze', 'bronze'],
  [0.6, 'silver', 'silver'],
  [0.9, 'silver', 'silver'],
  [0.9, 'gold', 'gold'],
])('cappedMedal(%s, top %s)', (ratio, top, medal) => {
  it(`is ${String(medal)}`, () => expect(cappedMedal(ratio, top)).toBe(medal));
});

describe.each<[BadgeType, BadgeLevelName, BadgeSize | undefined, string]>([
  ['level', 'gold', undefined, 'badge-level_gold.png'],
  ['level', 'gold', 'md', 'badge-level_gold.png'],
  ['theme', 'silver', 'sm', 'badge-theme_silver_sm.png'],
  ['PI', 'xp', 'xl', 'badge-PI_xp_xl.png'],
])('badgeFileName(%s, %s, %s)', (type, level, size, name) => {
  it(name, () => {
    expect(badgeFileName(type, level, size)).toBe(name);
    expect(badgePicturePath(type, level, size)).toBe(`/static/images/badges/${name}`);
  });
});

it('lists every kind × level × size once', () => {
  const names = allBadgePictures().map((p) => badgeFileName(p.type, p.level, p.size));
  expect(new Set(names).size).toBe(names.length);
  expect(names).toContain('badge-level_none_xl.png');
  expect(names).toContain('badge-certification_attestation_sm.png');
  expect(names).toHaveLength((4 + 3 + 1 + 2) * 3);
});

describe.each<[number, 'positive' | 'negative']>([
  [12, 'positive'],
  [0.5, 'positive'],
  [0, 'negative'],
  [-3, 'negative'],
])('deltaSign(%s)', (delta, sign) => {
  it(sign, () => expect(deltaSign(delta)).toBe(sign));
});

describe.each<[number, number | null | undefined, number, number]>([
  [150, 120, 30, 120],
  [150, null, 150, 0],
  [150, undefined, 150, 0],
  [100, 130, -30, 130],
  [Number.NaN, 10, -10, 10],
  [40, Number.NaN, 40, 0],
])('xpDelta(%s, %s)', (current, past, delta, start) => {
  it(`changes by ${delta} from ${start}`, () => {
    const result = xpDelta(current, past);
    expect(result.delta).toBe(delta);
    expect(result.start).toBe(start);
    expect(result.sign).toBe(delta > 0 ? 'positive' : 'negative');
  });
});

describe.each<[number | null | undefined, number]>([
  [null, 0],
  [undefined, 0],
  [Number.NaN, 0],
  [-0.5, 0],
  [0.4, 0.4],
  [1.7, 1],
])('clampDone(%s)', (done, expected) => {
  it(`is ${expected}`, () => expect(clampDone(done)).toBe(expected));
});
