import DOMPurify from 'dompurify';
import { useMemo } from 'react';

let hooked = false;

/**
 * Course HTML is sanitised by the importer too, but the browser never trusts it: scripts, event
 * handlers, styles, forms and frames go; links opening a new tab cannot reach back.
 */
export function sanitizeHtml(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node instanceof Element && node.tagName === 'A' && node.getAttribute('target'))
        node.setAttribute('rel', 'noopener noreferrer');
    });
  }
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: ['target'],
  });
}

/** Plain text of course HTML, for accessible names and announcements. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const template = document.createElement('template');
  template.innerHTML = sanitizeHtml(html);
  return (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}

interface RichTextProps {
  html: string | null | undefined;
  /** span for inline labels (choices), div for blocks of text. */
  inline?: boolean;
  className?: string;
  id?: string;
}

/** Sanitised course HTML. */
export function RichText({ html, inline = false, className, id }: RichTextProps) {
  const clean = useMemo(() => sanitizeHtml(html ?? ''), [html]);
  const Tag = inline ? 'span' : 'div';
  return <Tag id={id} className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
