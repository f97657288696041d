/**
 * What the profile form shows and sends, from the tenant's settings and the user (docs/product.md §5). The
 * flags are the ones the server builds for PATCH users/{id} (docs/api.md), so the form and the
 * route check the same schema.
 */
import type { ContextSettings, UserProfile } from '@parcours/domain/entities';
import { profileFlagsOf, profileSchema, type ProfileSchemaFlags } from '@parcours/domain/schemas';
import { z } from 'zod';
import type { ProfilePatch } from './api/update-profile';

export const PROFILE_FIELDS = ['lastname', 'firstname', 'username', 'email', 'birthday'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export interface ProfileFormValues {
  lastname: string;
  firstname: string;
  username: string;
  email: string;
  birthday: string;
  currentPassword: string;
  password: string;
}

export interface ProfileOutput {
  lastname?: string;
  firstname?: string;
  username?: string;
  email?: string;
  birthday?: string;
  currentPassword?: string;
  password?: string;
}

export function profileFlags(
  profile: UserProfile,
  settings: ContextSettings,
  passwordChange: boolean,
): ProfileSchemaFlags {
  // The API's rule for PATCH users/{id}, shared (packages/domain/src/schemas.ts).
  return profileFlagsOf(profile, settings, { passwordChange });
}

export type FieldMode = 'editable' | 'locked' | 'hidden';

/** Which fields the form shows, and whether they can be changed (the server's own rule). */
export function fieldModes(flags: ProfileSchemaFlags): Record<ProfileField, FieldMode> {
  const { fields } = flags;
  const invitation = flags.invitationRegistration === true;
  const needsData = flags.requiredDatas === true;
  const on = (shown: boolean): FieldMode => (shown ? 'editable' : 'hidden');
  let email: FieldMode = on(fields.email || invitation);
  if (email === 'editable' && flags.emailLocked && !invitation) email = 'locked';
  return {
    lastname: on(fields.lastname || needsData),
    firstname: on(fields.firstname || needsData),
    username: on(fields.username || invitation),
    email,
    birthday: on(fields.birthday || needsData),
  };
}

/** The form's schema: the shared profile rule, plus the current password when changing it. */
export function profileFormSchema(flags: ProfileSchemaFlags): z.ZodType<ProfileOutput, ProfileFormValues> {
  // profileSchema assembles a ZodObject at run time; extending it keeps its rules untouched.
  const base = profileSchema(flags) as unknown as z.ZodObject<z.ZodRawShape>;
  if (!flags.passwordChange) return base as unknown as z.ZodType<ProfileOutput, ProfileFormValues>;
  // A new password needs the current one: say so on its field before asking the server, which
  // would only answer a generic "invalid data".
  const schema = base.extend({ currentPassword: z.string().optional() }).superRefine((values, ctx) => {
    const next = typeof values.password === 'string' ? values.password : '';
    const current = typeof values.currentPassword === 'string' ? values.currentPassword : '';
    if (next !== '' && current === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['currentPassword'],
        message: 'validation.currentPassword.required',
      });
    }
  });
  return schema as unknown as z.ZodType<ProfileOutput, ProfileFormValues>;
}

const blankToNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** Stored birthdays may be full ISO instants; a date input wants YYYY-MM-DD. */
const dateOnly = (value: string | null): string => (value ? value.slice(0, 10) : '');

export function formValuesOf(profile: UserProfile): ProfileFormValues {
  return {
    lastname: profile.lastname ?? '',
    firstname: profile.firstname ?? '',
    username: profile.username ?? '',
    email: profile.email ?? '',
    birthday: dateOnly(profile.birthday),
    currentPassword: '',
    password: '',
  };
}

/**
 * docs/product.md §5 "Updates send only changed fields": the editable fields whose parsed value differs from
 * the stored one, and the password (with the current one) only when the change was opened.
 */
export function profilePatch(
  profile: UserProfile,
  modes: Record<ProfileField, FieldMode>,
  parsed: ProfileOutput,
  passwordChange: boolean,
): ProfilePatch {
  const before = formValuesOf(profile);
  const patch: ProfilePatch = {};
  for (const field of PROFILE_FIELDS) {
    if (modes[field] !== 'editable') continue;
    const next = blankToNull(parsed[field]);
    if (next !== blankToNull(before[field])) patch[field] = next;
  }
  if (passwordChange && parsed.password !== undefined) {
    patch.password = parsed.password;
    if (parsed.currentPassword) patch.currentPassword = parsed.currentPassword;
  }
  return patch;
}
