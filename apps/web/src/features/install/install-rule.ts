/**
 * docs/product.md §4/§9: a mobile install prompt, checked 5 s after start, offered once, never again once
 * the learner refused (`dontShowAddToPhone`). Browsers with an install prompt (Chrome, Edge,
 * Samsung Internet) get our banner that opens it; iOS has none, so its banner explains Share →
 * Add to Home Screen instead.
 */
export const INSTALL_CHECK_DELAY_MS = 5000;

export interface InstallSituation {
  /** The stored `dontShowAddToPhone` flag: refused (or installed) before. */
  dontShowAddToPhone: boolean;
  /** Already running from the home screen. */
  standalone: boolean;
  /** The banner was already offered in this tab. */
  shownThisSession: boolean;
  /** The browser handed us its install prompt (`beforeinstallprompt`). */
  promptAvailable: boolean;
  /** iPhone or iPad, where adding to the home screen goes through the Share menu. */
  ios: boolean;
  /** A phone or tablet: narrower than the xs breakpoint (768 px) or a touch screen. */
  mobile: boolean;
}

export type InstallOffer = 'prompt' | 'ios' | null;

export function installOffer(s: InstallSituation): InstallOffer {
  if (s.dontShowAddToPhone || s.standalone || s.shownThisSession || !s.mobile) return null;
  if (s.promptAvailable) return 'prompt';
  return s.ios ? 'ios' : null;
}

/** iPadOS announces itself as a Mac; a Mac with a touch screen is an iPad. */
export function isIos(userAgent: string, platform: string, maxTouchPoints: number): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
}
