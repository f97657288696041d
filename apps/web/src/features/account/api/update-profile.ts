/**
 * PATCH users/{id} (docs/product.md §7, docs/api.md): only the changed fields; answers the reloaded user,
 * plus a new token after a password change (the request's token is revoked by then).
 */
import type { Locale, MeResponse } from '@parcours/domain/entities';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { outgoingRecord } from '../../../lib/outgoing-record';
import { setSessionUser } from '../../../lib/session';

export interface ProfilePatch {
  lastname?: string | null;
  firstname?: string | null;
  username?: string | null;
  email?: string | null;
  birthday?: string | null;
  password?: string;
  currentPassword?: string;
  acceptTerms?: true;
  preferredLocale?: Locale | null;
}

export type ProfilePatchResponse = MeResponse & { access_token?: string };

/** What PATCH users/{id} may carry (docs/product.md §5 outgoing records: anything else is dropped). */
const PROFILE_PATCH_FIELDS = [
  'lastname',
  'firstname',
  'username',
  'email',
  'birthday',
  'password',
  'currentPassword',
  'acceptTerms',
  'preferredLocale',
] as const satisfies readonly (keyof ProfilePatch)[];

/** `patch` holds the changed fields already (profilePatch); this layer keeps only the tracked ones. */
export function updateProfile(userId: string, patch: ProfilePatch): Promise<ProfilePatchResponse> {
  return apiFetch<ProfilePatchResponse>(`users/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body: outgoingRecord({ ...patch }, { tracked: PROFILE_PATCH_FIELDS }),
  });
}

/** Saves and makes the answer the session's user, so the header, guards and gate follow at once. */
export function useUpdateProfile(userId: string) {
  return useMutation({
    mutationFn: (patch: ProfilePatch) => updateProfile(userId, patch),
    onSuccess: ({ access_token: token, ...user }) => setSessionUser(user, token),
  });
}
