/** users.yaml: companies and accounts of one tenant. */
import { z } from 'zod';
import { COMPANY_ROLES, LOCALES, SYSTEM_ROLES } from '@parcours/domain/entities';
import { slug } from './common';

export const usersSchema = z.strictObject({
  companies: z.array(z.strictObject({ id: slug, name: z.string().min(1) })).default([]),
  users: z.array(
    z.strictObject({
      id: slug,
      email: z.string().email(),
      /** Plain demo password, hashed at import. Omit for accounts that sign in through SSO only. */
      password: z.string().min(6).max(254).optional(),
      username: z.string().min(3).max(60).nullable().default(null),
      firstname: z.string().min(1).max(60).nullable().default(null),
      lastname: z.string().min(1).max(60).nullable().default(null),
      birthday: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .nullable()
        .default(null),
      preferredLocale: z.enum(LOCALES).nullable().default(null),
      /** Terms version already accepted (so demo accounts are not asked at first sign-in). */
      cguAcceptedVersion: z.string().nullable().default(null),
      roles: z.array(z.enum(SYSTEM_ROLES)).default([]),
      companies: z.array(z.strictObject({ company: slug, role: z.enum(COMPANY_ROLES) })).default([]),
    }),
  ),
});
export type UsersFile = z.infer<typeof usersSchema>;
