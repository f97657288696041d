import DOMPurify from 'dompurify';

/**
 * Tenant-authored HTML is never trusted, even though the API sanitises it too: scripts, event
 * handlers, forms and frames are dropped; links that open a new tab cannot reach back.
 */
export function sanitizeLegalHtml(html: string): string {
  const clean = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: ['target'],
  });
  const template = document.createElement('template');
  template.innerHTML = clean;
  template.content
    .querySelectorAll('a[target]')
    .forEach((link) => link.setAttribute('rel', 'noopener noreferrer'));
  return template.innerHTML;
}
