/**
 * POST users/login (docs/product.md §7). A plain call rather than a mutation of the query cache (lib/query): the sign-in screen
 * must stay within the /login script budget, and it has a single call to make.
 */
import type { LoginResponse } from '@parcours/domain/entities';
import { apiFetch } from '../../../lib/api-client';

export interface Credentials {
  email: string;
  password: string;
}

export function login(credentials: Credentials): Promise<LoginResponse> {
  return apiFetch<LoginResponse>('users/login', { method: 'POST', body: credentials, token: null });
}
