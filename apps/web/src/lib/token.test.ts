import { fakeToken } from '../test/fixtures';
import { isExpired, noteFreshToken, readToken, serverNow } from './token';

describe('the token as the web reads it (decision 0044)', () => {
  it.each([
    [
      'a token of ours',
      fakeToken({ sub: 'u-1', exp: 2_000_000_000 }),
      { sub: 'u-1', expiresAt: 2_000_000_000_000 },
    ],
    ['no exp', fakeToken({ sub: 'u-1' }), { sub: 'u-1', expiresAt: null }],
    ['a non-ASCII subject', fakeToken({ sub: 'é-ü', exp: 1 }), { sub: 'é-ü', expiresAt: 1000 }],
    ['not a JWT', 'opaque', null],
    ['garbage payload', 'a.%%%.c', null],
    ['nothing', null, null],
  ] as const)('%s', (_name, token, claims) => {
    expect(readToken(token)).toEqual(claims);
  });

  it.each([
    [1_000_000, 999_999, false],
    [1_000_000, 1_000_000, true],
    [1_000_000, 1_000_001, true],
  ])('exp %i s at %i s: expired %s (as the server counts)', (exp, now, expired) => {
    expect(isExpired(fakeToken({ exp }), now * 1000)).toBe(expired);
  });

  it('a token without exp never looks expired: the server decides', () => {
    expect(isExpired(fakeToken({ sub: 'x' }), Date.now())).toBe(false);
  });

  it("corrects the device's clock by the server's, learnt from a fresh token", () => {
    const deviceNow = 1_000_000;
    // The server issued it 2 hours after what this device believes is now.
    noteFreshToken(fakeToken({ iatMs: deviceNow + 7_200_000 }), deviceNow);
    expect(serverNow(deviceNow)).toBe(deviceNow + 7_200_000);
    const exp = Math.floor((deviceNow + 3_600_000) / 1000);
    // By the device's clock the token has an hour left; by the server's it is over.
    expect(isExpired(fakeToken({ exp }), serverNow(deviceNow))).toBe(true);
    window.localStorage.clear();
    expect(serverNow(deviceNow)).toBe(deviceNow);
  });
});
