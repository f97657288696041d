/**
 * docs/product.md §5 "Required profile data": last name, first name, birthday, and acceptance of the current
 * terms version. The gate asks for them with the shared profile rule (requiredDatas makes the
 * three fields required; termsAcceptance adds the checkbox).
 */
import type { ContextSettings, UserProfile } from '@parcours/domain/entities';
import { profileSchema } from '@parcours/domain/schemas';
import type { z } from 'zod';
import type { ProfilePatch } from './api/update-profile';

export interface GateFormValues {
  lastname: string;
  firstname: string;
  birthday: string;
  acceptTerms: boolean;
}

export interface GateOutput {
  lastname: string;
  firstname: string;
  birthday: string;
  acceptTerms?: true;
}

const GATE_FIELDS = { firstname: true, lastname: true, birthday: true, email: false, username: false };

/** The current terms must be accepted when the tenant has some and this version is not accepted. */
export function needsTerms(profile: UserProfile, settings: ContextSettings): boolean {
  const cgu = settings.legal.cgu;
  return cgu !== null && profile.legal.cguAcceptedVersion !== cgu.version;
}

export function gateSchema(termsAcceptance: boolean): z.ZodType<GateOutput, GateFormValues> {
  return profileSchema({
    fields: GATE_FIELDS,
    requiredDatas: true,
    termsAcceptance,
  }) as unknown as z.ZodType<GateOutput, GateFormValues>;
}

export function gateValuesOf(profile: UserProfile): GateFormValues {
  return {
    lastname: profile.lastname ?? '',
    firstname: profile.firstname ?? '',
    birthday: profile.birthday ? profile.birthday.slice(0, 10) : '',
    acceptTerms: false,
  };
}

/** Only what changed, plus the acceptance when it was asked for. */
export function gatePatch(profile: UserProfile, parsed: GateOutput, termsAcceptance: boolean): ProfilePatch {
  const before = gateValuesOf(profile);
  const patch: ProfilePatch = {};
  for (const field of ['lastname', 'firstname', 'birthday'] as const) {
    if (parsed[field] !== before[field].trim()) patch[field] = parsed[field];
  }
  if (termsAcceptance) patch.acceptTerms = true;
  return patch;
}
