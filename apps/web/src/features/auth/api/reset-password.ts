/** POST users/reset: sets the new password with a single-use link (204). */
import { apiFetch } from '../../../lib/api-client';

export function resetPassword(token: string, password: string): Promise<void> {
  return apiFetch<void>('users/reset', {
    method: 'POST',
    body: { token, password },
    token: null,
    ownUnauthorized: true,
  });
}
