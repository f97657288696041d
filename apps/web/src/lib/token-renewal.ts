/**
 * Tokens close to expiry are renewed while the learner is active (decision 0044), so nobody is
 * signed out mid-lesson: in the token's last hour, a learner who touched the page in the last
 * 15 minutes gets a fresh 8-hour token (POST users/token, which a revoked token cannot use). A
 * learner away for longer lets it expire; then, online, the session ends at once rather than at
 * the next call. Offline the session stays: answers wait on the device, and the first call back
 * online meets the 401 that ends it (the answers still wait for that learner).
 */
import { ApiError, apiFetch, reportUnauthorized } from './api-client';
import { getSession, replaceToken } from './session';
import { getToken } from './storage';
import { readToken, serverNow } from './token';

export const RENEW_WITHIN_MS = 60 * 60_000;
export const ACTIVE_WITHIN_MS = 15 * 60_000;
const CHECK_EVERY_MS = 60_000;

interface RenewResponse {
  access_token: string;
}

let lastActivity = Date.now();
let renewing: Promise<boolean> | null = null;
/**
 * A token whose session reached its absolute lifetime (403, decision 0057): not asked again
 * every minute; it works until its own end, then the session ends as any other.
 */
let unrenewable: string | null = null;

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** The learner did something: the session is in use. */
export function noteActivity(now = Date.now()): void {
  lastActivity = now;
}

/**
 * Renews the stored token if it is due, ends the session if it is over (online). Returns whether
 * a fresh token was stored. One renewal at a time.
 */
export function renewIfDue(now = Date.now()): Promise<boolean> {
  const token = getToken();
  const expiresAt = readToken(token)?.expiresAt ?? null;
  if (!token || expiresAt === null || getSession().status !== 'authenticated') return Promise.resolve(false);
  const left = expiresAt - serverNow(now);
  if (left <= 0) {
    if (online()) reportUnauthorized('users/token', token);
    return Promise.resolve(false);
  }
  if (left > RENEW_WITHIN_MS || now - lastActivity > ACTIVE_WITHIN_MS || !online() || token === unrenewable)
    return Promise.resolve(false);
  renewing ??= apiFetch<RenewResponse>('users/token', { method: 'POST' })
    .then((answer) => {
      // Another tab, or a sign-out, may have changed the token meanwhile: theirs wins.
      if (getToken() !== token) return false;
      replaceToken(answer.access_token);
      return true;
    })
    // A 401 has ended the session (api-client); no network: the next check tries again.
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 403) unrenewable = token;
      return false;
    })
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

let started = false;

/** Listens to the learner's activity and checks the token every minute, once per tab. */
export function startTokenRenewal(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  let lastCheck = 0;
  const active = () => {
    const now = Date.now();
    noteActivity(now);
    // At most one check a minute from activity: a keystroke costs a clock read.
    if (now - lastCheck < CHECK_EVERY_MS) return;
    lastCheck = now;
    void renewIfDue(now);
  };
  for (const type of ['pointerdown', 'keydown', 'touchstart'] as const)
    window.addEventListener(type, active, { capture: true, passive: true });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void renewIfDue();
  });
  setInterval(() => void renewIfDue(), CHECK_EVERY_MS);
}
