import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Brute force without lockout (issue 10 finding 8). Failing on purpose must not lock a learner
 * out, and a classroom behind one address must sign in; guessing must still stay slow:
 * - per account, failed passwords are counted in the database (every process shares them);
 *   past the limit, a browser the account never signed in from gets one attempt per
 *   SLOW_SLOT_MS, while a known device (cookie below) keeps signing in normally;
 * - per address, attempts are counted too, with a limit sized for a class of 40 and typos.
 */

export const FAILURE_WINDOW_MS = 60_000;
/** Past the failure limit, one attempt per account per slot for unknown devices. */
export const SLOW_SLOT_MS = 5_000;
/** A device stays known for a year of not signing in; each sign-in renews it. */
const DEVICE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * Per-address attempts per minute. The login routes used to allow LOGIN_RATE_LIMIT (10) per
 * address, which a classroom exceeds; 40 learners and their typos fit in 120.
 */
export function addressLimit(loginRateLimit: number, explicit?: number): number {
  return explicit ?? Math.max(120, loginRateLimit * 12);
}

function deviceKey(secret: string): Buffer {
  // A key of its own: a device token can never pass for an access token, nor the reverse.
  return createHmac('sha256', secret).update('parcours-login-device').digest();
}

function mac(secret: string, contextId: string, userId: string, nonce: string): string {
  return createHmac('sha256', deviceKey(secret))
    .update(`${contextId}\n${userId}\n${nonce}`)
    .digest('base64url');
}

/** One cookie per account, so several learners sharing a classroom computer each stay known. */
export function deviceCookieName(secret: string, contextId: string, userId: string): string {
  const id = createHmac('sha256', deviceKey(secret))
    .update(`name\n${contextId}\n${userId}`)
    .digest('hex')
    .slice(0, 16);
  return `pd_${id}`;
}

export function deviceCookie(secret: string, contextId: string, userId: string, secure: boolean): string {
  const nonce = randomBytes(12).toString('base64url');
  const value = `${nonce}.${mac(secret, contextId, userId, nonce)}`;
  return [
    `${deviceCookieName(secret, contextId, userId)}=${value}`,
    // Sent only to the sign-in call, never readable by scripts.
    'Path=/api/users/login',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${DEVICE_MAX_AGE_S}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** Whether this browser signed in to this account before (its device cookie verifies). */
export function isKnownDevice(
  secret: string,
  cookies: Readonly<Record<string, string | undefined>>,
  contextId: string,
  userId: string,
): boolean {
  const value = cookies[deviceCookieName(secret, contextId, userId)];
  const [nonce, sig, ...rest] = (value ?? '').split('.');
  if (!nonce || !sig || rest.length > 0) return false;
  const expected = Buffer.from(mac(secret, contextId, userId, nonce));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
