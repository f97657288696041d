import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { testEnv } from './app';
import { createTestDb } from './test-db';
import type { TestDb } from './test-db';

export interface YamlTenant {
  t: TestDb;
  app: FastifyInstance;
  /** A bearer token for `email` on `host`. */
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A tenant imported from YAML written for the test (`files`: paths under the tenant's folder,
 * e.g. `tenant.yaml`, `courses/x.yaml`), on a fresh database, served by its own app.
 */
export async function startYamlTenant(
  alias: string,
  host: string,
  files: Record<string, string>,
): Promise<YamlTenant> {
  const t = await createTestDb();
  const root = mkdtempSync(path.join(tmpdir(), `parcours-${alias}-`));
  const tenant = path.join(root, 'tenants', alias);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tenant, name)), { recursive: true });
    writeFileSync(path.join(tenant, name), text);
  }
  const filesDir = mkdtempSync(path.join(tmpdir(), `parcours-${alias}-files-`));
  const report = await importFolder(t.db, root, { filesDir });
  rmSync(root, { recursive: true, force: true });
  expect(report.errors).toEqual([]);
  const app = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false });
  await app.ready();
  return {
    t,
    app,
    login: async (email, password) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/users/login',
        headers: { host },
        payload: { email, password },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { access_token: string }).access_token;
    },
    close: async () => {
      await app.close();
      await t.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}
