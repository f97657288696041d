import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toContextAttributes } from '../../src/modules/contexts/service';
import { hosts, ids } from '../helpers/fixtures';
import { get, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/contexts/current (tenant from the Host header)', () => {
  it.each([
    [hosts.alpha, ids.ctxA, 'alpha'],
    [`${hosts.alphaApi}:3000`, ids.ctxA, 'alpha'],
    ['ALPHA.TEST', ids.ctxA, 'alpha'],
    [hosts.beta, ids.ctxB, 'beta'],
    [hosts.unknown, ids.ctxGeneric, 'generic'],
    ['localhost:3000', ids.ctxGeneric, 'generic'],
  ])('Host %s → %s', async (host, id, alias) => {
    const res = await get(t.app, '/api/contexts/current', undefined, host);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({ type: 'contexts', id, attributes: { alias } });
    expect(body.data.attributes.isGeneric).toBe(alias === 'generic');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  it('publishes settings with defaults and never the OIDC secret or issuer credentials', async () => {
    const res = await get(t.app, '/api/contexts/current', undefined, hosts.alpha);
    const attrs = res.json().data.attributes;
    expect(attrs.settings.login).toEqual({ internal: true, oidc: { label: 'Alpha SSO' } });
    expect(attrs.settings.legal.cgu).toEqual({ content: '<p>Terms</p>', version: '2', date: '2026-01-01' });
    expect(attrs.settings.allowContactTeacher).toBe(true);
    expect(attrs.assets.colors).toEqual({ primary: '#112233', secondary: '#445566' });
    expect(attrs.hosts).toEqual({ app: 'https://alpha.test', api: 'https://api.alpha.test' });
    expect(res.body).not.toContain('SUPER-SECRET-VALUE');
    expect(res.body).not.toContain('clientSecret');
    expect(res.body).not.toContain('idp.alpha.test');
  });

  it('fills every setting for a tenant that stores none', async () => {
    const attrs = (await get(t.app, '/api/contexts/current', undefined, hosts.unknown)).json().data
      .attributes;
    expect(attrs.settings).toMatchObject({
      defaultLocale: 'fr',
      login: { internal: true, oidc: null },
      invitationCodes: { enabled: false },
      certification: { allowed: false, type: 'certification' },
      requiredDatas: true,
      legal: { cgu: null, rgpd: null },
      badges: { xpPeriodDays: 7 },
    });
    expect(attrs.assets).toMatchObject({ logo: null, splashScreens: {}, touchIcons: {} });
  });

  it("publishes the dashboard's badge settings, and only their public part", () => {
    const row = {
      id: 'x',
      alias: 'x',
      name: 'X',
      description: null,
      hosts: '{}',
      assets: '{}',
      metas: '{}',
      isGeneric: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      settings: JSON.stringify({ badges: { xpPeriodDays: 14, levels: 'level', jobs: 'theme' } }),
    };
    expect(toContextAttributes(row).settings.badges).toEqual({ xpPeriodDays: 14 });
    expect(
      toContextAttributes({ ...row, settings: JSON.stringify({ badges: { xpPeriodDays: 0 } }) }).settings
        .badges,
    ).toEqual({ xpPeriodDays: 7 });
  });
});

describe('GET /api/contexts/current, answered from bytes made once per tenant row', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the same bytes while the row is kept, and the changed tenant once it is read again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const first = await get(t.app, '/api/contexts/current', undefined, hosts.beta);
    const again = await get(t.app, '/api/contexts/current', undefined, hosts.beta);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers.vary).toBe('Host');
    await t.tdb.db.updateTable('contexts').set({ name: 'Beta Academy' }).where('id', '=', ids.ctxB).execute();
    try {
      // Within the tenant cache's 30 s the row, and so the answer, is the one read before.
      expect(
        (await get(t.app, '/api/contexts/current', undefined, hosts.beta)).json().data.attributes.name,
      ).toBe('Beta School');
      vi.setSystemTime(Date.now() + 31_000);
      const changed = await get(t.app, '/api/contexts/current', undefined, hosts.beta);
      expect(changed.json().data.attributes.name).toBe('Beta Academy');
      // Another tenant's answer is its own.
      const alpha = await get(t.app, '/api/contexts/current', undefined, hosts.alpha);
      expect(alpha.json().data.id).toBe(ids.ctxA);
    } finally {
      await t.tdb.db
        .updateTable('contexts')
        .set({ name: 'Beta School' })
        .where('id', '=', ids.ctxB)
        .execute();
      // The tenant cache keeps the restored row, for the tests after this one.
      vi.setSystemTime(Date.now() + 31_000);
      await get(t.app, '/api/contexts/current', undefined, hosts.beta);
    }
  });
});
