import { describe, expect, it } from 'vitest';
import type { Tenant } from '../lib/tenant';
import { renderSignIn } from './sign-in';

function tenant(
  name: string,
  login: { internal: boolean; oidc: { label: string } | null },
  register = false,
) {
  return {
    type: 'contexts',
    id: 'ctx-1',
    attributes: {
      name,
      assets: { logo: '/logo.png?a=1&b="2"', colors: { primary: '#1d4ed8' } },
      settings: { login, invitationCodes: { enabled: register, simplePassword: false } },
    },
  } as unknown as Tenant;
}

describe('the sign-in screen rendered for the HTML (decision 0026)', () => {
  it("draws the app's sign-in screen in the tenant's name and the language asked for", async () => {
    const fr = await renderSignIn({
      tenant: tenant('Parcours Formation', { internal: true, oidc: null }, true),
      lang: 'fr',
      search: '',
    });
    expect(fr?.title).toBe('Parcours Formation – Connexion');
    expect(fr?.body).toContain('<h1 class="login__title">Connexion</h1>');
    expect(fr?.body).toContain('E-mail ou pseudonyme');
    expect(fr?.body).toMatch(/<form [^>]*method="post"/);
    expect(fr?.body).toContain('href="/login?mode=register"');
    expect(fr?.palette['--color-primary']).toBe('#1d4ed8');

    const en = await renderSignIn({
      tenant: tenant('Pathways Learning', { internal: true, oidc: null }),
      lang: 'en',
      search: '?sso=failed',
    });
    expect(en?.title).toBe('Pathways Learning – Sign in');
    expect(en?.body).toContain('<h1 class="login__title">Sign in</h1>');
    expect(en?.body).not.toContain('mode=register');
  });

  it("escapes the tenant's texts", async () => {
    const out = await renderSignIn({
      tenant: tenant('<img src=x onerror=alert(1)>', { internal: true, oidc: null }),
      lang: 'en',
      search: '',
    });
    expect(out?.body).not.toContain('<img src=x');
    expect(out?.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out?.body).toContain('src="/logo.png?a=1&amp;b=&quot;2&quot;"');
  });

  it('leaves the other modes and SSO tenants to the app (their first render is not this)', async () => {
    const sso = tenant('SSO Co', { internal: true, oidc: { label: 'SSO' } });
    expect(await renderSignIn({ tenant: sso, lang: 'en', search: '' })).toBeNull();
    const plain = tenant('Plain', { internal: true, oidc: null });
    expect(await renderSignIn({ tenant: plain, lang: 'en', search: '?mode=recover' })).toBeNull();
  });
});
