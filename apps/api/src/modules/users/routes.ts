import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COMPANY_ROLES, SYSTEM_ROLES } from '@parcours/domain/entities';
import { LOGIN_FIELD_MAX } from '@parcours/domain/constants';
import { currentUser } from '../../plugins/auth';
import { login, me } from './service';

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
  loginRateLimit: number;
}

export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (app, opts) => {
  app.post(
    '/users/login',
    {
      config: {
        // Per IP, in this process; the per-account counter lives in the database (service).
        rateLimit: { max: opts.loginRateLimit, timeWindow: 60_000 },
      },
      schema: {
        tags: ['users'],
        summary: 'Sign in with e-mail (or username) and password.',
        body: loginBody,
        response: { 200: loginResponse },
      },
    },
    async (request) => login({ db: app.db, auth: app.auth, limit: opts.loginRateLimit }, request.context, request.body),
  );

  app.get(
    '/users/me',
    {
      onRequest: app.auth.requireUserOrQueryToken,
      schema: {
        tags: ['users'],
        summary: 'The signed-in user (token from the Authorization header or ?access_token=).',
        querystring: z.strictObject({ access_token: z.string().optional(), noCache: z.string().optional() }),
        response: { 200: z.object({ _id: z.string(), profile: profileSchema }) },
      },
    },
    async (request) => me(app.db, request.context, currentUser(request)),
  );
};
