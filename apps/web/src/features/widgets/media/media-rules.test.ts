import { describe, expect, it } from 'vitest';
import { formatTrackTime, htmlPlayerKind, mediaKindOf, nextVolume, shouldSeek } from './media-rules';

describe('nextVolume (SPEC §4 cycle 0.125, 0.45, 1)', () => {
  it.each([
    [1, 0.125],
    [0.125, 0.45],
    [0.45, 1],
    [0.7, 0.125],
    [0, 0.125],
  ])('%s → %s', (current, next) => expect(nextVolume(current)).toBe(next));
});

describe('shouldSeek (SPEC §9 threshold 0.5 s)', () => {
  it.each([
    [10, 10, false],
    [10, 10.49, false],
    [10, 9.51, false],
    [10, 10.5, true],
    [10, 9.5, true],
    [0, 42, true],
    [5, -1, false],
    [5, Number.NaN, false],
  ])('from %s to %s: %s', (current, target, expected) => expect(shouldSeek(current, target)).toBe(expected));
});

describe('formatTrackTime', () => {
  it.each([
    [0, '0:00'],
    [5.9, '0:05'],
    [65, '1:05'],
    [3725, '1:02:05'],
    [Number.NaN, '0:00'],
  ])('%s s → %s', (s, expected) => expect(formatTrackTime(s)).toBe(expected));
});

describe('mediaKindOf (SPEC §3 supported files)', () => {
  it.each([
    [{ fileType: 'pdf' }, 'pdf'],
    [{ mimeType: 'application/pdf' }, 'pdf'],
    [{ type: 'audio/mpeg' }, 'audio'],
    [{ fileType: 'audio' }, 'audio'],
    [{ type: 'video/webm' }, 'video'],
    [{ fileType: 'image', type: 'image/png' }, 'image'],
    [{ type: 'application/zip' }, 'other'],
  ])('%o → %s', (file, kind) => expect(mediaKindOf(file)).toBe(kind));
});

describe('htmlPlayerKind (files/{id}/infos htmlPlayer, SPEC §3)', () => {
  it.each([
    ['<audio controls preload="metadata"><source src="/a" type="audio/mpeg"></audio>', 'audio'],
    ['<video controls><source src="/v" type="video/webm"></video>', 'video'],
    ['  <AUDIO>', 'audio'],
    [null, null],
    ['', null],
    ['<img src="/x.png">', null],
    ['<audiox>', null],
    ['text <audio controls></audio>', null],
  ])('%j → %s', (html, kind) => expect(htmlPlayerKind(html)).toBe(kind));
});
