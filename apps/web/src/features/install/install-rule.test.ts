import { describe, expect, it } from 'vitest';
import { installOffer, isIos, type InstallSituation } from './install-rule';

const base: InstallSituation = {
  dontShowAddToPhone: false,
  standalone: false,
  shownThisSession: false,
  promptAvailable: false,
  ios: false,
  mobile: true,
};

describe('installOffer', () => {
  it.each<[string, Partial<InstallSituation>, ReturnType<typeof installOffer>]>([
    ['the browser offers an install prompt on a phone', { promptAvailable: true }, 'prompt'],
    ['iOS has no prompt: the Share explanation', { ios: true }, 'ios'],
    ['a prompt wins on iOS browsers that have one', { ios: true, promptAvailable: true }, 'prompt'],
    ['nothing to offer: no prompt, not iOS', {}, null],
    ['refused before (dontShowAddToPhone)', { promptAvailable: true, dontShowAddToPhone: true }, null],
    ['refused before, on iOS', { ios: true, dontShowAddToPhone: true }, null],
    ['already installed and opened from the home screen', { promptAvailable: true, standalone: true }, null],
    ['already offered in this tab', { promptAvailable: true, shownThisSession: true }, null],
    ['a desktop computer', { promptAvailable: true, mobile: false }, null],
  ])('%s', (_label, situation, expected) => {
    expect(installOffer({ ...base, ...situation })).toBe(expected);
  });
});

describe('isIos', () => {
  it.each<[string, string, number, boolean]>([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1', 'iPhone', 5, true],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 'MacIntel', 5, true],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 'MacIntel', 0, false],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile', 'Linux armv8l', 5, false],
  ])('%s on %s with %i touch points: %s', (ua, platform, touch, expected) => {
    expect(isIos(ua, platform, touch)).toBe(expected);
  });
});
