/**
 * A page whose screen is in its HTML (the sign-in screen, decision 0026; a signed-in screen,
 * decision 0046) is painted before its code is asked for (decision 0054). The build's entry
 * script and its module preloads are made inert here; index.html's inline script
 * (apps/web/src/app/early-start.ts) asks for them, and for the screen's files, once the page has
 * been painted. On a slow link the code then no longer shares the link with the page's own bytes,
 * and it no longer stands between the learner and the first paint.
 */
import { HTML_MARKERS } from '@parcours/domain/routes';

export const PAINT_FIRST_MARKER = HTML_MARKERS.paintFirstMeta;
const CHARSET = '<meta charset="UTF-8" />';

/** The type and rel the inline script looks for (early-start.ts `startCodeAfterPaint`). */
export const AFTER_PAINT_SCRIPT_TYPE = HTML_MARKERS.afterPaintScriptType;
export const AFTER_PAINT_LINK_REL = HTML_MARKERS.afterPaintLinkRel;

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/** The page with its code inert until painted; unchanged when it has no marker to put. */
export function paintFirst(html: string): string {
  if (!html.includes(CHARSET) || html.includes(PAINT_FIRST_MARKER)) return html;
  return html
    .replace(CHARSET, () => `${CHARSET}\n    ${PAINT_FIRST_MARKER}`)
    .replace(
      ENTRY_SCRIPT,
      (_, src: string) => `<script type="${AFTER_PAINT_SCRIPT_TYPE}" data-src="${src}"></script>`,
    )
    .replace(MODULE_PRELOAD, (_, href: string) => `<link rel="${AFTER_PAINT_LINK_REL}" href="${href}">`);
}
