/** POST users/register (docs/api.md): an account from an invitation code, answered like a sign-in. */
import type { LoginResponse } from '@parcours/domain/entities';
import type { Locale } from '@parcours/domain/entities';
import { apiFetch } from '../../../lib/api-client';

export interface RegisterBody {
  code: string;
  username: string;
  password: string;
  email?: string;
  preferredLocale?: Locale;
}

export function register(body: RegisterBody): Promise<LoginResponse> {
  return apiFetch<LoginResponse>('users/register', { method: 'POST', body, token: null });
}
