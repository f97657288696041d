/** Test stand-in for vite-plugin-pwa's `virtual:pwa-register` (the service worker is build-only). */
export function registerSW(): () => Promise<void> {
  return async () => undefined;
}
