import { CONTACT_SUCCESS_CLOSE_MS } from '@parcours/domain/constants';
import { useEffect } from 'react';

/** docs/product.md §8: after 'Message envoyé' the dialog closes by itself after 1.5 s. */
export function useCloseAfterSuccess(succeeded: boolean, close: () => void): void {
  useEffect(() => {
    if (!succeeded) return undefined;
    const timer = setTimeout(close, CONTACT_SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [succeeded, close]);
}
