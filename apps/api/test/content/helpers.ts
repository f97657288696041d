import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropPgSchema, ensurePgSchema, migrateToLatest, openDb } from '../../src/db/db';
import type { Db } from '../../src/db/db';

export const DEMO = path.resolve(import.meta.dirname, '../../../../content/demo');

export interface TestDb {
  db: Db;
  kind: 'sqlite' | 'postgres';
  filesDir: string;
  close(): Promise<void>;
}

/** A fresh migrated database: SQLite in memory, or its own PostgreSQL schema when DATABASE_URL is set. */
export async function openTestDb(): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-files-'));
  if (url) {
    const schema = `imp_${Math.random().toString(36).slice(2, 10)}`;
    await ensurePgSchema(url, schema);
    const h = openDb({ databaseUrl: url, pgSchema: schema, poolSize: 2 });
    await migrateToLatest(h.db, { pgSchema: schema });
    return {
      db: h.db,
      kind: 'postgres',
      filesDir,
      close: async () => {
        await h.close();
        await dropPgSchema(url, schema);
        rmSync(filesDir, { recursive: true, force: true });
      },
    };
  }
  const h = openDb({ sqliteFile: ':memory:' });
  await migrateToLatest(h.db);
  return {
    db: h.db,
    kind: 'sqlite',
    filesDir,
    close: async () => {
      await h.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Every key and string value of a JSON value, depth first. */
export function walkJson(
  v: unknown,
  visit: (key: string | null, value: unknown, at: string) => void,
  at = '$',
): void {
  visit(null, v, at);
  if (Array.isArray(v)) v.forEach((x, i) => walkJson(x, visit, `${at}[${i}]`));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      visit(k, x, `${at}.${k}`);
      walkJson(x, visit, `${at}.${k}`);
    }
}

/**
 * The `settings:` block of a minimal valid tenant.yaml, for tests that write their own content
 * folder: internal sign-in, no invitation codes, no certification, no notifications. The player's
 * test tenants are English and issue attestations.
 */
export function tenantSettingsYaml(
  o: { defaultLocale?: 'fr' | 'en'; certification?: 'certification' | 'attestation' } = {},
): string {
  return `settings:
  defaultLocale: ${o.defaultLocale ?? 'fr'}
  login: { internal: true, oidc: null }
  invitationCodes: { enabled: false, simplePassword: false }
  certification: { allowed: false, type: ${o.certification ?? 'certification'} }
  allowContactTeacher: true
  profile: { fields: { firstname: true, lastname: true, email: true, username: false, birthday: false } }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: null, rgpd: null }
`;
}

export const TENANT_SETTINGS_YAML = tenantSettingsYaml();
