import { profileFlagsOf, profileSchema } from '@parcours/domain/schemas';
import type { ProfileFormValues, ProfileInput, ProfileSchemaFlags } from '@parcours/domain/schemas';
import type { z } from 'zod';
import type { ContextSettings, MeResponse } from '@parcours/domain/entities';
import type { Updateable } from 'kysely';
import type { UsersTable } from '../../db/schema';
import { parseJson } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { AuthUser } from '../../plugins/auth';
import { TOKEN_LIFETIME_S } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import type { ContextRow } from '../contexts/repository';
import { contextSettings } from '../contexts/service';
import type { IdentityDeps } from './deps';
import { enforceAttemptLimit } from './deps';
import { rethrowUnique, uniqueEmail, uniqueUsername } from './registration';
import {
  clearLoginAttempts,
  findUserByEmail,
  findUserById,
  findUserByUsername,
  updateUser,
  usePendingPasswordResets,
} from './repository';
import type { UserRow } from './repository';
import { me } from './service';
import { parseWith } from './validation';

export interface ProfilePatch {
  lastname?: string | null | undefined;
  firstname?: string | null | undefined;
  username?: string | null | undefined;
  email?: string | null | undefined;
  birthday?: string | null | undefined;
  password?: string | undefined;
  /** Required with `password` when the user already has one. */
  currentPassword?: string | undefined;
  acceptTerms?: boolean | undefined;
  legal?: { cguAcceptedVersion?: string | undefined } | undefined;
  preferredLocale?: 'fr' | 'en' | null | undefined;
}

export type PatchResponse = MeResponse & {
  access_token?: string;
  token_type?: 'Bearer';
  expires_in?: number;
};

const PROFILE_FIELDS = ['lastname', 'firstname', 'username', 'email', 'birthday'] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * The flags of the shared profile schema for this user on this tenant (documented in
 * docs/api.md so the web form builds the same schema).
 */
export function profileFlags(
  user: UserRow,
  settings: ContextSettings,
  patch: ProfilePatch,
): ProfileSchemaFlags {
  return profileFlagsOf(
    { email: user.email, isFromInvitationCode: user.isFromInvitationCode === 1 },
    settings,
    {
      passwordChange: patch.password !== undefined,
      termsAcceptance:
        (patch.acceptTerms !== undefined || patch.legal?.cguAcceptedVersion !== undefined) &&
        settings.legal.cgu !== null,
    },
  );
}

/** Which profile fields this user may change (the same rules that shape the schema). */
function editable(flags: ProfileSchemaFlags): Record<ProfileField, boolean> {
  const { fields } = flags;
  const invitation = flags.invitationRegistration === true;
  const needsData = flags.requiredDatas === true;
  return {
    lastname: fields.lastname || needsData,
    firstname: fields.firstname || needsData,
    email: (fields.email && !flags.emailLocked) || invitation,
    username: fields.username || invitation,
    birthday: fields.birthday || needsData,
  };
}

function current(user: UserRow, field: ProfileField): string | null {
  const value = user[field];
  return value === null || value.trim() === '' ? null : value;
}

function given(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value.trim();
}

/**
 * PATCH users/{id}. A learner changes only their own profile. The body carries only changed
 * fields (docs/product.md §5 "Updates send only changed fields"); each is checked by the shared profile
 * schema built with the tenant's flags.
 */
export async function updateProfile(
  deps: IdentityDeps,
  context: ContextRow,
  user: AuthUser,
  targetId: string,
  patch: ProfilePatch,
): Promise<PatchResponse> {
  if (targetId !== user.id) throw new ApiError(403, 'Forbidden', 'You may only change your own profile.');
  const settings = contextSettings(context);
  const row = user.row;
  const flags = profileFlags(row, settings, patch);
  const allowed = editable(flags);

  for (const field of PROFILE_FIELDS) {
    if (patch[field] === undefined || allowed[field]) continue;
    const same =
      field === 'email'
        ? given(patch.email)?.toLowerCase() === current(row, 'email')?.toLowerCase()
        : given(patch[field]) === current(row, field);
    if (!same)
      throw new ApiError(403, 'Forbidden', `The field ${field} cannot be changed here.`, {
        pointer: `/${field}`,
      });
  }

  const cgu = settings.legal.cgu;
  if (
    patch.legal?.cguAcceptedVersion !== undefined &&
    cgu &&
    patch.legal.cguAcceptedVersion !== cgu.version
  ) {
    throw ApiError.validation([
      { detail: 'validation.terms.required', source: { pointer: '/legal/cguAcceptedVersion' } },
    ]);
  }

  const sentValues: ProfileFormValues = {};
  for (const field of PROFILE_FIELDS) {
    if (allowed[field] && patch[field] !== undefined) sentValues[field] = patch[field] ?? undefined;
  }
  if (patch.password !== undefined) sentValues.password = patch.password;
  if (flags.termsAcceptance)
    sentValues.acceptTerms = patch.acceptTerms ?? patch.legal?.cguAcceptedVersion === cgu?.version;
  // Only the fields sent are checked (a PATCH carries changed fields): missing required data
  // is what needsRequiredDatas reports, it does not block other changes.
  const full = profileSchema(flags) as unknown as z.ZodObject<z.ZodRawShape>;
  const sent = Object.fromEntries(
    Object.keys(sentValues)
      .filter((k) => k in full.shape)
      .map((k) => [k, true] as const),
  );
  const parsed = parseWith(full.pick(sent) as unknown as z.ZodType<ProfileInput>, sentValues);

  const now = deps.now();
  const nowIso = now.toISOString();
  const changes: Updateable<UsersTable> = {};
  for (const field of PROFILE_FIELDS) {
    if (!allowed[field] || patch[field] === undefined) continue;
    let next: string | null = parsed[field] ?? null;
    if (field === 'email') next = next?.toLowerCase() ?? '';
    if (field === 'birthday' && next) next = next.slice(0, 10);
    const before = field === 'email' ? row.email : row[field];
    if (next !== before) changes[field] = next as never;
  }
  if (patch.preferredLocale !== undefined && patch.preferredLocale !== row.preferredLocale)
    changes.preferredLocale = patch.preferredLocale;
  if (flags.termsAcceptance && cgu && parsed.acceptTerms) {
    const legal = parseJson<Record<string, unknown>>(row.legal, {});
    changes.legal = JSON.stringify({ ...legal, cguAcceptedVersion: cgu.version, cguAcceptedAt: nowIso });
  }

  let passwordChanged = false;
  if (parsed.password !== undefined) {
    if (row.passwordHash) {
      if (!patch.currentPassword) {
        throw ApiError.validation([
          { detail: 'validation.login.password.required', source: { pointer: '/currentPassword' } },
        ]);
      }
      // Guessing the current password with a stolen token is limited like sign-in.
      const key = `password:${context.id}:${row.id}`;
      await enforceAttemptLimit(deps, key, 'Too many password attempts; try again in a minute.');
      if (!(await verifyPassword(patch.currentPassword, row.passwordHash))) {
        throw new ApiError(422, 'INVALID_PASSWORD', 'The current password is wrong.', {
          pointer: '/currentPassword',
        });
      }
      await clearLoginAttempts(deps.db, key);
    }
    changes.passwordHash = await hashPassword(parsed.password);
    // Every token issued before now is refused from here on (docs/decisions/0003).
    changes.tokensValidAfter = nowIso;
    passwordChanged = true;
  }

  if (Object.keys(changes).length > 0) {
    changes.updatedAt = nowIso;
    try {
      await deps.db.transaction().execute(async (trx) => {
        if (changes.username && (await findUserByUsername(trx, context.id, changes.username)))
          throw uniqueUsername();
        if (changes.email) {
          const other = await findUserByEmail(trx, context.id, changes.email);
          if (other && other.id !== row.id) throw uniqueEmail();
        }
        await updateUser(trx, context.id, row.id, changes);
        if (passwordChanged) await usePendingPasswordResets(trx, row.id, nowIso);
      });
    } catch (err) {
      if (err instanceof ApiError) throw err;
      rethrowUnique(err);
    }
  }

  const fresh = (await findUserById(deps.db, context.id, row.id)) ?? row;
  const answer: PatchResponse = await me(deps.db, context, { ...user, row: fresh });
  if (passwordChanged) {
    // The token of this request is now revoked; the client continues with this one.
    answer.access_token = await deps.auth.sign(row.id, context.id, now);
    answer.token_type = 'Bearer';
    answer.expires_in = TOKEN_LIFETIME_S;
  }
  return answer;
}
