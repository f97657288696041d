import {
  CONTENT_HTML_GLOBAL_ATTRIBUTES,
  CONTENT_HTML_IMAGE_SCHEMES,
  CONTENT_HTML_LINK_SCHEMES,
  CONTENT_HTML_TAG_ATTRIBUTES,
  CONTENT_HTML_TAGS,
} from '@parcours/domain/content-html';
import sanitizeHtml from 'sanitize-html';

/**
 * Content HTML is written by authors but rendered to every learner, so it is cleaned once at
 * import (the web app cleans it again before rendering, with the same list: decision 0033).
 * Formatting, lists, tables, images and links are kept; scripts, styles, event handlers, iframes
 * and javascript:/data: URLs go.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...CONTENT_HTML_TAGS],
  allowedAttributes: {
    ...Object.fromEntries(
      Object.entries(CONTENT_HTML_TAG_ATTRIBUTES).map(([tag, names]) => [tag, [...names]]),
    ),
    '*': [...CONTENT_HTML_GLOBAL_ATTRIBUTES],
  },
  allowedSchemes: [...CONTENT_HTML_LINK_SCHEMES],
  allowedSchemesByTag: { img: [...CONTENT_HTML_IMAGE_SCHEMES] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link opening a new tab must not hand the opener window to the target page.
    a: (tagName, attribs) =>
      attribs.target === '_blank'
        ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }
        : { tagName, attribs },
  },
};

export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
