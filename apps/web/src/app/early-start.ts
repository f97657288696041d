/**
 * The inline script of index.html (built by apps/web/vite-early-start.ts, decision 0024): runs
 * while the HTML is parsed, before any module script, and
 * - starts the first screen's reads (app/early-plan.ts) with the headers the API client sends,
 *   keeping them on `window.__parcoursEarly` for it (lib/early-requests.ts);
 * - asks for the screen's code and the language's texts (`modulepreload`), so they do not wait
 *   for the entry script to run and import them.
 * Any failure here only means the app asks for everything itself, as it did before.
 */
import { pickLocale } from '@parcours/domain/locale';
import { HTML_MARKERS } from '@parcours/domain/routes';
import { API_BASE_PATH_KEY, DEFAULT_API_BASE } from '../lib/api-base';
import { EARLY_GLOBAL, type EarlyEntry } from '../lib/early-requests';
import { holdSubmit } from '../lib/prerendered';
import { API_ACCEPT } from '../lib/query-string';
import { SANDBOX_TOKEN } from '../lib/sandbox';
import { STORAGE_KEYS } from '../lib/storage';
import { planEarlyRequests } from './early-plan';

/** Written by the build: the files each first screen needs and each language's texts. */
export interface PreloadMap {
  /**
   * [pathname pattern (RegExp source), signed-in screen, files (scripts largest first, then
   * styles), where the language's texts go in that order, the files it also needs where the
   * browser has no HTML Sanitizer API].
   */
  routes: [string, boolean, string[], number, string[]][];
  /**
   * Per language: the texts every page needs, the signed-in screens' texts, and both in one
   * file (what a signed-in start loads: lib/i18n.ts expectScreenTexts).
   */
  texts: Record<string, { core: string[]; screens: string[]; all: string[] }>;
}

declare const __PARCOURS_PRELOAD__: PreloadMap;

/**
 * Whether the browser has the HTML Sanitizer API that lib/sanitize-html.ts uses before it falls
 * back to DOMPurify (decision 0033). Without it (Safari, older Chromium), the screens that show
 * content HTML wait for DOMPurify's chunk: asked for here with their code, it no longer comes one
 * round trip after it. (The app also probes the API; a browser that fails the probe loads
 * DOMPurify itself, as before.)
 */
function hasSanitizerApi(): boolean {
  return (
    typeof (window as { Sanitizer?: unknown }).Sanitizer === 'function' &&
    typeof (Element.prototype as { setHTML?: unknown }).setHTML === 'function'
  );
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function preload(href: string): void {
  // A first screen's styles the server already put in the HTML (a disabled link names each).
  if (href.endsWith('.css') && document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  const link = document.createElement('link');
  if (href.endsWith('.css')) {
    link.rel = 'preload';
    link.as = 'style';
  } else link.rel = 'modulepreload';
  // As Vite's own preloads ask (crossorigin=""), or the browser would not use the preloaded copy.
  link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
}

/**
 * The server's HTML of the sign-in screen (decision 0026) comes before the app: a submit there
 * (Enter in a field) would post the form to the server and reload the page, losing what was typed.
 * It waits instead; the app's own submit handler takes over when it starts, and sends it then
 * (lib/prerendered.ts holdSubmit).
 */
function holdSignInSubmits(): void {
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (form instanceof HTMLFormElement && form.closest('[data-prerendered]')) {
        event.preventDefault();
        holdSubmit();
      }
    },
    true,
  );
}

/**
 * The tenant's `contexts/current` document the server put in the HTML (apps/api/src/plugins/
 * context-in-html.ts; the element comes before this script), or null: the read then goes out.
 */
const CONTEXT_ELEMENT_ID = 'parcours-context';
const CONTEXT_URL = `${DEFAULT_API_BASE}/contexts/current`;
const API_JSON = 'application/vnd.api+json';

function embeddedContext(): string | null {
  const text = document.getElementById(CONTEXT_ELEMENT_ID)?.textContent;
  return text ? text : null;
}

/** The screen's files to preload (its code, texts and styles), once the plan below is made. */
let screenFiles: string[] = [];

/**
 * The app's code: the screen's files preloaded, then the entry script and its preloads that the
 * server left inert on a page painted first (apps/api/src/plugins/paint-first.ts), in the order
 * the build wrote them.
 */
function startCode(): void {
  screenFiles.forEach(preload);
  document
    .querySelectorAll<HTMLLinkElement>(`link[rel="${HTML_MARKERS.afterPaintLinkRel}"]`)
    .forEach((inert) => {
      preload(inert.getAttribute('href') ?? '');
      inert.remove();
    });
  document
    .querySelectorAll<HTMLScriptElement>(`script[type="${HTML_MARKERS.afterPaintScriptType}"]`)
    .forEach((inert) => {
      const script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = inert.dataset.src ?? '';
      inert.replaceWith(script);
    });
}

/** How long a parsed page waits for its paint before its code starts anyway. */
const PAINT_WAIT_MS = 1_000;

/**
 * Once the parsed page has been painted: when the browser reports its first contentful paint
 * (Paint Timing), whose time is when the frame reached the screen. A frame's own callbacks come
 * earlier than that: started from the frame after DOMContentLoaded, the code's requests began
 * before the paint in 2 of 5 Lighthouse runs of the drawn home (10–40 ms on a fast line), and
 * its simulated LCP then counted them (0.8 → 2.2 s). Without Paint Timing, the frame after
 * DOMContentLoaded. A tab opened in the background paints nothing: there, and if no paint comes
 * in time, the code starts anyway.
 */
function afterPaint(start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  const whenParsed = () => {
    if (document.visibilityState === 'hidden') return once();
    if (
      typeof PerformanceObserver === 'function' &&
      PerformanceObserver.supportedEntryTypes?.includes('paint')
    ) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        setTimeout(once, 0);
      }).observe({ type: 'paint', buffered: true });
      setTimeout(once, PAINT_WAIT_MS);
    } else {
      requestAnimationFrame(() => setTimeout(once, 0));
      setTimeout(once, 250);
    }
  };
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', whenParsed, { once: true });
  else whenParsed();
}

try {
  holdSignInSubmits();
  const { origin, pathname, search } = window.location;
  const token = read(STORAGE_KEYS.token);
  // A stored token: the visitor is probably signed in and /login will send them on, so the
  // server's sign-in screen stays hidden (index.html's style) rather than flash (decision 0026).
  if (token) document.documentElement.classList.add('has-token');
  // A page the server drew for this learner (decision 0046) carries the data of its reads: none
  // goes out again. Its code and texts are still asked for early, for the hydration.
  const drawn = document.querySelector(HTML_MARKERS.drawnMetaSelector) !== null;
  // The tenant's context, in the HTML too, is still handed to the app as its early read.
  const urls = drawn
    ? [`${DEFAULT_API_BASE}/contexts/current`]
    : planEarlyRequests({
        origin,
        pathname,
        search,
        token,
        userId: read(STORAGE_KEYS.userId),
        apiBasePath: read(API_BASE_PATH_KEY),
        storedContext: read(STORAGE_KEYS.context),
        now: Date.now(),
      });
  const headers: Record<string, string> = { Accept: API_ACCEPT };
  if (token) headers.Authorization = `Bearer ${token}`;
  const context = embeddedContext();
  const entries: EarlyEntry[] = urls.map((url) => {
    const response =
      context !== null && url === CONTEXT_URL
        ? Promise.resolve(new Response(context, { status: 200, headers: { 'Content-Type': API_JSON } }))
        : fetch(url, { headers });
    // Unused or failed, an early read is nobody's error: the app asks again.
    response.catch(() => undefined);
    return { url, token, at: Date.now(), response };
  });
  (window as unknown as Record<string, unknown>)[EARLY_GLOBAL] = entries;

  const map = __PARCOURS_PRELOAD__;
  const route = map.routes.find(([pattern]) => new RegExp(pattern).test(pathname));
  if (route) {
    const [, signedIn, files, textsAt, withoutSanitizer] = route;
    // A signed-in screen without a token (or in sandbox mode) goes to /login: its code would wait.
    if (!signedIn || (token !== null && token !== SANDBOX_TOKEN)) {
      // A drawn page is in the learner's language (theirs may not be the browser's): `<html lang>`.
      const lang = drawn
        ? pickLocale([document.documentElement.lang])
        : pickLocale(navigator.languages ?? [navigator.language]);
      const texts = map.texts[lang];
      const list = [...files];
      list.splice(textsAt, 0, ...((signedIn ? texts?.all : texts?.core) ?? []));
      if (!hasSanitizerApi()) list.push(...withoutSanitizer);
      screenFiles = list;
    }
  }
} catch {
  // Storage, fetch or the DOM refused: the app starts the usual way.
}
// A page whose screen is in its HTML is painted first, its code asked for after (decision 0054:
// the server made the entry script inert); any other page asks at once. Outside the try: whatever
// failed above, a page painted first must still start its code.
if (document.querySelector(HTML_MARKERS.paintFirstMetaSelector)) afterPaint(startCode);
else startCode();
