import { z } from 'zod';
import { COMPANY_ROLES, LOCALES, SPLASH_SIZES, TOUCH_ICON_SIZES } from './enums';

/**
 * The tenant and its organisation as the API serves them (JSON:API `attributes`). These schemas
 * are the contract: the API documents its answers with them (/api/docs) and the web app's types
 * are inferred from them, so neither side keeps a copy by hand.
 */

/** A legal text of the tenant (cgu = terms, rgpd = data protection). `content` is sanitised HTML. */
export const legalTextSchema = z.object({
  content: z.string(),
  version: z.string(),
  /** YYYY-MM-DD */
  date: z.string(),
});
export type LegalText = z.infer<typeof legalTextSchema>;

/** Tenant settings (docs/product.md §1, §6). Secrets (OIDC client secret) are never part of this. */
export const contextSettingsSchema = z.object({
  defaultLocale: z.enum(LOCALES),
  login: z.object({
    internal: z.boolean(),
    /** Present when the tenant signs in through its OpenID provider. */
    oidc: z.object({ label: z.string() }).nullable(),
  }),
  invitationCodes: z.object({ enabled: z.boolean(), simplePassword: z.boolean() }),
  certification: z.object({ allowed: z.boolean(), type: z.enum(['certification', 'attestation']) }),
  allowContactTeacher: z.boolean(),
  profile: z.object({
    fields: z.object({
      firstname: z.boolean(),
      lastname: z.boolean(),
      email: z.boolean(),
      username: z.boolean(),
      birthday: z.boolean(),
    }),
  }),
  requiredDatas: z.boolean(),
  emailNotifications: z.boolean(),
  demoVideoUrl: z.string().nullable(),
  legal: z.object({ cgu: legalTextSchema.nullable(), rgpd: legalTextSchema.nullable() }),
  /** Dashboard badges (content `settings.badges`): how far back the XP change looks. */
  badges: z.object({ xpPeriodDays: z.number() }).optional(),
});
export type ContextSettings = z.infer<typeof contextSettingsSchema>;

export const contextHostsSchema = z.object({
  api: z.string().optional(),
  app: z.string().optional(),
  player: z.string().optional(),
  backoffice: z.string().optional(),
  certification: z.string().optional(),
  frontoffice: z.string().optional(),
  lrs: z.string().optional(),
});
export type ContextHosts = z.infer<typeof contextHostsSchema>;

export const contextAssetsSchema = z.object({
  /** URLs served by the API (files/{id}/download) or absolute paths under the web root. */
  logo: z.string().nullable(),
  favicon: z.string().nullable(),
  colors: z.object({
    primary: z.string(),
    secondary: z.string(),
    accent: z.string().optional(),
    text: z.string().optional(),
    background: z.string().optional(),
  }),
  splashScreens: z.partialRecord(z.enum(SPLASH_SIZES), z.string()),
  touchIcons: z.partialRecord(z.enum(TOUCH_ICON_SIZES), z.string()),
});
export type ContextAssets = z.infer<typeof contextAssetsSchema>;

/** `contexts` from GET /api/contexts/current: the tenant answering on this host. */
export const contextAttributesSchema = z.object({
  alias: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  hosts: contextHostsSchema,
  assets: contextAssetsSchema,
  metas: z.record(z.string(), z.string()),
  settings: contextSettingsSchema,
  isGeneric: z.boolean(),
});
export type ContextAttributes = z.infer<typeof contextAttributesSchema>;

/** `contexts` from GET /api/contexts, the context mapper: routing fields only. */
export const contextMapAttributesSchema = z.object({
  alias: z.string(),
  name: z.string(),
  hosts: z.record(z.string(), z.string()),
  hostnames: z.array(z.string()),
  isGeneric: z.boolean(),
});
export type ContextMapAttributes = z.infer<typeof contextMapAttributesSchema>;

export const companyAttributesSchema = z.object({
  name: z.string(),
  avatarId: z.string().nullable(),
  createdAt: z.string(),
});
export type CompanyAttributes = z.infer<typeof companyAttributesSchema>;

export const companyUserAttributesSchema = z.object({
  companyId: z.string(),
  userId: z.string(),
  role: z.enum(COMPANY_ROLES),
});
export type CompanyUserAttributes = z.infer<typeof companyUserAttributesSchema>;

export const roleAttributesSchema = z.object({ name: z.string(), description: z.string().nullable() });
export type RoleAttributes = z.infer<typeof roleAttributesSchema>;

export const roleUserAttributesSchema = z.object({
  roleId: z.string(),
  principalType: z.string(),
  principalId: z.string(),
  scopeId: z.string().nullable(),
});
export type RoleUserAttributes = z.infer<typeof roleUserAttributesSchema>;

export const libraryAttributesSchema = z.object({
  ownerId: z.string().nullable(),
  ownerType: z.string().nullable(),
  createdAt: z.string(),
});
export type LibraryAttributes = z.infer<typeof libraryAttributesSchema>;

/** Another person as a learner sees them (a teacher, a note's author): display name and avatar. */
export const publicUserAttributesSchema = z.object({
  displayName: z.string(),
  avatarId: z.string().nullable(),
});
export type PublicUserAttributes = z.infer<typeof publicUserAttributesSchema>;
