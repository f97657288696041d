/**
 * Keeps the browser's install prompt (`beforeinstallprompt`, Chromium browsers) from the very
 * start: it can fire before React renders, and Chrome's own mini-infobar is replaced by our
 * banner (docs/product.md §4), offered once. Installed from anywhere (`appinstalled`) counts as answered.
 */
import { setDontShowAddToPhone } from '../../lib/storage';

/** The non-standard event Chromium browsers dispatch when the app can be installed. */
export interface BeforeInstallPromptEvent extends Event {
  prompt?: () => Promise<unknown>;
  userChoice?: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
let captured = false;

export function captureInstallPrompt(target: Window = window): void {
  if (captured) return;
  captured = true;
  target.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    listeners.forEach((listener) => listener());
  });
  target.addEventListener('appinstalled', () => {
    deferred = null;
    setDontShowAddToPhone();
    listeners.forEach((listener) => listener());
  });
}

export function getInstallPrompt(): BeforeInstallPromptEvent | null {
  return deferred;
}

export function onInstallPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens the browser's own install dialog; the event can be used once. */
export async function openInstallPrompt(): Promise<'accepted' | 'dismissed'> {
  const event = deferred;
  deferred = null;
  if (!event?.prompt) return 'dismissed';
  await event.prompt();
  const choice = await event.userChoice?.catch(() => undefined);
  return choice?.outcome ?? 'dismissed';
}
