/**
 * The HTML session cookie (issue 26, decision 0046): a signed-in browser's document requests carry
 * the learner's token in an HttpOnly, SameSite=Lax cookie, so the server can draw the first screen
 * of the home and of a player page with the learner's data. It is read by one place only, the
 * HTML renderer (web-app.ts): no API route accepts it, API calls keep the bearer token
 * (auth.ts reads the Authorization header alone), so a page of another site that makes the
 * browser send the cookie reaches no data through the API. It lives as long as the token in it,
 * and a revocation of the token (password change, decision 0003) ends it like any bearer.
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';

export const HTML_SESSION_COOKIE = 'parcours_html';

/**
 * The cookie plugin without its parsing hook: only the HTML renderer reads cookies, so no API
 * request pays for parsing a Cookie header it never looks at.
 */
export async function registerHtmlSessionCookies(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCookie, { hook: false });
}

/** Whether the browser reached us over https (behind a proxy: trustProxy decides request.protocol). */
const isSecure = (request: FastifyRequest) => request.protocol === 'https';

/**
 * Sets the cookie to `token`, expiring with it. A token without a readable `exp` (never one of
 * ours) sets nothing.
 */
export function setHtmlSession(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  now = Date.now(),
): void {
  let exp: number | undefined;
  try {
    exp = decodeJwt(token).exp;
  } catch {
    return;
  }
  if (typeof exp !== 'number') return;
  const maxAge = Math.floor(exp - now / 1000);
  if (maxAge <= 0) return;
  reply.setCookie(HTML_SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
    maxAge,
  });
}

/** Ends the cookie (sign-out, a refused token). */
export function clearHtmlSession(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(HTML_SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
  });
}

/** The token the browser sent in the cookie, for the HTML renderer only. */
export function htmlSessionToken(app: FastifyInstance, request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const value = app.parseCookie(header)[HTML_SESSION_COOKIE];
  return value && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value) ? value : null;
}
