import { getToken } from './storage';

/**
 * docs/product.md §6 sandbox mode: the stored token equals this marker. The back office sets it in a browser
 * profile that has no account here (a kiosk next to the authoring tool) so that /preview can show
 * the blocks it posts. In sandbox mode nobody is signed in: no user is loaded, the marker is never
 * sent to the API as a credential, and the only screen past the guard is /preview, which renders
 * what a trusted origin posts and writes nothing. Decision 0011.
 */
export const SANDBOX_TOKEN = 'sandbox';

export function isSandbox(): boolean {
  return getToken() === SANDBOX_TOKEN;
}
