/**
 * POST users/me/sign-out-everywhere (issue 29, docs/api.md "Authentication"): ends every session
 * of the user — access tokens, module launches and signed file links issued before now.
 */
import { apiFetch } from '../../../lib/api-client';

export function signOutEverywhere(): Promise<unknown> {
  return apiFetch<unknown>('users/me/sign-out-everywhere', { method: 'POST', body: {} });
}
