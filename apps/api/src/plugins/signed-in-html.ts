/**
 * Signed-in first screens drawn on the server (issue 26, decision 0046): the home and a player
 * page, for a browser that sends the HTML session cookie (html-session.ts). The web build's
 * server renderer (`renderSignedIn` beside `renderSignIn`) runs the app's own screens with React
 * DOM's server renderer and reads its data through the API's own routes, called in-process
 * with the cookie's token as the bearer: the HTML can hold nothing the API would not answer that
 * learner at that moment (the routes apply the same tenant, ownership and answer-key rules).
 * The reads it made travel in the page (TanStack Query's dehydrated state), so the browser makes
 * none of them again.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Locale } from '@parcours/domain/entities';
import { HTML_MARKERS } from '@parcours/domain/routes';
import { drawnScreen } from './page-styles';
import { escapeHtml } from '../lib/html';
import { recordingRead, type DrawnRead } from '../lib/drawn-reads';

/** What the web build's server renderer answers for a signed-in page. */
export interface SignedInMarkup {
  /** The inside of `#root`. */
  body: string;
  title: string;
  /** The tenant's colours as CSS variables, drawn as a rule on the root element (page-styles.ts). */
  palette: Record<string, string>;
  /** The data the app starts from (JSON text, put in a data block as it is). */
  state: string;
  /** The language it was drawn in (the learner's own choice may differ from the browser's). */
  lang?: Locale;
}

/** Why nothing was drawn: the token was refused (the cookie is then ended), or the page is not one the renderer draws. */
export type SignedInRefusal = { refused: 'token' | 'page' };

export interface SignedInRenderer {
  renderSignedIn(request: {
    tenant: unknown;
    lang: Locale;
    /** Path and query of the document request. */
    url: string;
    /** fetch() for the API's routes, in-process, carrying the cookie's token as the bearer. */
    fetch: typeof fetch;
  }): Promise<SignedInMarkup | SignedInRefusal>;
}

/** The data block's id, read by the web app's start (apps/web/src/main.tsx). */
export const STATE_ELEMENT_ID = HTML_MARKERS.stateElementId;

const CHARSET = '<meta charset="UTF-8" />';
/** Read by the inline script (apps/web/src/app/early-start.ts). */
export const DRAWN_MARKER = HTML_MARKERS.drawnMeta;

/**
 * One read of the API's route `path` (path and query under /api/), injected in-process with the
 * document request's Host, languages and scheme and `token` as the bearer.
 */
export function injectRead(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
  path: string,
): Promise<{ statusCode: number; rawPayload: Buffer; headers: Record<string, unknown> }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (request.headers.host) headers.host = request.headers.host;
  const language = request.headers['accept-language'];
  if (typeof language === 'string') headers['accept-language'] = language;
  const forwarded = request.headers['x-forwarded-proto'];
  if (typeof forwarded === 'string') headers['x-forwarded-proto'] = forwarded;
  // `inject` returns a chain that starts the request when its `then` is called: called here, so
  // the request runs in the caller's async context (lib/drawn-reads.ts records through it).
  return app.inject({ method: 'GET', url: path, headers }).then((res) => res);
}

/**
 * A fetch() whose requests are the API's own routes, injected in-process: no socket, the same
 * hooks and handlers as a browser's call. GET only (drawing a page never writes), under /api only,
 * with the document request's Host and languages, and `token` as the bearer. Given `reads`, each
 * call is recorded there: its address, its answer, and whether the answer cache covered it.
 */
export function injectFetch(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
  reads?: DrawnRead[],
): typeof fetch {
  return async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // The app's calls are same-origin paths (lib/api-base.ts): anything with an origin is refused.
    const url = new URL(href, 'http://in-process');
    const method = (init?.method ?? 'GET').toUpperCase();
    if (url.origin !== 'http://in-process' || method !== 'GET' || !url.pathname.startsWith('/api/')) {
      throw new TypeError(`the server renderer may only read the API (${method} ${href})`);
    }
    const path = url.pathname + url.search;
    // Each read is recorded with what its route says keeps it current (lib/drawn-reads.ts, 0061).
    const read: DrawnRead = { url: path, status: 0, body: Buffer.alloc(0), coveredUntil: null };
    const res = reads
      ? await recordingRead(read, () => injectRead(app, request, token, path))
      : await injectRead(app, request, token, path);
    if (reads) {
      read.status = res.statusCode;
      read.body = res.rawPayload;
      reads.push(read);
    }
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
      out.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers: out });
  };
}

/**
 * The page: `index` (the tenant's page, with its context and the route's styles) with the screen
 * in `#root` (marked `data-prerendered="signed-in"`, which main.tsx hydrates), `lang`, the
 * title, the data block, and the tenant's colours and the screen's style attributes in a `<style>`
 * (page-styles.ts). Null when index.html lacks a marker.
 */
export function signedInPage(index: string, markup: SignedInMarkup, browserLang: Locale): string | null {
  const lang = markup.lang ?? browserLang;
  const root = index.indexOf('<div id="root">');
  const end = index.indexOf('<noscript>', root);
  const html = /<html lang="[^"]*">/.exec(index);
  if (root < 0 || end < 0 || !html || !index.includes('</head>')) return null;
  // No style attribute under the CSP: the palette and the screen's styles in a <style> (page-styles.ts).
  const screen = drawnScreen(markup.body, markup.palette);
  // Learner text is in the state: every `<` written `\u003c`, so nothing closes the element.
  const state = markup.state.replace(/</g, '\\u003c');
  return (
    index
      .slice(0, root)
      // Before index.html's inline script: the page's reads are in it, none goes out early.
      .replace(CHARSET, () => `${CHARSET}\n    ${DRAWN_MARKER}`)
      .replace(html[0], () => `<html lang="${lang}">`)
      .replace('</head>', () => `${screen.style}</head>`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(markup.title)}</title>`) +
    `<script type="application/json" id="${STATE_ELEMENT_ID}">${state}</script>\n    ` +
    `<div id="root" data-prerendered="${HTML_MARKERS.drawnRoot}">${screen.body}</div>\n    ` +
    index.slice(end)
  );
}
