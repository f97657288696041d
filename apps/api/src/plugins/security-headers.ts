import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';
import type { HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, HSTS, nosniff, frame options…) on every response. They do not
 * depend on the request, so helmet runs once at start-up against a recording response and every
 * request gets the recorded headers: @fastify/helmet rebuilt helmet, CSP parsing included, on
 * each request, which cost about 6 % of an authenticated API call.
 *
 * The built scripts and stylesheets get only the headers that protect a subresource (`nosniff`,
 * `Cross-Origin-Resource-Policy`): the others (CSP, frame options, COOP, HSTS…) act on documents
 * and workers, and were ~0.9 kB on each of the dozen files of a first screen (issue 11).
 */
const SUBRESOURCE_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy'];

/**
 * Powerful features no page of the app uses, closed for it and every frame in it (issue 29): a
 * learning module or an injected script cannot ask for the camera, the microphone or the
 * position. Left as the browser has them: fullscreen, autoplay, encrypted-media and
 * picture-in-picture, which embedded videos and modules use; a file input's camera capture is
 * not the `camera` feature.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'bluetooth=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

export function registerSecurityHeaders(
  app: FastifyInstance,
  options: HelmetOptions,
  /**
   * Paths a back office on another origin opens in a window and talks to (docs/product.md §7 window
   * messages: /preview, /correction). COOP same-origin would sever `window.opener`, so the
   * 'mounted' message could never reach the back office; these pages keep the opener.
   */
  openedByOtherOrigins?: RegExp,
  /** URL paths (no query) of plain script and style files: web-app.ts `scriptAndStylePaths`. */
  scriptsAndStyles: ReadonlySet<string> = new Set(),
): void {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader() {
      // X-Powered-By: Node's http server never sets it.
    },
  };
  let ran = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    ran = true;
  });
  // Helmet's middleware is synchronous; if a future version were not, headers would be missing.
  if (!ran) throw new Error('helmet did not run synchronously');
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  // Name and value pairs, lower-case, made once: `reply.headers(object)` listed the object's keys
  // and read each through a megamorphic lookup on every request.
  const all = Object.entries(headers);
  const subresource = all.filter(([name]) => SUBRESOURCE_HEADERS.includes(name));
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    if (scriptsAndStyles.has(pathname)) {
      setAll(reply, subresource);
      return done();
    }
    setAll(reply, all);
    if (openedByOtherOrigins?.test(pathname)) reply.header('cross-origin-opener-policy', 'unsafe-none');
    done();
  });
}

function setAll(reply: FastifyReply, pairs: readonly (readonly [string, string])[]): void {
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i]!;
    reply.header(name, value);
  }
}
