import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import { buildApp } from '../../src/app';
import { loadEnv } from '../../src/env';
import type { TestDb } from './helpers';
import { DEMO, openTestDb } from './helpers';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
});

describe('invitation codes in content', () => {
  it('imports the demo code and keeps its use count across re-imports', async () => {
    const first = await importFolder(t.db, DEMO, { filesDir: t.filesDir });
    expect(first.errors).toEqual([]);
    const row = await t.db
      .selectFrom('invitationCodes')
      .selectAll()
      .where('code', '=', 'BIENVENUE-2026')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.classIds)).toHaveLength(1);
    expect(row.maxUses).toBe(500);
    expect(row.expireAt).not.toBeNull();

    // The server counts uses; a later import must not give used codes back.
    await t.db.updateTable('invitationCodes').set({ uses: 7 }).where('code', '=', 'BIENVENUE-2026').execute();
    const second = await importFolder(t.db, DEMO, { filesDir: t.filesDir });
    expect(second.errors).toEqual([]);
    expect(second.changes.invitationCodes).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    const after = await t.db
      .selectFrom('invitationCodes')
      .select('uses')
      .where('code', '=', 'BIENVENUE-2026')
      .executeTakeFirstOrThrow();
    expect(after.uses).toBe(7);
  });

  it('lets a newcomer register on the French demo tenant with the demo code', async () => {
    const env = loadEnv({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(40),
      LOG_LEVEL: 'silent',
      DATA_DIR: t.filesDir,
    });
    const app = await buildApp({ env, db: t.db, dbKind: t.kind, filesDir: t.filesDir, logger: false });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/users/register',
        headers: { host: 'localhost' },
        payload: { code: 'BIENVENUE-2026', username: 'nouvelle.recrue', password: 'Bienvenue#2026' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const userId = (res.json() as { user_id: string }).user_id;
      const lessons = await t.db.selectFrom('lessons').select('id').where('userId', '=', userId).execute();
      expect(lessons.length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe('tenant file: invitations and OpenID settings', () => {
  let dir: string;
  const write = (rel: string, text: string) => {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  };
  const settings = (oidc: string) => `
settings:
  defaultLocale: en
  login: { internal: true, oidc: ${oidc} }
  invitationCodes: { enabled: true, simplePassword: false }
  certification: { allowed: false, type: certification }
  allowContactTeacher: true
  profile: { fields: { firstname: true, lastname: true, email: true, username: true, birthday: false } }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: null, rgpd: null }
`;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parcours-inv-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [
      'an unknown class',
      '  - { code: GOOD-CODE, classes: [nowhere] }\n',
      'classes.yaml: invitations[0].classes[0]',
    ],
    ['a malformed code', '  - { code: "bad code!", classes: [] }\n', 'classes.yaml: invitations[0].code'],
  ])(
    'reports an invitation with %s, with file and path, and writes nothing',
    async (_label, invitations, where) => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      write('tenants/x/tenant.yaml', `alias: inv-x\nname: X\nhostnames: [x.test]\n${settings('null')}`);
      write('tenants/x/classes.yaml', `classes: []\ninvitations:\n${invitations}`);
      const report = await importFolder(t.db, dir, { filesDir: t.filesDir });
      expect(report.ok).toBe(false);
      expect(report.errors.map((e) => `${path.basename(e.file)}: ${e.path}`)).toContain(where);
      const written = await t.db
        .selectFrom('contexts')
        .select('id')
        .where('alias', '=', 'inv-x')
        .executeTakeFirst();
      expect(written).toBeUndefined();
    },
  );

  it('keeps the provider settings on the server and publishes only the label', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    write(
      'tenants/y/tenant.yaml',
      `alias: sso-y\nname: Y\nhostnames: [y.test]\n${settings('{ label: Company account, issuer: "http://127.0.0.1:9999", clientId: parcours, clientSecret: s3cret-value }')}`,
    );
    const report = await importFolder(t.db, dir, { filesDir: t.filesDir });
    expect(report.errors).toEqual([]);
    const stored = await t.db
      .selectFrom('contexts')
      .select('settings')
      .where('alias', '=', 'sso-y')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.settings).login.oidc).toMatchObject({
      issuer: 'http://127.0.0.1:9999',
      clientId: 'parcours',
    });

    const env = loadEnv({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(40),
      LOG_LEVEL: 'silent',
      DATA_DIR: t.filesDir,
    });
    const app = await buildApp({ env, db: t.db, dbKind: t.kind, filesDir: t.filesDir, logger: false });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/contexts/current',
        headers: { host: 'y.test' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('s3cret-value');
      expect(res.body).not.toContain('9999');
      expect(res.json().data.attributes.settings.login.oidc).toEqual({ label: 'Company account' });
    } finally {
      await app.close();
    }
  });
});
