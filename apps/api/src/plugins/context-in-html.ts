/**
 * The tenant's `contexts/current` document carried in the HTML (issue 11): the server knows the
 * tenant from the Host when it sends any page, so the app's first read need not be a request of
 * its own. On a slow phone every request before the first screen waits for one of six
 * connections and a round trip; this one now comes with the HTML. index.html's inline script
 * (apps/web/src/app/early-start.ts) hands it to the API client as the answer of its early
 * `contexts/current` read, so the app parses it exactly as a fetched one.
 */

/** The data block's id, read by apps/web/src/app/early-start.ts (CONTEXT_ELEMENT_ID there). */
export const CONTEXT_ELEMENT_ID = 'parcours-context';

const CHARSET = '<meta charset="UTF-8" />';

/**
 * A JSON data block (`type="application/json"`: never executed, so the CSP's script hashes are
 * not involved). Every `<` is written `\u003c`, so tenant text cannot close the element or open
 * a comment inside it; JSON.parse reads the escape back.
 */
export function contextDataBlock(document: unknown): string {
  const json = JSON.stringify(document).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${CONTEXT_ELEMENT_ID}">${json}</script>`;
}

/**
 * index.html with the data block right after `<meta charset>`: before the inline script that
 * reads it. Unchanged when the marker is missing (the app then asks as before).
 */
export function withContext(indexHtml: string, document: unknown): string {
  const at = indexHtml.indexOf(CHARSET);
  if (at < 0) return indexHtml;
  const end = at + CHARSET.length;
  return `${indexHtml.slice(0, end)}\n    ${contextDataBlock(document)}${indexHtml.slice(end)}`;
}
