import { z } from 'zod';
import type { ContextAttributes } from '@parcours/domain/entities';
import { SPLASH_SIZES, TOUCH_ICON_SIZES } from '@parcours/domain/entities';
import type { Resource } from '../../plugins/jsonapi';
import { parseJson } from '../../db/schema';
import type { ContextRow } from './repository';

/**
 * Stored settings may hold secrets (OIDC client secret, issuer credentials) and fields we do not
 * publish. The public attributes are therefore rebuilt field by field from an allow-list: zod
 * objects drop unknown keys, and `.catch` keeps a tenant usable when a stored value is malformed.
 */
const legalText = z
  .object({ content: z.string(), version: z.string(), date: z.string() })
  .nullable()
  .catch(null);

const bool = (d: boolean) => z.boolean().catch(d);

const settingsSchema = z.object({
  defaultLocale: z.enum(['fr', 'en']).catch('fr'),
  login: z
    .object({
      internal: bool(true),
      oidc: z
        .object({ label: z.string().catch('SSO') })
        .nullable()
        .catch(null),
    })
    .catch({ internal: true, oidc: null }),
  invitationCodes: z
    .object({ enabled: bool(false), simplePassword: bool(false) })
    .catch({ enabled: false, simplePassword: false }),
  certification: z
    .object({ allowed: bool(false), type: z.enum(['certification', 'attestation']).catch('certification') })
    .catch({ allowed: false, type: 'certification' }),
  allowContactTeacher: bool(true),
  profile: z
    .object({
      fields: z
        .object({
          firstname: bool(true),
          lastname: bool(true),
          email: bool(true),
          username: bool(false),
          birthday: bool(true),
        })
        .catch({ firstname: true, lastname: true, email: true, username: false, birthday: true }),
    })
    .catch({ fields: { firstname: true, lastname: true, email: true, username: false, birthday: true } }),
  requiredDatas: bool(true),
  emailNotifications: bool(false),
  demoVideoUrl: z.string().nullable().catch(null),
  legal: z.object({ cgu: legalText, rgpd: legalText }).catch({ cgu: null, rgpd: null }),
  badges: z.object({ xpPeriodDays: z.number().int().min(1).max(366).catch(7) }).catch({ xpPeriodDays: 7 }),
});

const optionalString = z.string().optional().catch(undefined);
const hostsSchema = z.object({
  api: optionalString,
  app: optionalString,
  player: optionalString,
  backoffice: optionalString,
  certification: optionalString,
  frontoffice: optionalString,
  lrs: optionalString,
});

function sizedRecord(sizes: readonly string[]) {
  return z
    .record(z.string(), z.unknown())
    .catch({})
    .transform((rec) => {
      const out: Record<string, string> = {};
      for (const size of sizes) {
        const v = rec[size];
        if (typeof v === 'string') out[size] = v;
      }
      return out;
    });
}

const assetsSchema = z.object({
  logo: z.string().nullable().catch(null),
  favicon: z.string().nullable().catch(null),
  colors: z
    .object({
      primary: z.string().catch('#1f4e79'),
      secondary: z.string().catch('#f2a900'),
      accent: optionalString,
      text: optionalString,
      background: optionalString,
    })
    .catch({ primary: '#1f4e79', secondary: '#f2a900' }),
  splashScreens: sizedRecord(SPLASH_SIZES),
  touchIcons: sizedRecord(TOUCH_ICON_SIZES),
});

const metasSchema = z
  .record(z.string(), z.unknown())
  .catch({})
  .transform((rec) =>
    Object.fromEntries(Object.entries(rec).filter((e): e is [string, string] => typeof e[1] === 'string')),
  );

function stripUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/**
 * What a tenant's row says, parsed once per row object: the tenant resolver (plugins/tenant.ts)
 * hands every request of a host the same row object while it keeps it, so its JSON columns are
 * parsed and checked once, not on every request (issue 38: two JSON parses and Zod checks were
 * a fifth of `GET /api/contexts/current` and of `GET /api/users/me`). A new row object (another
 * read of the tenant, after an import) is parsed anew. Frozen, because every request shares them.
 */
const settingsOf = new WeakMap<ContextRow, ContextAttributes['settings']>();
const attributesOf = new WeakMap<ContextRow, ContextAttributes>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export function contextSettings(row: ContextRow): ContextAttributes['settings'] {
  let settings = settingsOf.get(row);
  if (!settings) {
    settings = deepFreeze(settingsSchema.parse(parseJson<unknown>(row.settings, {}) ?? {}));
    settingsOf.set(row, settings);
  }
  return settings;
}

export function toContextAttributes(row: ContextRow): ContextAttributes {
  let attributes = attributesOf.get(row);
  if (!attributes) {
    attributes = deepFreeze(parseContextAttributes(row));
    attributesOf.set(row, attributes);
  }
  return attributes;
}

const generations = new WeakMap<ContextRow, number>();
let lastGeneration = 0;

/**
 * A number of its own for each row object the tenant resolver hands out (a new one at each read
 * of the tenant): an answer built from a tenant's settings is kept under it (lib/answer-cache.ts),
 * so a changed tenant is never answered from an answer built under its old row.
 */
export function contextGeneration(row: ContextRow): number {
  let generation = generations.get(row);
  if (generation === undefined) generations.set(row, (generation = ++lastGeneration));
  return generation;
}

function parseContextAttributes(row: ContextRow): ContextAttributes {
  const assets = assetsSchema.parse(parseJson<unknown>(row.assets, {}) ?? {});
  return {
    alias: row.alias,
    name: row.name,
    description: row.description,
    hosts: stripUndefined(hostsSchema.parse(parseJson<unknown>(row.hosts, {}) ?? {})),
    assets: { ...assets, colors: stripUndefined(assets.colors) },
    metas: metasSchema.parse(parseJson<unknown>(row.metas, {}) ?? {}),
    settings: contextSettings(row),
    isGeneric: row.isGeneric === 1,
  };
}

export function toContextResource(row: ContextRow): Resource {
  return { type: 'contexts', id: row.id, attributes: { ...toContextAttributes(row) } };
}
