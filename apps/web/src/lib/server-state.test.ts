import { afterEach, describe, expect, it } from 'vitest';
import { STATE_ELEMENT_ID, takeServerState } from './server-state';

/** A token as the web reads it (lib/token.ts: the claims only, never the signature). */
function token(sub: string, expSeconds: number): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, exp: expSeconds })}.signature`;
}

const now = () => Math.floor(Date.now() / 1000);
const STATE = JSON.stringify({
  me: { _id: 'u1' },
  queries: { mutations: [], queries: [] },
  router: { loaderData: { '/': null }, actionData: null, errors: null },
});

function page(state: string | null, stored: { token: string | null; userId: string | null }) {
  document.getElementById(STATE_ELEMENT_ID)?.remove();
  if (state !== null) {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = STATE_ELEMENT_ID;
    block.textContent = state;
    document.body.append(block);
  }
  window.localStorage.clear();
  if (stored.token) window.localStorage.setItem('parcours.token', stored.token);
  if (stored.userId) window.localStorage.setItem('parcours.userId', stored.userId);
}

afterEach(() => {
  document.getElementById(STATE_ELEMENT_ID)?.remove();
  window.localStorage.clear();
});

// Decision 0046: a page drawn for a signed-in learner is taken over only by that learner's session.
describe('takeServerState', () => {
  it.each([
    ['the same learner, in force: taken over', STATE, token('u1', now() + 3600), 'u1', true],
    [
      'no user id stored yet (the cookie came with the sign-in)',
      STATE,
      token('u1', now() + 3600),
      null,
      true,
    ],
    ['signed out here since: not taken', STATE, null, null, false],
    ["another learner's session: not taken", STATE, token('u2', now() + 3600), 'u2', false],
    // The expired session must end at the start, with the device's copies (decision 0045).
    ['an expired stored session: not taken', STATE, token('u1', now() - 5), 'u1', false],
    ['a damaged block: not taken', '{"me":', token('u1', now() + 3600), 'u1', false],
    ['no block: not taken', null, token('u1', now() + 3600), 'u1', false],
  ])('%s', (_, state, stored, userId, taken) => {
    page(state, { token: stored, userId });
    expect(takeServerState() !== null).toBe(taken);
  });
});
