import { useEffect } from 'react';
import { MOUNTED_MESSAGE } from '@parcours/domain/window-messages';

/**
 * Listens to window messages and tells the window that opened or embeds us that we are ready
 * (docs/product.md §7: the preview posts 'mounted' to its parent). 'mounted' carries nothing, so it goes to
 * any origin: the back office may sit on a host we only learn from the tenant.
 */
export function useWindowMessages(onMessage: (event: MessageEvent) => void): void {
  useEffect(() => {
    window.addEventListener('message', onMessage);
    const opener = (window.opener as Window | null) ?? (window.parent !== window ? window.parent : null);
    opener?.postMessage(MOUNTED_MESSAGE, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [onMessage]);
}
