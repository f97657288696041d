/** Paging and zoom rules of the PDF viewer, apart from pdf.js to test them by table. */

export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

/** The page a key moves to from `page` of `count`, or null when the key does not page. */
export function pageForKey(key: string, page: number, count: number): number | null {
  switch (key) {
    case 'PageDown':
    case 'ArrowDown':
    case 'ArrowRight':
      return Math.min(count, page + 1);
    case 'PageUp':
    case 'ArrowUp':
    case 'ArrowLeft':
      return Math.max(1, page - 1);
    case 'Home':
      return 1;
    case 'End':
      return count;
    default:
      return null;
  }
}

/** A typed page number clamped to the document, or null when it is not a number. */
export function parsePageInput(text: string, count: number): number | null {
  const n = Number.parseInt(text, 10);
  if (!Number.isFinite(n)) return null;
  return Math.min(Math.max(1, n), Math.max(1, count));
}

/** The next zoom step above (direction 1) or below (-1) the current scale. */
export function stepZoom(scale: number, direction: 1 | -1): number {
  if (direction === 1) return ZOOM_STEPS.find((s) => s > scale + 1e-6) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
  return [...ZOOM_STEPS].reverse().find((s) => s < scale - 1e-6) ?? ZOOM_STEPS[0];
}

/** The scale at which a page of `pageWidth` points fills `frameWidth` pixels (1 when unknown). */
export function fitScale(frameWidth: number, pageWidth: number): number {
  if (!(frameWidth > 0) || !(pageWidth > 0)) return 1;
  return Math.min(4, Math.max(0.25, frameWidth / pageWidth));
}
