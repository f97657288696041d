import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COMPANY_ROLES, SYSTEM_ROLES } from '@parcours/domain/entities';
import { LOGIN_FIELD_MAX } from '@parcours/domain/constants';
import { decodeJwt } from 'jose';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { contact } from './contact';
import type { IdentityDeps } from './deps';
import { publicOrigin } from './origin';
import { loadResetLink, recover, resetPassword } from './password-reset';
import { updateProfile } from './profile';
import { register } from './registration';
import { requestCookies, setHtmlSession } from '../../plugins/html-session';
import { addressLimit } from './login-guard';
import { login, me } from './service';
import { sendCachedAnswer } from '../../lib/answer-cache';
import { contextGeneration } from '../contexts/service';
import { scopeOf } from '../scope';

const loginBody = z.object({
  email: z.string().min(1).max(LOGIN_FIELD_MAX).describe('E-mail or username'),
  password: z.string().min(1).max(LOGIN_FIELD_MAX),
});

const loginResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user_id: z.string(),
});

// The serialiser keeps only these keys, so a column added to `users` (password hash, OIDC
// subject) cannot reach a client by accident.
const profileSchema = z.object({
  id: z.string(),
  username: z.string().nullable(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  displayName: z.string(),
  avatarId: z.string().nullable(),
  email: z.string(),
  birthday: z.string().nullable(),
  legal: z.object({ cguAcceptedVersion: z.string().nullable(), cguAcceptedAt: z.string().nullable() }),
  supportGroups: z.array(z.string()),
  scoring: z.record(z.string(), z.unknown()),
  contributionLevel: z.number(),
  donePageCount: z.object({ global: z.number() }),
  timeAlive: z.object({ global: z.number() }),
  isFromInvitationCode: z.boolean(),
  tincanIdentifier: z.string().nullable(),
  roles: z.array(z.enum(SYSTEM_ROLES)),
  permissions: z.array(z.string()),
  companies: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(COMPANY_ROLES) })),
  createdAt: z.string(),
  domain: z.enum(['grains', 'client', 'public']),
  preferredLocale: z.enum(['fr', 'en']).nullable(),
  contextId: z.string(),
  needsRequiredDatas: z.boolean(),
});

export interface UserRoutesOptions {
  /** Failed passwords per account per minute before unknown devices are slowed. */
  loginRateLimit: number;
  /** Attempts per address per minute (LOGIN_IP_RATE_LIMIT); derived from loginRateLimit otherwise. */
  loginIpRateLimit?: number | undefined;
  /** JWT_SECRET: signs the device cookies of the sign-in guard. */
  secret: string;
  /** PUBLIC_URL: origin of links in mails when the request host is not one of the tenant's. */
  publicUrl?: string | undefined;
  /** Injectable clock (tests). */
  now?: () => Date;
}

const meResponse = z.object({ _id: z.string(), profile: profileSchema });

// Loose types only: the docs/product.md §5 rules depend on the tenant and the user, so the services run
// the shared domain schemas and answer their message keys (400 VALIDATION_ERROR).
const text = z.string().max(5_000);
const nullableText = text.nullable().optional();

const recoverBody = z.strictObject({ email: z.string().min(1).max(LOGIN_FIELD_MAX) });
const resetBody = z.strictObject({ token: z.string().min(1).max(200), password: text });
const tokenParams = z.object({ token: z.string().min(1).max(200) });
const registerBody = z.strictObject({
  code: z.string().trim().min(1).max(200),
  username: text.optional(),
  email: nullableText,
  password: text.optional(),
  firstname: nullableText,
  lastname: nullableText,
  preferredLocale: z.enum(['fr', 'en']).optional(),
});
const patchBody = z.strictObject({
  lastname: nullableText,
  firstname: nullableText,
  username: nullableText,
  email: nullableText,
  birthday: nullableText,
  password: text.optional(),
  currentPassword: text.optional(),
  acceptTerms: z.boolean().optional(),
  legal: z.strictObject({ cguAcceptedVersion: z.string().max(200).optional() }).optional(),
  preferredLocale: z.enum(['fr', 'en']).nullable().optional(),
});
const contactBody = z.strictObject({
  classId: z.string().min(1).max(200).optional(),
  subject: text.optional(),
  message: text.optional(),
  fileIds: z.array(z.string().max(200)).max(50).optional(),
});

export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (app, opts) => {
  const perAddress = addressLimit(opts.loginRateLimit, opts.loginIpRateLimit);
  app.post(
    '/users/login',
    {
      config: {
        // Per address, in this process, as a cheap flood guard; the per-address and per-account
        // counters that hold across processes live in the database (service, login-guard).
        rateLimit: { max: perAddress, timeWindow: 60_000 },
      },
      schema: {
        tags: ['users'],
        summary: 'Sign in with e-mail (or username) and password.',
        body: loginBody,
        response: { 200: loginResponse },
      },
    },
    async (request, reply) => {
      const { response, deviceCookie } = await login(
        {
          db: app.db,
          auth: app.auth,
          limit: opts.loginRateLimit,
          addressLimit: perAddress,
          secret: opts.secret,
        },
        request.context,
        request.body,
        { ip: request.ip, cookies: requestCookies(request), secure: request.protocol === 'https' },
      );
      reply.header('set-cookie', deviceCookie).header('cache-control', 'no-store');
      setHtmlSession(request, reply, response.access_token);
      return response;
    },
  );

  app.get(
    '/users/me',
    {
      onRequest: app.auth.requireUserOrQueryToken,
      // Sent by the answer cache, which picks the encoding itself (lib/answer-cache.ts).
      compress: false,
      schema: {
        tags: ['users'],
        summary: 'The signed-in user (token from the Authorization header or ?access_token=).',
        querystring: z.strictObject({ access_token: z.string().optional(), noCache: z.string().optional() }),
        response: { 200: meResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const viewer = scopeOf(app.db, request).viewer;
      // Asked for at every start of the web app: served again from this process while the
      // viewer's stamps say nothing it shows changed (their row, roles and companies: migrations
      // 0028 and 0032) and the tenant's row is the same (lib/answer-cache.ts, issue 38). A token
      // in the query (a file link) or `noCache` reads it anew.
      const own = request.query.access_token === undefined && request.query.noCache === undefined;
      return sendCachedAnswer(
        app.db,
        request,
        reply,
        { viewer, own, now: Date.now(), variant: String(contextGeneration(request.context)) },
        async () => ({ document: await me(app.db, request.context, user), validUntil: Infinity }),
      );
    },
  );

  const deps: IdentityDeps = {
    db: app.db,
    auth: app.auth,
    mailer: app.mailer,
    log: app.log,
    limit: opts.loginRateLimit,
    addressLimit: perAddress,
    now: opts.now ?? (() => new Date()),
  };
  // Sized like sign-in's: a classroom recovers passwords or registers from one address.
  const perIp = { rateLimit: { max: perAddress, timeWindow: 60_000 } };

  app.post(
    '/users/recover',
    {
      config: perIp,
      schema: {
        tags: ['users'],
        summary: 'Send a password reset link by e-mail. Always 204, whether or not the e-mail is known.',
        body: recoverBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      await recover(deps, request.context, origin, request.body.email);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/users/reset/:token',
    {
      config: perIp,
      schema: {
        tags: ['users'],
        summary: 'Check a reset link: 401 invalid or used, 403 expired.',
        params: tokenParams,
        querystring: z.strictObject({ noCache: z.string().optional() }),
        response: {
          200: z.object({
            userId: z.string(),
            email: z.string(),
            displayName: z.string(),
            simplePassword: z.boolean(),
          }),
        },
      },
    },
    async (request) => loadResetLink(deps, request.context, request.params.token),
  );

  app.post(
    '/users/reset',
    {
      config: perIp,
      schema: {
        tags: ['users'],
        summary: 'Set a new password with a reset link (single use); revokes earlier tokens.',
        body: resetBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await resetPassword(deps, request.context, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/register',
    {
      config: perIp,
      schema: {
        tags: ['users'],
        summary: 'Create an account with an invitation code; answers a token like login.',
        body: registerBody,
        response: { 201: loginResponse },
      },
    },
    async (request, reply) => {
      const answer = await register(deps, request.context, request.ip, request.body);
      setHtmlSession(request, reply, answer.access_token);
      return reply.code(201).send(answer);
    },
  );

  app.patch(
    '/users/:id',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary: "Change one's profile, password or terms acceptance; answers the updated user.",
        params: z.object({ id: z.string().min(1).max(200) }),
        body: patchBody,
        response: {
          200: meResponse.extend({
            access_token: z.string().optional(),
            token_type: z.literal('Bearer').optional(),
            expires_in: z.number().int().optional(),
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await updateProfile(
        deps,
        request.context,
        currentUser(request),
        request.params.id,
        request.body,
      );
      // A password change revoked the token in the cookie: the new one takes its place.
      if (answer.access_token) setHtmlSession(request, reply, answer.access_token);
      return answer;
    },
  );

  app.post(
    '/users/token',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary:
          'A fresh token of the same session for the bearer of a still-valid one (decisions 0044, 0057): the web renews a token close to expiry while the learner is active. An expired, revoked or signed-out token answers 401; a session past its absolute lifetime (SESSION_MAX_HOURS after sign-in) 403.',
        response: { 200: loginResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // The real clock, as the token's verification reads it (not the tests' injected one).
      const now = new Date();
      // The same session's next token, never past its absolute lifetime (decision 0057).
      const token = await app.auth.renew(request, now);
      if (!token)
        throw new ApiError(
          403,
          'Forbidden',
          'This session has reached its absolute lifetime: its token cannot be renewed; sign in again.',
        );
      reply.header('cache-control', 'no-store');
      return {
        access_token: token,
        token_type: 'Bearer' as const,
        expires_in: Math.max(0, (decodeJwt(token).exp ?? 0) - Math.floor(now.getTime() / 1000)),
        user_id: user.id,
      };
    },
  );

  app.post(
    '/users/contact',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary: 'Write to the class teachers, or receive documentation files by e-mail (with fileIds).',
        body: contactBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      await contact(
        { ...deps, filesDir: app.filesDir, files: app.files },
        request.context,
        origin,
        currentUser(request),
        request.body,
      );
      return reply.code(204).send(null);
    },
  );
};
