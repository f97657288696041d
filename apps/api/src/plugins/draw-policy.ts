/**
 * Whether a document request may get the learner's page drawn (decision 0057). Only a navigation
 * the learner made herself gets it: one typed, bookmarked or reloaded (`Sec-Fetch-Site: none`),
 * or one from the app's own pages (`same-origin`). A link or form from any other site
 * (`cross-site`), or from another origin of the same site (`same-site`: a package served on
 * another port, decision 0048), gets the page every browser gets, without her data: the
 * SameSite=Lax cookie rides a cross-site top-level GET, so it proves nothing about who asked.
 * A browser that sends no Fetch Metadata (all current ones do) is judged by its Referer and
 * Origin: one naming another origin gets the plain page; none at all gets the drawn one.
 */
import type { FastifyRequest } from 'fastify';

const OWN_NAVIGATION = new Set(['same-origin', 'none']);

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The host (with port) of an Origin or Referer value; null when it is not a URL (`null` origin). */
function hostOf(value: string): string | null {
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}

export function mayDrawFor(request: FastifyRequest): boolean {
  const site = header(request, 'sec-fetch-site');
  if (site !== undefined) return OWN_NAVIGATION.has(site.trim().toLowerCase());
  const own = (request.headers.host ?? '').toLowerCase();
  for (const name of ['origin', 'referer']) {
    const value = header(request, name);
    if (value !== undefined && hostOf(value) !== own) return false;
  }
  return true;
}
