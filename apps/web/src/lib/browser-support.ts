/**
 * docs/product.md §9 supported browsers: Chrome above 60, Firefox above 50, mobile Safari 10 or later.
 * Anything we cannot identify is given the benefit of the doubt: a false alarm is worse than
 * a missing one for a learner on an unusual but modern browser.
 */
export function isSupportedBrowser(userAgent: string): boolean {
  if (/MSIE |Trident\//.test(userAgent)) return false;
  const ios = /(?:iPhone|iPad|iPod).*? OS (\d+)_/.exec(userAgent);
  if (ios?.[1]) return Number(ios[1]) >= 10;
  const firefox = /Firefox\/(\d+)/.exec(userAgent);
  if (firefox?.[1]) return Number(firefox[1]) > 50;
  const chrome = /(?:Chrome|CriOS)\/(\d+)/.exec(userAgent);
  if (chrome?.[1]) return Number(chrome[1]) > 60;
  return true;
}
