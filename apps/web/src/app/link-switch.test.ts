import { fakeToken } from '../test/fixtures';
import { setToken, setUserId } from '../lib/storage';
import { linkSwitchesAccount } from './navigation';

const at = (search: string) => ({ search }) as Location;
const future = Math.floor(Date.now() / 1000) + 3600;
const past = Math.floor(Date.now() / 1000) - 60;

describe('a sign-in link on a browser signed in as someone else asks first (issue 29 R3-11)', () => {
  it.each([
    ['no link', 'u-a', fakeToken({ sub: 'u-a', exp: future }), '', false],
    ['nobody signed in', null, null, '?idT=x&idU=u-b', false],
    ['the same learner', 'u-a', fakeToken({ sub: 'u-a', exp: future }), '?idT=x&idU=u-a', false],
    ['another learner by idU', 'u-a', fakeToken({ sub: 'u-a', exp: future }), '?idT=x&idU=u-b', true],
    [
      "another learner by the link token's subject",
      'u-a',
      fakeToken({ sub: 'u-a', exp: future }),
      `?idT=${fakeToken({ sub: 'u-b' })}`,
      true,
    ],
    ['a session already expired', 'u-a', fakeToken({ sub: 'u-a', exp: past }), '?idT=x&idU=u-b', false],
  ] as const)('%s: asks %s', (_name, userId, token, search, asks) => {
    setUserId(userId);
    setToken(token);
    expect(linkSwitchesAccount(at(search))).toBe(asks);
  });
});
