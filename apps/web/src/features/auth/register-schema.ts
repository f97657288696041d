/**
 * The register form's rule: the server's own (docs/api.md POST users/register: `profileSchema`
 * with invitation registration and a password, username required, e-mail optional) plus the
 * invitation code. Loaded only with the register mode.
 */
import { profileSchema } from '@parcours/domain/schemas';
import { z } from 'zod';

const NO_FIELDS = { firstname: false, lastname: false, email: false, username: false, birthday: false };

export interface RegisterFormValues {
  code: string;
  username: string;
  email: string;
  password: string;
}

export interface RegisterValues {
  code: string;
  username: string;
  email?: string;
  password: string;
}

export function registerSchema(simplePassword: boolean): z.ZodType<RegisterValues, RegisterFormValues> {
  // profileSchema assembles its object at run time; it is a ZodObject, so it can be extended.
  const profile = profileSchema({
    fields: NO_FIELDS,
    invitationRegistration: true,
    passwordChange: true,
    simplePassword,
  }) as unknown as z.ZodObject<z.ZodRawShape>;
  return profile.extend({
    code: z.string().trim().min(1, { error: 'register.codeRequired' }),
  }) as unknown as z.ZodType<RegisterValues, RegisterFormValues>;
}
