import { DRAWN_STYLE_ATTRIBUTE } from '@parcours/domain/drawn-styles';

/**
 * A screen drawn on the server carries its elements' styles as `data-parcours-style` (the CSP
 * allows no style attribute: decision 0053). Before React hydrates it, each text goes back on its
 * element through the CSSOM (`style.cssText`, which CSP does not govern) and the data attribute
 * goes: the DOM is then what React drew, and a later change of a style prop lands as it would.
 */
export function restoreDrawnStyles(root: ParentNode): void {
  root.querySelectorAll<HTMLElement | SVGElement>(`[${DRAWN_STYLE_ATTRIBUTE}]`).forEach((element) => {
    element.style.cssText = element.getAttribute(DRAWN_STYLE_ATTRIBUTE) ?? '';
    element.removeAttribute(DRAWN_STYLE_ATTRIBUTE);
  });
}
