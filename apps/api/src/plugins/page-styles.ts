/**
 * Styles in the HTML the server sends, under a CSP whose `style-src` has no 'unsafe-inline'
 * (issue 29, decision 0053). Every `<style>` element of a page is allowed by its hash, in that
 * page's own header: index.html's (fixed by the build, so also in the header every response
 * gets), a first screen's stylesheets (screen-styles.ts, sign-in-html.ts), the tenant's colours
 * and the style attributes of a screen drawn with React (moved into rules: domain
 * drawn-styles.ts). No page carries a `style` attribute: those could only be allowed with
 * 'unsafe-inline', or per value with 'unsafe-hashes', which not every browser reads.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { hoistStyleAttributes } from '@parcours/domain/drawn-styles';

const STYLE_ELEMENT = /<style(?:\s[^>]*)?>([\s\S]*?)<\/style\s*>/gi;

/**
 * CSP sources (`'sha256-…'`) of the `<style>` elements in `html`'s head, in order, without
 * repeats. The browser hashes the element's text after the parser's newline normalisation.
 */
export function inlineStyleSources(html: string): string[] {
  const headEnd = html.search(/<\/head\s*>/i);
  const head = headEnd < 0 ? html : html.slice(0, headEnd);
  const sources = new Set<string>();
  for (const match of head.matchAll(STYLE_ELEMENT)) {
    const text = (match[1] ?? '').replace(/\r\n?/g, '\n');
    sources.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return [...sources];
}

/**
 * The one `<style>` React Aria adds that index.html cannot hold for it: usePreventScroll's rule
 * while a dialog is open on mobile WebKit (it has no id to find, and must not apply otherwise).
 * Allowed by its hash in every response; `react-aria-styles.test.ts` fails when the library's text
 * changes. Its press rule (usePress) is in index.html under the id usePress looks for.
 */
export const LIBRARY_STYLE_TEXTS = ['@layer {\n  * {\n    overscroll-behavior: contain;\n  }\n}'] as const;

/** CSP sources of texts a script puts in `<style>` elements. */
export function styleTextSources(texts: readonly string[]): string[] {
  return texts.map((text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
}

/** `csp` with `sources` added to its `style-src` (unchanged when it has none). */
export function withStyleSources(csp: string, sources: readonly string[]): string {
  if (sources.length === 0) return csp;
  return csp
    .split(';')
    .map((directive) => {
      const parts = directive.trim().split(/\s+/);
      if (parts[0] !== 'style-src') return directive;
      const added = sources.filter((source) => !parts.includes(source));
      return added.length ? `${directive.trimEnd()} ${added.join(' ')}` : directive;
    })
    .join(';');
}

/** This response's CSP (set for every response by security-headers.ts) also allows `sources`. */
export function allowPageStyles(reply: FastifyReply, sources: readonly string[]): void {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') reply.header('content-security-policy', withStyleSources(csp, sources));
}

const SAFE_VALUE = /^[^<>{};\\"'\r\n]*$/;

/**
 * The tenant's colours (lib/branding.ts brandPalette: CSS variables) as a rule on the root
 * element, which the app's own later `style.setProperty` calls override. `html:root` outranks the
 * stylesheets' `:root` defaults, whatever their order. Names and values that could leave the
 * rule are dropped (the values are hex colours).
 */
export function paletteRule(palette: Record<string, string>): string {
  const declarations = Object.entries(palette)
    .filter(([name, value]) => /^--[a-z0-9-]+$/.test(name) && SAFE_VALUE.test(value))
    .map(([name, value]) => `${name}: ${value}`);
  return declarations.length ? `html:root{${declarations.join('; ')}}` : '';
}

/**
 * A drawn screen's markup without style attributes, and the `<style>` element (empty string when
 * none) that draws it until the app puts the styles back (apps/web lib/drawn-styles.ts): the
 * palette's rule and the hoisted ones.
 */
export function drawnScreen(body: string, palette: Record<string, string>): { body: string; style: string } {
  const hoisted = hoistStyleAttributes(body);
  const css = [paletteRule(palette), hoisted.css].filter(Boolean).join('\n');
  return { body: hoisted.markup, style: css ? `<style>${css}</style>\n  ` : '' };
}
