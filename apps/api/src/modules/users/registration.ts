import { profileSchema } from '@parcours/domain/schemas';
import type { LoginResponse } from '@parcours/domain/entities';
import { ensureLessons } from '../../content/enrolment';
import { newId } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import { TOKEN_LIFETIME_S } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import type { ContextRow } from '../contexts/repository';
import { contextSettings } from '../contexts/service';
import { budgetOf, registrationCharges } from '../quotas/budget';
import { charge } from '../quotas/usage';
import type { IdentityDeps } from './deps';
import { enforceAttemptLimit } from './deps';
import {
  enrolStudent,
  findUserByEmail,
  findUserByUsername,
  insertUser,
  useInvitationCode,
} from './repository';
import { uniqueViolation } from '../../db/constraint-errors';
import { parseWith } from './validation';

export interface RegisterBody {
  code: string;
  username?: unknown;
  email?: unknown;
  password?: unknown;
  firstname?: unknown;
  lastname?: unknown;
  preferredLocale?: 'fr' | 'en' | undefined;
}

const NO_FIELDS = { firstname: false, lastname: false, email: false, username: false, birthday: false };

export const uniqueUsername = () =>
  new ApiError(409, 'UNIQUE_USERNAME', 'This username is already in use.', { pointer: '/username' });
export const uniqueEmail = () =>
  new ApiError(409, 'UNIQUE_USERNAME_OR_EMAIL', 'This username or e-mail is already in use.', {
    pointer: '/email',
  });

/** Maps a unique-index failure of a users write to the docs/product.md §8 code; rethrows anything else. */
export function rethrowUnique(err: unknown): never {
  const hit = uniqueViolation(err);
  if (hit === 'username') throw uniqueUsername();
  if (hit === 'email' || hit === 'other') throw uniqueEmail();
  throw err;
}

/**
 * POST users/register: an account from an invitation code (docs/product.md §5 "checked by the server").
 * The code use, the user, its class enrolments and their lessons are written in one
 * transaction; the unique indexes decide between concurrent registrations.
 */
export async function register(
  deps: IdentityDeps,
  context: ContextRow,
  ip: string,
  body: RegisterBody,
): Promise<LoginResponse> {
  const settings = contextSettings(context);
  if (!settings.invitationCodes.enabled) {
    throw new ApiError(403, 'Forbidden', 'Registration with an invitation code is not available here.');
  }
  // Per address, sized for a classroom registering together (login-guard addressLimit).
  await enforceAttemptLimit(
    deps,
    `register:${context.id}:${ip}`,
    'Too many registrations from this address; try again in a minute.',
    deps.addressLimit,
  );

  // The invitation-registration form of docs/product.md §5: username required, e-mail optional; names
  // are validated when given (the required-data flow asks for them later otherwise).
  const schema = profileSchema({
    fields: { ...NO_FIELDS, firstname: body.firstname !== undefined, lastname: body.lastname !== undefined },
    invitationRegistration: true,
    passwordChange: true,
    simplePassword: settings.invitationCodes.simplePassword,
  });
  const input = parseWith(schema, {
    username: body.username,
    email: body.email,
    password: body.password,
    firstname: body.firstname,
    lastname: body.lastname,
  });
  const username = input.username as string;
  const email = input.email?.toLowerCase() ?? '';
  const passwordHash = await hashPassword(input.password as string);

  const now = deps.now();
  const nowIso = now.toISOString();
  const userId = newId();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const classIds = await useInvitationCode(trx, context.id, body.code.trim(), nowIso);
      if (!classIds) {
        throw new ApiError(422, 'INVALID_INVITATION_CODE', 'This invitation code is not available.', {
          pointer: '/code',
        });
      }
      // Accounts per code and per address per hour (issue 36: one code admitted 500 accounts
      // and one address opened ~100 a minute). Rolled back with a registration that fails.
      await charge(trx, context.id, registrationCharges(budgetOf(deps.db).quotas, body.code.trim(), ip), now);
      // Friendly answers first; the unique indexes still decide under concurrency.
      if (await findUserByUsername(trx, context.id, username)) throw uniqueUsername();
      if (email && (await findUserByEmail(trx, context.id, email))) throw uniqueEmail();
      await insertUser(trx, {
        id: userId,
        contextId: context.id,
        username,
        email,
        firstname: input.firstname ?? null,
        lastname: input.lastname ?? null,
        avatarId: null,
        birthday: null,
        legal: '{}',
        passwordHash,
        isFromInvitationCode: 1,
        tincanIdentifier: null,
        preferredLocale: body.preferredLocale ?? null,
        oidcSubject: null,
        tokensValidAfter: null,
        createdAt: nowIso,
        updatedAt: nowIso,
      });
      await enrolStudent(trx, context.id, userId, classIds, nowIso);
      await ensureLessons(trx, { userId }, now);
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    rethrowUnique(err);
  }
  const token = await deps.auth.sign(userId, context.id, now);
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, user_id: userId };
}
