import { useCallback, useEffect, useState } from 'react';
import {
  getDontShowAddToPhone,
  markInstallOffered,
  setDontShowAddToPhone,
  wasInstallOffered,
} from '../../lib/storage';
import { getInstallPrompt, onInstallPromptChange, openInstallPrompt } from './install-event';
import { INSTALL_CHECK_DELAY_MS, installOffer, isIos, type InstallOffer } from './install-rule';

function matches(query: string): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

function standalone(): boolean {
  return matches('(display-mode: standalone)') || (navigator as { standalone?: boolean }).standalone === true;
}

export interface InstallOfferState {
  offer: InstallOffer;
  /** Opens the browser's install dialog; the banner goes either way. */
  install(): Promise<void>;
  /** "No thanks" / "Got it": never offered again on this device (docs/product.md §9 dontShowAddToPhone). */
  refuse(): void;
}

/** The install banner to show now, if any: decided 5 s after start (docs/product.md §9), then kept. */
export function useInstallOffer(delayMs = INSTALL_CHECK_DELAY_MS): InstallOfferState {
  const [offer, setOffer] = useState<InstallOffer>(null);

  useEffect(() => {
    let due = false;
    let decided = false;
    // At 5 s, and again whenever the browser hands over its prompt later on.
    const check = () => {
      if (!due || decided) return;
      const next = installOffer({
        dontShowAddToPhone: getDontShowAddToPhone(),
        standalone: standalone(),
        shownThisSession: wasInstallOffered(),
        promptAvailable: getInstallPrompt() !== null,
        ios: isIos(navigator.userAgent, navigator.platform, navigator.maxTouchPoints ?? 0),
        mobile: matches('(max-width: 767.98px), (pointer: coarse)'),
      });
      if (!next) return;
      decided = true;
      markInstallOffered();
      setOffer(next);
    };
    const timer = window.setTimeout(() => {
      due = true;
      check();
    }, delayMs);
    const unsubscribe = onInstallPromptChange(check);
    return () => {
      window.clearTimeout(timer);
      unsubscribe();
    };
  }, [delayMs]);

  const refuse = useCallback(() => {
    setDontShowAddToPhone();
    setOffer(null);
  }, []);

  const install = useCallback(async () => {
    setOffer(null);
    // Installed or cancelled in the browser's own dialog: either way the question was answered.
    await openInstallPrompt().catch(() => 'dismissed');
    setDontShowAddToPhone();
  }, []);

  return { offer, install, refuse };
}
