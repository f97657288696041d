/**
 * DOMPurify with the importer's list, for browsers without the HTML Sanitizer API (decision 0033).
 * Loaded with DOMPurify itself, only there (lib/sanitize-html.ts).
 */
import {
  CONTENT_HTML_GLOBAL_ATTRIBUTES,
  CONTENT_HTML_TAG_ATTRIBUTES,
  CONTENT_HTML_TAGS,
} from '@parcours/domain/content-html';
import DOMPurify from 'dompurify';
import { protectLinks, type Clean } from './sanitize-html';

const GLOBAL_ATTRIBUTES: readonly string[] = CONTENT_HTML_GLOBAL_ATTRIBUTES;

export function purifyCleaner(): Clean {
  // DOMPurify has one attribute list for every tag: the hook keeps a tag's own ones to that tag.
  DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
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
  return (html) => {
    // Through an inert template, where images do not load and nothing runs.
    const template = document.createElement('template');
    template.innerHTML = DOMPurify.sanitize(html, config);
    protectLinks(template.content);
    return template.innerHTML;
  };
}
