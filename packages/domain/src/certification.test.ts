import { describe, expect, it } from 'vitest';
import {
  certificateLinkAvailable,
  certificateRefusal,
  certificationWording,
  courseCertificationOf,
  courseIsCertifying,
  lessonEnded,
  passesCertification,
  progressionColor,
  scoreOutOf1000,
} from './certification';
import type { CertificateRefusal, CertificationWording, CourseCertification } from './certification';

describe.each<[string, string | null, boolean]>([
  ['SKIPPED', null, true],
  ['SKIPPED', 'ONGOING', true],
  ['AVAILABLE', 'COMPLETED', true],
  ['DONE', 'COMPLETED', true],
  ['DONE', 'ONGOING', false],
  ['AVAILABLE', null, false],
  ['EXPIRED', null, false],
  ['LOCKED', null, false],
])('lesson %s / %s', (state, progress, ended) => {
  it(`ended: ${ended}`, () => expect(lessonEnded({ state, progress })).toBe(ended));
});

describe.each<[string, string | null, string | null, boolean]>([
  ['SKIPPED', null, 'REF-1', true],
  ['AVAILABLE', 'COMPLETED', 'REF-1', true],
  ['AVAILABLE', 'COMPLETED', null, false],
  ['AVAILABLE', 'COMPLETED', '  ', false],
  ['AVAILABLE', 'ONGOING', 'REF-1', false],
  ['LOCKED', null, 'REF-1', false],
])('link rule %s / %s / %s', (state, progress, certificationRef, available) => {
  it(`available: ${available}`, () =>
    expect(certificateLinkAvailable({ state, progress, certificationRef })).toBe(available));
});

describe.each<[number | null | undefined, number]>([
  [null, 0],
  [undefined, 0],
  [Number.NaN, 0],
  [-0.3, 0],
  [0, 0],
  [0.0004, 0],
  [0.0019, 1],
  [0.57, 570], // 0.57 * 1000 is 569.999… in floating point
  [0.6996, 699], // rounded down: never shown as 700
  [0.7, 700],
  [0.9999, 999],
  [1, 1000],
  [1.4, 1000],
  [Number.POSITIVE_INFINITY, 0],
])('score of ratio %d', (ratio, score) => {
  it(`is ${score}/1000`, () => expect(scoreOutOf1000(ratio)).toBe(score));
});

describe.each<[number | null | undefined, 'danger' | 'primary' | 'success']>([
  [null, 'danger'],
  [0, 'danger'],
  [49, 'danger'],
  [49.99, 'danger'],
  [50, 'primary'],
  [99, 'primary'],
  [99.9, 'primary'],
  [100, 'success'],
  [120, 'success'],
])('progress %d %%', (percent, color) => {
  it(color, () => expect(progressionColor(percent)).toBe(color));
});

describe.each<[number, number, boolean]>([
  [0, 0, true],
  [0.69, 0.7, false],
  [0.699999, 0.7, false],
  [0.6999999999, 0.7, true], // within float noise (1e-9) of the threshold
  [0.7, 0.7, true],
  [0.1 + 0.6, 0.7, true], // 0.7000000000000001 vs 0.7 after snapping
  [0.56, 0.5600000000001, true],
  [1, 1, true],
  [0.99, 1, false],
  [0.3, -1, true],
  [0.3, 2, false],
])('ratio %d against passing score %d', (ratio, passing, passes) => {
  it(`passes: ${passes}`, () => expect(passesCertification(ratio, passing)).toBe(passes));
});

describe('course certification settings', () => {
  it.each<[unknown, CourseCertification | null]>([
    [null, null],
    ['text', null],
    [{}, null],
    [{ certification: null }, null],
    [{ certification: 'yes' }, null],
    [{ certification: {} }, { passingScore: 0.5, wording: 'attestation' }],
    [
      { certification: { passingScore: 0.7, wording: 'certification' } },
      { passingScore: 0.7, wording: 'certification' },
    ],
    [
      { certification: { passingScore: 1.7, wording: 'diploma' } },
      { passingScore: 1, wording: 'attestation' },
    ],
    [{ certification: { passingScore: '0.4' } }, { passingScore: 0.5, wording: 'attestation' }],
    [{ certification: { passingScore: 0 } }, { passingScore: 0, wording: 'attestation' }],
  ])('%j', (settings, expected) => {
    expect(courseCertificationOf(settings, 'attestation')).toEqual(expected);
  });

  it.each<[unknown, unknown, boolean]>([
    [{}, {}, false],
    [{}, { certificate: false }, false],
    [{}, { certificate: true }, true],
    [{}, { certificate: 'true' }, false],
    [{ certification: { passingScore: 0.5 } }, { certificate: false }, true],
    [{ certification: { passingScore: 0.5 } }, null, true],
    [null, null, false],
  ])('course %j, type %j → certifying %s', (course, type, certifying) => {
    expect(courseIsCertifying(course, type)).toBe(certifying);
  });
});

describe.each<[CourseCertification | null, unknown, CertificationWording]>([
  [null, undefined, 'certification'],
  [null, 'nonsense', 'certification'],
  [null, 'attestation', 'attestation'],
  [null, 'certification', 'certification'],
  [{ passingScore: 0, wording: 'attestation' }, 'certification', 'attestation'],
  [{ passingScore: 0, wording: 'certification' }, 'attestation', 'certification'],
])('wording of course %j with tenant type %j', (course, tenant, wording) => {
  it(wording, () => expect(certificationWording(course, tenant)).toBe(wording));
});

describe.each<[string, string | null, string | null, number, number, CertificateRefusal | null]>([
  ['AVAILABLE', 'ONGOING', 'REF', 1, 0, 'NOT_ENDED'],
  ['AVAILABLE', 'COMPLETED', null, 1, 0, 'NO_REFERENCE'],
  ['AVAILABLE', 'COMPLETED', 'REF', 0.5, 0.7, 'BELOW_PASSING_SCORE'],
  ['SKIPPED', null, 'REF', 0.2, 0.5, 'BELOW_PASSING_SCORE'],
  ['SKIPPED', null, 'REF', 0.2, 0, null],
  ['AVAILABLE', 'COMPLETED', 'REF', 0.7, 0.7, null],
])('refusal of %s/%s ref %s ratio %d passing %d', (state, progress, ref, ratio, passing, refusal) => {
  it(String(refusal), () =>
    expect(certificateRefusal({ state, progress, certificationRef: ref }, ratio, passing)).toBe(refusal),
  );
});
