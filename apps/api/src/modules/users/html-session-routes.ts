import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clearHtmlSession, setHtmlSession } from '../../plugins/html-session';

/**
 * The HTML session cookie's own calls (plugins/html-session.ts, decision 0046). Sign-in, sign-up,
 * a password change and the SSO callback set it with their token; these cover the rest: a token
 * that reached the app otherwise (the `?idT&idU` link, a renewal) and the sign-out.
 */
export const htmlSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/users/html-session',
    {
      // The bearer token, checked like any call's (tenant, expiry, revocation), is what the cookie gets.
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary:
          "Lets the server draw this browser's signed-in pages: sets the HTML cookie to the bearer token.",
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (token) setHtmlSession(request, reply, token);
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );

  app.delete(
    '/users/html-session',
    {
      // No token needed: ending the cookie reveals and changes nothing but this browser's pages.
      schema: {
        tags: ['users'],
        summary: 'Sign-out: the server draws no signed-in page for this browser any more.',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      clearHtmlSession(request, reply);
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );
};
