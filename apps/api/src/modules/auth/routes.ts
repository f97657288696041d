import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { noBody } from '../../plugins/answers';
import { ApiError } from '../../plugins/errors';
import { requestCookies, setHtmlSession } from '../../plugins/html-session';
import { publicOrigin } from '../users/origin';
import { OidcService, STATE_COOKIE, STATE_TTL_S, oidcSettingsOf } from './oidc-service';

export interface AuthRoutesOptions {
  /** JWT_SECRET: the state cookie is signed with a key derived from it. */
  secret: string;
  publicUrl?: string | undefined;
  now?: () => Date;
}

const params = z.object({ contextId: z.string().min(1).max(200) });

function stateCookie(contextId: string, value: string, maxAge: number, secure: boolean): string {
  return [
    `${STATE_COOKIE}=${encodeURIComponent(value)}`,
    `Path=/api/auth/oidc/${encodeURIComponent(contextId)}/`,
    'HttpOnly',
    // Lax: sent on the provider's top-level redirect back to the callback.
    'SameSite=Lax',
    `Max-Age=${maxAge}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * SSO per tenant (docs/product.md §7 "The OIDC login URL is built from the API host and context id"):
 *   GET /api/auth/oidc/{contextId}/login    → 302 to the provider
 *   GET /api/auth/oidc/{contextId}/callback → 302 to /?idT=<token>&idU=<userId> (docs/product.md §2)
 * A failed callback goes to /login?sso=failed so the sign-in screen can say so.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  const oidc = new OidcService(app.db, opts.secret);
  const now = opts.now ?? (() => new Date());

  const tenantSettings = (request: FastifyRequest, contextId: string) => {
    // The path names the tenant of the host: a login for another tenant is not served here.
    if (contextId !== request.context.id)
      throw new ApiError(404, 'NOT_FOUND', 'No SSO for this tenant on this host.');
    const settings = oidcSettingsOf(request.context);
    if (!settings) throw new ApiError(404, 'NOT_FOUND', 'This tenant has no SSO.');
    return settings;
  };
  const callbackPath = (contextId: string) => `/api/auth/oidc/${encodeURIComponent(contextId)}/callback`;

  app.get(
    '/auth/oidc/:contextId/login',
    {
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags: ['auth'],
        summary: "Start SSO with the tenant's OpenID provider (302).",
        params,
        response: { 302: noBody("To the provider's authorization endpoint (the state in a cookie).") },
      },
    },
    async (request, reply) => {
      const settings = tenantSettings(request, request.params.contextId);
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      const { url, cookie } = await oidc.startLogin(
        request.context,
        settings,
        `${origin}${callbackPath(request.context.id)}`,
      );
      return reply
        .header(
          'set-cookie',
          stateCookie(request.context.id, cookie, STATE_TTL_S, origin.startsWith('https:')),
        )
        .header('cache-control', 'no-store')
        .redirect(url, 302);
    },
  );

  app.get(
    '/auth/oidc/:contextId/callback',
    {
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags: ['auth'],
        summary: 'Provider callback: signs the user in and redirects to the web app with idT/idU.',
        params,
        // The provider's parameters (code, state, iss, error...) are read by openid-client.
        querystring: z.record(z.string(), z.unknown()),
        response: {
          302: noBody('To the web app with idT and idU once signed in; to /login?sso=failed if refused.'),
        },
      },
    },
    async (request, reply) => {
      const settings = tenantSettings(request, request.params.contextId);
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      const secure = origin.startsWith('https:');
      reply
        .header('set-cookie', stateCookie(request.context.id, '', 0, secure))
        .header('cache-control', 'no-store');
      try {
        const state = await oidc.readState(requestCookies(request)[STATE_COOKIE], request.context.id);
        if (!state) throw new Error('missing or invalid state cookie');
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const currentUrl = new URL(`${origin}${callbackPath(request.context.id)}${query}`);
        const claims = await oidc.finishLogin(request.context, settings, currentUrl, state);
        const user = await oidc.accountFor(request.context, claims, now());
        const token = await app.auth.sign(user.id, request.context.id, now());
        const target = new URL('/', origin);
        target.searchParams.set('idT', token);
        target.searchParams.set('idU', user.id);
        setHtmlSession(request, reply, token);
        return reply.redirect(target.href, 302);
      } catch (err) {
        request.log.warn({ err }, 'SSO callback refused');
        return reply.redirect(`${origin}/login?sso=failed`, 302);
      }
    },
  );
};
