/**
 * Course and tenant HTML is cleaned by the importer, but the browser never trusts it (decision
 * 0033): before it is rendered it goes through the browser's own Sanitizer (`Element.setHTML`,
 * whose safe method drops whatever can run script whatever the configuration), or through
 * DOMPurify, loaded only where there is no such Sanitizer. Both keep the importer's list
 * (@parcours/domain/content-html), and links that open a new tab cannot reach back.
 */
import {
  CONTENT_HTML_GLOBAL_ATTRIBUTES,
  CONTENT_HTML_TAG_ATTRIBUTES,
  CONTENT_HTML_TAGS,
} from '@parcours/domain/content-html';
import { useMemo } from 'react';

export type Clean = (html: string) => string;

/** The part of the HTML Sanitizer API used here (not yet in TypeScript's DOM types). */
interface SanitizerConfig {
  elements: { name: string; attributes: string[] }[];
  attributes: string[];
  comments: boolean;
  dataAttributes: boolean;
}
type SanitizerConstructor = new (config: SanitizerConfig) => object;
type SetHtml = (this: Element, html: string, options: { sanitizer: object }) => void;

/** Links that open a new tab cannot reach back to the app. */
export function protectLinks(root: ParentNode) {
  root.querySelectorAll('a[target]').forEach((link) => link.setAttribute('rel', 'noopener noreferrer'));
}

/**
 * What the safe method must drop (javascript: URLs, scripts, data attributes, attributes the list
 * does not name) and what the list keeps (a link's target, an image), compared whole: an
 * implementation that answers anything else, such as a draft of the API with another
 * configuration shape, is not used, and DOMPurify takes over. No event handler or `style`
 * attribute in it: parsing one, even in a document of its own, is a CSP violation the browser
 * reports (decision 0053), and the safe method drops them whatever its configuration.
 */
const PROBE =
  '<a href="javascript:void(0)" target="_blank" class="k" hreflang="fr">a</a>' +
  '<img src="/p.png" alt="b" decoding="async"><script>void 0</script><span data-x="1">c</span>';
const PROBE_CLEAN =
  '<a target="_blank" class="k" rel="noopener noreferrer">a</a><img src="/p.png" alt="b"><span>c</span>';

function nativeCleaner(): Clean | null {
  const Sanitizer = (globalThis as { Sanitizer?: SanitizerConstructor }).Sanitizer;
  const setHTML = (Element.prototype as { setHTML?: SetHtml }).setHTML;
  if (typeof Sanitizer !== 'function' || typeof setHTML !== 'function') return null;
  try {
    const sanitizer = new Sanitizer({
      elements: CONTENT_HTML_TAGS.map((name) => ({
        name,
        attributes: [...(CONTENT_HTML_TAG_ATTRIBUTES[name] ?? [])],
      })),
      attributes: [...CONTENT_HTML_GLOBAL_ATTRIBUTES],
      comments: false,
      dataAttributes: false,
    });
    // Parsed in a document of its own: nothing in it loads or runs, and the result is serialised
    // as DOMPurify's is (React renders a string).
    const inert = document.implementation.createHTMLDocument('');
    const clean: Clean = (html) => {
      const box = inert.createElement('div');
      setHTML.call(box, html, { sanitizer });
      protectLinks(box);
      return box.innerHTML;
    };
    return clean(PROBE) === PROBE_CLEAN ? clean : null;
  } catch {
    return null;
  }
}

let cleaner: Clean | null | undefined;
let loading: Promise<void> | null = null;
let loadError: unknown = null;

function current(): Clean | null {
  if (cleaner === undefined) cleaner = nativeCleaner();
  return cleaner;
}

/**
 * On the server (prerender/signed-in.tsx, decision 0046), which has neither a Sanitizer nor a
 * DOM for DOMPurify: the importer's own cleaner (the same lists), set before any page is drawn.
 */
export function setServerCleaner(clean: Clean): void {
  cleaner = clean;
}

let makeInertDocument = (): Document => document.implementation.createHTMLDocument('');

/**
 * On the server (prerender/signed-in.tsx): where htmlToText reads text, since there is no
 * `document` there. Without it a choice's label threw while the server drew a player page, and
 * its whole row was left to the browser (React's #419 at hydration).
 */
export function setServerInertDocument(make: () => Document): void {
  makeInertDocument = make;
}

/** Which cleaner renders content HTML on this browser (the unit and browser tests check it). */
export function sanitizerKind(): 'native' | 'dompurify' | 'none' {
  if (current()) return loading ? 'dompurify' : 'native';
  return 'none';
}

/**
 * Resolves once content HTML can be cleaned: at once with the browser's Sanitizer, after
 * DOMPurify's chunk elsewhere. The screens that show content HTML wait for it with their code
 * (app/routes.ts), so they render whole.
 */
export function sanitizerReady(): Promise<void> {
  if (current()) return Promise.resolve();
  loading ??= import('./sanitize-purify').then(
    (module) => {
      cleaner = module.purifyCleaner();
    },
    (error: unknown) => {
      loading = null;
      loadError = error;
      throw error;
    },
  );
  return loading;
}

/** Cleaned HTML, to render; only once sanitizerReady() has resolved. */
export function sanitizeHtml(html: string): string {
  const clean = current();
  if (!clean) throw new Error('sanitizeHtml: the sanitizer is not loaded (await sanitizerReady())');
  return clean(html);
}

/**
 * Cleaned HTML for a component. Suspends while DOMPurify is still on its way (a screen that did
 * not wait for it), and a failed load reaches the error boundary's reload offer.
 */
export function useSanitizedHtml(html: string): string {
  const clean = current();
  if (!clean) waitForCleaner();
  return useMemo(() => clean(html), [clean, html]);
}

/** What a component waits for: the load under way, or the error it ended in (once: a reload retries). */
function waitForCleaner(): never {
  if (loadError) {
    const error = loadError;
    loadError = null;
    throw error;
  }
  throw sanitizerReady();
}

/**
 * Plain text of content HTML, for accessible names and announcements. Read from an inert
 * document, where nothing loads or runs, so it needs no sanitizer; text that is not shown
 * (scripts, styles) is left out as the sanitizers would.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const doc = makeInertDocument();
  doc.body.innerHTML = html;
  doc.body
    .querySelectorAll('script, style, template, noscript, textarea, title')
    .forEach((node) => node.remove());
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
