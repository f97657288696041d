/**
 * The HTML session cookie (issue 26, decision 0046): a signed-in browser's document requests carry
 * the learner's token in an HttpOnly, SameSite=Lax cookie, so the server can draw the first screen
 * of the home and of a player page with the learner's data. It is read by one place only, the
 * HTML renderer (web-app.ts): no API route accepts it, API calls keep the bearer token
 * (auth.ts reads the Authorization header alone), so a page of another site that makes the
 * browser send the cookie reaches no data through the API. It lives as long as the token in it,
 * and a revocation of the token (password change, decision 0003) ends it like any bearer.
 *
 * Its name carries the `__Host-` prefix (decision 0057): the browser then keeps it only when it is
 * Secure, for Path=/ and without Domain, and lets no page's script set a cookie of that name with
 * another path, nor replace this HttpOnly one. Cookies know no ports: without the prefix, a
 * package's script served on another port of the same host (decision 0048) could set one with
 * `Path=/session`, which the browser sends first and the server took. It is Secure everywhere:
 * browsers keep Secure cookies over https and on http://localhost; a plain-http address other than
 * localhost gets no cookie, so no drawn page (the app draws itself there).
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';

export const HTML_SESSION_COOKIE = '__Host-parcours_html';
/**
 * The name before decision 0057. Never read (another origin of the host could have set it, with
 * any path); removed wherever the cookie is set or ended, for browsers that still hold it.
 */
export const LEGACY_HTML_SESSION_COOKIE = 'parcours_html';

/**
 * The cookie plugin without its parsing hook: only the HTML renderer reads cookies, so no API
 * request pays for parsing a Cookie header it never looks at.
 */
export async function registerHtmlSessionCookies(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCookie, { hook: false });
}

/**
 * The request's cookies, parsed once by the registered @fastify/cookie (its parser, its decoding)
 * for the few routes that read one (the sign-in's device cookie, the SSO state): with the parsing
 * hook off, `request.cookies` is filled here on first use. Of a name sent twice, the first counts.
 */
export function requestCookies(request: FastifyRequest): Record<string, string | undefined> {
  request.cookies ??= request.server.parseCookie(request.headers.cookie ?? '');
  return request.cookies;
}

/**
 * Sets the cookie to `token`, expiring with it. A token without a readable `exp` (never one of
 * ours) sets nothing.
 */
export function setHtmlSession(
  _request: FastifyRequest,
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
  reply.setCookie(HTML_SESSION_COOKIE, token, { ...COOKIE, maxAge });
  clearLegacy(reply);
}

/** `__Host-`: Secure, Path=/, no Domain. */
const COOKIE = { path: '/', httpOnly: true, sameSite: 'lax', secure: true } as const;

/** The cookie of the old name, as it was set (Path=/): its removal must name the same path. */
function clearLegacy(reply: FastifyReply): void {
  reply.clearCookie(LEGACY_HTML_SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
}

/** Ends the cookie (sign-out, a refused token), and the old name's. */
export function clearHtmlSession(_request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(HTML_SESSION_COOKIE, COOKIE);
  clearLegacy(reply);
}

/**
 * The token the browser sent in the cookie, for the HTML renderer only. A Cookie header that
 * holds the name twice is refused (why this reads the header itself: a parsed object keeps one
 * value per name and could not tell): one of the two was not set by us (a shadow with a longer path
 * from a browser that ignores the prefix), and which is which cannot be told.
 */
export function htmlSessionToken(_app: FastifyInstance, request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const values = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${HTML_SESSION_COOKIE}=`))
    .map((pair) => pair.slice(HTML_SESSION_COOKIE.length + 1));
  const value = values.length === 1 ? values[0] : undefined;
  return value && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value) ? value : null;
}
