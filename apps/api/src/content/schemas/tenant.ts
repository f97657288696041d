/** tenant.yaml: the organisation, its branding, settings and catalogue (course types, categories, competencies). */
import { z } from 'zod';
import type { ContextSettings } from '@parcours/domain/entities';
import { LOCALES } from '@parcours/domain/entities';
import { CERTIFICATION_WORDINGS, filePath, html, iconName, slug } from './common';

const legalText = z.strictObject({
  content: html,
  version: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

/**
 * The tenant's OpenID provider. Only `label` is ever published (contexts/current answers an
 * allow-list); the rest stays in the stored settings for the sign-in routes.
 */
const oidcSettingsSchema = z.strictObject({
  label: z.string().min(1),
  issuer: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().min(1).optional(),
});

/**
 * Badge settings of the learner's dashboard (docs/content-format.md "Badges"): the period the XP
 * change is measured over, and which badge picture set shows competency levels and jobs
 * (packages/domain badges: `level` goes up to gold, `theme` up to silver).
 */
const BADGE_SETS = ['level', 'theme'] as const;
export const BADGE_DEFAULTS = { xpPeriodDays: 7, levels: 'level', jobs: 'theme' } as const;
const badgeSettingsSchema = z
  .strictObject({
    /** The XP badge shows the change since this many days ago (the last record before then). */
    xpPeriodDays: z.number().int().min(1).max(366).default(BADGE_DEFAULTS.xpPeriodDays),
    levels: z.enum(BADGE_SETS).default(BADGE_DEFAULTS.levels),
    jobs: z.enum(BADGE_SETS).default(BADGE_DEFAULTS.jobs),
  })
  .default(BADGE_DEFAULTS);

export const contextSettingsSchema = z.strictObject({
  defaultLocale: z.enum(LOCALES),
  login: z.strictObject({ internal: z.boolean(), oidc: oidcSettingsSchema.nullable() }),
  invitationCodes: z.strictObject({ enabled: z.boolean(), simplePassword: z.boolean() }),
  certification: z.strictObject({ allowed: z.boolean(), type: z.enum(CERTIFICATION_WORDINGS) }),
  allowContactTeacher: z.boolean(),
  profile: z.strictObject({
    fields: z.strictObject({
      firstname: z.boolean(),
      lastname: z.boolean(),
      email: z.boolean(),
      username: z.boolean(),
      birthday: z.boolean(),
    }),
  }),
  requiredDatas: z.boolean(),
  emailNotifications: z.boolean(),
  demoVideoUrl: z.string().url().nullable(),
  legal: z.strictObject({ cgu: legalText.nullable(), rgpd: legalText.nullable() }),
  badges: badgeSettingsSchema,
});
// Compile-time guard: the file format must give at least every field of the contract type (the
// stored settings add the provider's server-side fields, never published).
const settingsMatch: z.infer<typeof contextSettingsSchema> extends ContextSettings ? true : false = true;
void settingsMatch;

const hostsSchema = z.strictObject({
  api: z.string().optional(),
  app: z.string().optional(),
  player: z.string().optional(),
  backoffice: z.string().optional(),
  certification: z.string().optional(),
  frontoffice: z.string().optional(),
  lrs: z.string().optional(),
});

const colour = z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'expected a #rrggbb colour');

export const tenantSchema = z.strictObject({
  alias: slug,
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  isGeneric: z.boolean().default(false),
  /** Host names (no port) that resolve to this tenant. */
  hostnames: z.array(z.string().regex(/^[a-z0-9.-]+$/i, 'a host name without port')).default([]),
  hosts: hostsSchema.default({}),
  assets: z
    .strictObject({
      logo: filePath.nullable().default(null),
      favicon: filePath.nullable().default(null),
      colors: z.strictObject({
        primary: colour,
        secondary: colour,
        accent: colour.optional(),
        text: colour.optional(),
        background: colour.optional(),
      }),
      splashScreens: z.record(z.string(), filePath).default({}),
      touchIcons: z.record(z.string(), filePath).default({}),
    })
    .default({
      logo: null,
      favicon: null,
      colors: { primary: '#1d4ed8', secondary: '#64748b' },
      splashScreens: {},
      touchIcons: {},
    }),
  metas: z.record(z.string(), z.string()).default({}),
  settings: contextSettingsSchema,
  courseTypes: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        description: z.string().nullable().default(null),
        settings: z.strictObject({
          hints: z.boolean(),
          feedbacks: z.boolean(),
          retry: z.boolean(),
          competencies: z.boolean().default(true),
          categories: z.boolean().default(true),
          certificate: z.boolean().default(false),
        }),
      }),
    )
    .default([]),
  categories: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        icon: iconName.nullable().default(null),
        /** A picture behind the category's badge and cards (an image file). */
        backgroundImage: filePath.nullable().default(null),
      }),
    )
    .default([]),
  /** A tree through `parent`; parents may be listed after their children. Any level may have an icon. */
  competencies: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        parent: slug.nullable().default(null),
        isGeneric: z.boolean().default(false),
        icon: iconName.nullable().default(null),
        order: z.number().int().default(0),
      }),
    )
    .default([]),
});
export type TenantFile = z.infer<typeof tenantSchema>;
