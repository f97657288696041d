/**
 * What course and tenant HTML may hold (decision 0033). The importer cleans it with this list
 * (apps/api content/sanitize.ts) and the web app cleans it again before rendering, with the
 * browser's own Sanitizer where there is one and DOMPurify elsewhere (apps/web lib/sanitize-html.ts):
 * one list, so a page reads the same whichever cleaned it last. Formatting, lists, tables, images
 * and links; no scripts, styles, forms, frames, media players, SVG or MathML.
 */

/** sanitize-html's default tags, plus images and edits (the importer's list since issue 3). */
export const CONTENT_HTML_TAGS = [
  'address',
  'article',
  'aside',
  'footer',
  'header',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hgroup',
  'main',
  'nav',
  'section',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'hr',
  'li',
  'menu',
  'ol',
  'p',
  'pre',
  'ul',
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  'rb',
  'rp',
  'rt',
  'rtc',
  'ruby',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
  'caption',
  'col',
  'colgroup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'img',
  'del',
  'ins',
] as const;

/** Attributes kept on one tag only. */
export const CONTENT_HTML_TAG_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  ol: ['start', 'type'],
  abbr: ['title'],
};

/** Attributes kept on every allowed tag. */
export const CONTENT_HTML_GLOBAL_ATTRIBUTES = ['class', 'lang', 'dir'] as const;

/** URL schemes of links; images take http(s) only. Relative URLs (/api/files/…) are kept. */
export const CONTENT_HTML_LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;
export const CONTENT_HTML_IMAGE_SCHEMES = ['http', 'https'] as const;

/**
 * The lists above as the options of the `sanitize-html` library, for the two places that clean
 * with it: the importer (apps/api/src/content/sanitize.ts) and the server's drawing of a page
 * (apps/web/src/prerender/signed-in.tsx). A plain object: this package does not depend on it.
 */
export const SANITIZE_HTML_OPTIONS = {
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
  disallowedTagsMode: 'discard' as const,
  transformTags: {
    // A link opening a new tab must not hand the opener window to the target page.
    a: (tagName: string, attribs: Record<string, string>) =>
      attribs.target === '_blank'
        ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }
        : { tagName, attribs },
  },
};
