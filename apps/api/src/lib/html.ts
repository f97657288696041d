/**
 * Text put into HTML the server writes (a page's title, an attribute, a mail, a badge): the five
 * characters that could end an element, an attribute or an entity, as named entities. The one
 * escaping of the server (issue 40: five copies had drifted into two entity forms).
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
