/**
 * The sign-in screen as HTML, rendered by the API when it serves `/login` (decision 0026): the
 * same components the app renders (Shell and LoginPage), with the tenant the Host names and the
 * language the browser asks for, so a slow phone paints the real screen before any script runs.
 * Built by `vite.server.config.ts` into `dist-server/server.js` (prerender/server.ts), which the API imports.
 *
 * The tree is the app's own (shell, route table, the route's gate and screen) under the server's
 * static router (prerender/draw.tsx), so the browser hydrates it (`hydrateRoot`, src/main.tsx)
 * without a mismatch: nothing moves, the focused field keeps the focus and the sign-in form
 * starts from what was typed (lib/prerendered.ts).
 */
import type { Locale } from '@parcours/domain/entities';
import { LOGIN_PATH } from '@parcours/domain/routes';
import { pageTitle } from '../app/use-page-title';
import { brandPalette } from '../lib/branding';
import { addCatalogue, t, type Catalogue } from '../lib/i18n';
import type { Tenant } from '../lib/tenant';
import { drawTree, inScope, queryRoute, routeTree } from './draw';
import en from '../locales/en.json';
import fr from '../locales/fr.json';

addCatalogue('en', en as Catalogue);
addCatalogue('fr', fr as Catalogue);

export interface SignInRequest {
  /** The tenant's public resource, as `contexts/current` gives it to the app. */
  tenant: Tenant;
  lang: Locale;
  /** The address's query string (`?sso=failed`), empty when none. */
  search: string;
}

export interface SignInMarkup {
  /** The inside of `#root`. */
  body: string;
  title: string;
  /** The tenant's colours as CSS variables, for the `style` of `<html>` (lib/branding.ts). */
  palette: Record<string, string>;
}

/**
 * Whether the HTML can show what the app's first render shows: only the sign-in mode, and not for
 * an SSO tenant (its button is a lazy chunk: the app's first render shows a spinner there).
 */
export function prerenders(tenant: Tenant, search: string): boolean {
  const mode = new URLSearchParams(search).get('mode');
  return (mode === null || mode === 'signin') && !tenant.attributes.settings?.login.oidc;
}

export async function renderSignIn(request: SignInRequest): Promise<SignInMarkup | null> {
  const { tenant, lang, search } = request;
  if (!prerenders(tenant, search)) return null;
  // Nobody is signed in on the sign-in page the server draws.
  const scope = { tenant, lang, session: { status: 'unauthenticated' as const, user: null, notice: null } };
  // The route's code is loaded by the static handler: the screen renders at once, not its fallback.
  const context = await queryRoute(`${LOGIN_PATH}${search}`);
  if (!context) return null;
  const body = await drawTree(routeTree(context, scope), scope);
  return inScope(scope, async () => ({
    body,
    title: pageTitle(tenant.attributes.name, t('routes.login'), t('app.fallbackTitle')),
    palette: brandPalette(tenant.attributes.assets?.colors),
  }));
}
