import { SANITIZE_HTML_OPTIONS } from '@parcours/domain/content-html';
import sanitizeHtml from 'sanitize-html';

/**
 * Content HTML is written by authors but rendered to every learner, so it is cleaned once at
 * import (the web app cleans it again before rendering, with the same list: decision 0033).
 * Formatting, lists, tables, images and links are kept; scripts, styles, event handlers, iframes
 * and javascript:/data: URLs go.
 */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_HTML_OPTIONS).trim();
}
