/**
 * What the web reads in its own token (decision 0044): the expiry (`exp`, seconds) and the user
 * (`sub`). Read, never trusted: the server checks the signature and the revocation on every call,
 * so a token that looks valid here may still be refused, and that refusal ends the session too.
 */
export interface TokenClaims {
  sub: string | null;
  /** Expiry in milliseconds since the epoch, or null when the token carries none. */
  expiresAt: number | null;
}

function decodePart(part: string): unknown {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
}

/** The claims of a JWT, or null for anything that is not one (a sandbox marker, a test token). */
export function readToken(token: string | null): TokenClaims | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = decodePart(payload) as { sub?: unknown; exp?: unknown } | null;
    if (!claims || typeof claims !== 'object') return null;
    return {
      sub: typeof claims.sub === 'string' ? claims.sub : null,
      expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : null,
    };
  } catch {
    return null;
  }
}

/** True once the token's `exp` is past (as the server counts it: expired when not after now). */
export function isExpired(token: string | null, now = serverNow()): boolean {
  const expiresAt = readToken(token)?.expiresAt ?? null;
  return expiresAt !== null && expiresAt <= now;
}

const SKEW_KEY = 'parcours.clockSkew';

/**
 * The device clock's distance from the server's, learnt from a token the server has just issued
 * (its `iatMs` is the server's time): a phone whose clock is hours off would otherwise see a
 * fresh token as expired, or an expired one as fresh. Kept in local storage with the token, so a
 * cold start uses it too; sign-out clears it with the rest.
 */
export function noteFreshToken(token: string, now = Date.now()): void {
  const payload = token.split('.')[1];
  let issuedMs: number | null = null;
  try {
    const claims = payload ? (decodePart(payload) as { iatMs?: unknown }) : null;
    issuedMs = typeof claims?.iatMs === 'number' ? claims.iatMs : null;
  } catch {
    issuedMs = null;
  }
  if (issuedMs === null) return;
  try {
    window.localStorage.setItem(SKEW_KEY, String(issuedMs - now));
  } catch {
    // Private modes without storage: the device's clock is taken as it is.
  }
}

/** The server's time as this device best knows it. */
export function serverNow(now = Date.now()): number {
  let skew = 0;
  try {
    skew = Number(window.localStorage.getItem(SKEW_KEY) ?? 0) || 0;
  } catch {
    skew = 0;
  }
  return now + skew;
}
