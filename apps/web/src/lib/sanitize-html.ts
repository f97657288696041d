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
import type { DOMPurify } from 'dompurify';
import { useMemo } from 'react';

type Clean = (html: string) => string;

/** The part of the HTML Sanitizer API used here (not yet in TypeScript's DOM types). */
interface SanitizerConfig {
  elements: { name: string; attributes: string[] }[];
  attributes: string[];
  comments: boolean;
  dataAttributes: boolean;
}
type SanitizerConstructor = new (config: SanitizerConfig) => object;
type SetHtml = (this: Element, html: string, options: { sanitizer: object }) => void;

const GLOBAL_ATTRIBUTES: readonly string[] = CONTENT_HTML_GLOBAL_ATTRIBUTES;

function protectLinks(root: ParentNode) {
  root.querySelectorAll('a[target]').forEach((link) => link.setAttribute('rel', 'noopener noreferrer'));
}

/** Serialises through an inert template, where images do not load and nothing runs. */
function serialise(html: string, change: (root: DocumentFragment) => void): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  change(template.content);
  return template.innerHTML;
}

/**
 * What the safe method must drop (handlers, javascript: URLs, scripts) and what the list keeps
 * (a link's target, an image): an implementation that answers otherwise, such as a draft of the
 * API with another configuration shape, is not used.
 */
const PROBE =
  '<a href="javascript:void(0)" onclick="void 0" target="_blank" class="k" style="color:red">a</a>' +
  '<img src="/probe.png" alt="b" onerror="void 0"><script>void 0</script><span data-x="1">c</span>';

function passesProbe(clean: Clean): boolean {
  const template = document.createElement('template');
  template.innerHTML = clean(PROBE);
  const root = template.content;
  const link = root.querySelector('a');
  const image = root.querySelector('img');
  return (
    !!link &&
    !!image &&
    !root.querySelector('script') &&
    !link.hasAttribute('href') &&
    !link.hasAttribute('onclick') &&
    !link.hasAttribute('style') &&
    link.getAttribute('target') === '_blank' &&
    link.getAttribute('rel') === 'noopener noreferrer' &&
    link.className === 'k' &&
    image.getAttribute('src') === '/probe.png' &&
    image.getAttribute('alt') === 'b' &&
    !image.hasAttribute('onerror') &&
    !root.querySelector('[data-x]') &&
    root.textContent === 'ac'
  );
}

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
      attributes: [...GLOBAL_ATTRIBUTES],
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
    return passesProbe(clean) ? clean : null;
  } catch {
    return null;
  }
}

function purifyCleaner(purify: DOMPurify): Clean {
  // DOMPurify has one attribute list for every tag: the hook keeps a tag's own ones to that tag.
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const own = CONTENT_HTML_TAG_ATTRIBUTES[node.nodeName.toLowerCase()] ?? [];
    if (!GLOBAL_ATTRIBUTES.includes(data.attrName) && !own.includes(data.attrName)) data.keepAttr = false;
  });
  const config = {
    // '#text': DOMPurify adds text nodes to the list itself only with KEEP_CONTENT.
    ALLOWED_TAGS: [...CONTENT_HTML_TAGS, '#text'],
    ALLOWED_ATTR: [...new Set([...GLOBAL_ATTRIBUTES, ...Object.values(CONTENT_HTML_TAG_ATTRIBUTES).flat()])],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    // What is not on the list goes with its content, as the browser's Sanitizer does, so a page
    // reads the same on every browser.
    KEEP_CONTENT: false,
  };
  return (html) => serialise(purify.sanitize(html, config), protectLinks);
}

let cleaner: Clean | null | undefined;
let loading: Promise<void> | null = null;
let loadError: unknown = null;

function current(): Clean | null {
  if (cleaner === undefined) cleaner = nativeCleaner();
  return cleaner;
}

/** Which cleaner renders content HTML on this browser (bench and tests). */
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
  loading ??= import('dompurify').then(
    (module) => {
      cleaner = purifyCleaner(module.default);
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
  const doc = document.implementation.createHTMLDocument('');
  doc.body.innerHTML = html;
  doc.body
    .querySelectorAll('script, style, template, noscript, textarea, title')
    .forEach((node) => node.remove());
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
