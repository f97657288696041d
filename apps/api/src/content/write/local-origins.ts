/**
 * A tenant's `hosts` as this installation serves them (issue 39: the learner's xAPI actor names
 * `hosts.app` as its account's homePage, modules/lrs/credentials.ts).
 *
 * An origin on a loopback name (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`) can only be
 * this machine's own server: content written for the demo says `http://localhost:3000`, yet
 * `PORT=4000 npm start` serves it on 4000, and every statement would then name an origin the
 * tenant is not served on. Such an origin is written with the port the app listens on (env
 * `PORT`). A public origin is the operator's word (a reverse proxy's) and is written as given.
 * Only the hosts this server answers on move (`app`, `api`, `frontoffice`): `backoffice` is the
 * content preview tool on a port of its own (`npm run author`), and the others name services
 * elsewhere. The origin is fixed at import: a learner's actor stays the same for as long as the installation
 * keeps its port, and an import under another port moves every learner's homePage at once (the
 * privacy walk knows each tenant's current one and its URN, modules/privacy/learner.ts).
 */
export function hostsServedOn<T extends Record<string, string | undefined>>(
  hosts: T,
  port: number | undefined,
): T {
  if (port === undefined || port === 0) return hosts;
  const out: Record<string, string | undefined> = { ...hosts };
  for (const [key, value] of Object.entries(hosts)) {
    if (value === undefined || !SERVED_HERE.has(key)) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (!isLoopback(url.hostname)) continue;
    url.port = String(port);
    // An origin stays an origin (no trailing slash added); a URL with a path keeps its path.
    const bareOrigin = url.pathname === '/' && !url.search && !url.hash && !value.endsWith('/');
    out[key] = bareOrigin ? url.origin : url.href;
  }
  return out as T;
}

/** The hosts served by this very app (the web app, its API, the learner front office). */
const SERVED_HERE = new Set(['app', 'api', 'frontoffice']);

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '127.0.0.1' || h === '[::1]';
}
