/** POST users/recover (docs/api.md): always 204, whether or not the e-mail is known. */
import { apiFetch } from '../../../lib/api-client';

export function recoverPassword(email: string): Promise<void> {
  return apiFetch<void>('users/recover', { method: 'POST', body: { email }, token: null });
}
