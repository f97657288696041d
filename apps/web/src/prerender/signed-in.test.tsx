/**
 * The signed-in home drawn on the server through React Router's static handler (decision 0060):
 * the route's loader fills the request's own query cache, the router's hydration data travels in
 * the page's state, and each request's tenant, learner and language stay its own when pages are
 * drawn at once (no module state, no queue).
 */
import type { Locale, MeResponse } from '@parcours/domain/entities';
import { describe, expect, it } from 'vitest';
import { addCatalogue, getLanguage, type Catalogue } from '../lib/i18n';
import type { ServerState } from '../lib/server-state';
import { getSession } from '../lib/session';
import { getTenant } from '../lib/tenant';
import { classUsersDoc, me, tenant } from '../test/fixtures';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import { renderSignedIn } from './signed-in';

addCatalogue('en', en as Catalogue);
addCatalogue('fr', fr as Catalogue);

/** The API as the server's in-process fetch gives it, for one learner; `gate` holds its answers. */
function apiFor(user: MeResponse, className: string, gate: Promise<void> = Promise.resolve()) {
  const asked: string[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://in-process');
    asked.push(url.pathname);
    await gate;
    const body =
      url.pathname === '/api/users/me'
        ? user
        : url.pathname === '/api/class-users'
          ? classUsersDoc([{ id: `c-${user._id}`, name: className }])
          : url.pathname === '/api/lessons'
            ? { data: [], meta: { total: 0 } }
            : null;
    return new Response(JSON.stringify(body), {
      status: body ? 200 : 404,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

function learner(id: string, preferredLocale: Locale | null): MeResponse {
  const user = me('public', id);
  return { ...user, profile: { ...user.profile, preferredLocale } };
}

describe('a signed-in page drawn by the static handler', () => {
  it("draws the home from its loader's reads and carries the router's hydration data", async () => {
    const api = apiFor(learner('u-1', null), 'Class One');
    const out = await renderSignedIn({ tenant: tenant({}, 'Acme'), lang: 'en', url: '/', fetch: api.fetch });
    if ('refused' in out) throw new Error(`refused: ${out.refused}`);
    expect(out.body).toContain('Class One');
    expect(out.title).toBe('Acme – My courses');
    const state = JSON.parse(out.state) as ServerState;
    expect(state.me._id).toBe('u-1');
    // The loader's entry: the browser's router hydrates with it and runs no loader again.
    expect(state.router.loaderData).toEqual({ '/': null });
    expect(state.queries.queries.map((query) => query.queryKey[0])).toEqual(expect.arrayContaining(['home']));
    expect(api.asked).toEqual(expect.arrayContaining(['/api/users/me', '/api/class-users', '/api/lessons']));
  });

  it("keeps each request's learner, language and tenant when pages are drawn at once", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const french = apiFor(learner('u-fr', 'fr'), 'Classe française', gate);
    const english = apiFor(learner('u-en', 'en'), 'English class', gate);
    const both = Promise.all([
      renderSignedIn({ tenant: tenant({}, 'Parcours'), lang: 'en', url: '/', fetch: french.fetch }),
      renderSignedIn({ tenant: tenant({}, 'Pathways'), lang: 'fr', url: '/', fetch: english.fetch }),
    ]);
    // Both requests are in flight before either answers: neither waits for the other's turn.
    await expect.poll(() => french.asked.length + english.asked.length).toBeGreaterThanOrEqual(2);
    open();
    const [fr, en] = await both;
    if ('refused' in fr || 'refused' in en) throw new Error('refused');
    expect(fr.lang).toBe('fr');
    expect(fr.title).toBe('Parcours – Mes formations');
    expect(fr.body).toContain('Classe française');
    expect(fr.body).not.toContain('English class');
    expect(en.lang).toBe('en');
    expect(en.title).toBe('Pathways – My courses');
    expect(en.body).toContain('English class');
    expect(en.body).not.toContain('Classe française');
    // Nothing of either request was left in the module state the browser uses.
    expect(getSession().user).toBeNull();
    expect(getTenant()).toBeNull();
    expect(getLanguage()).toBe('en');
  });

  it('refuses a path the table does not draw, and a token the API refuses', async () => {
    const api = apiFor(learner('u-1', null), 'x');
    expect(await renderSignedIn({ tenant: tenant(), lang: 'en', url: '/niveaux', fetch: api.fetch })).toEqual(
      {
        refused: 'page',
      },
    );
    const refused = (async () => new Response('{}', { status: 401 })) as typeof fetch;
    expect(await renderSignedIn({ tenant: tenant(), lang: 'en', url: '/', fetch: refused })).toEqual({
      refused: 'token',
    });
  });
});
