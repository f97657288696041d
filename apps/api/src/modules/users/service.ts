import { displayName } from '@parcours/domain/display-name';
import { userDomain } from '@parcours/domain/user-domain';
import { COMPANY_ROLES } from '@parcours/domain/entities';
import type {
  CompanyRole,
  ContextSettings,
  LoginResponse,
  MeResponse,
  UserProfile,
} from '@parcours/domain/entities';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { PasswordQueueFull, hashPassword, needsRehash, verifyPassword } from '../../lib/password';
import type { Auth, AuthUser } from '../../plugins/auth';
import { TOKEN_LIFETIME_S } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import type { ContextRow } from '../contexts/repository';
import { contextSettings } from '../contexts/service';
import {
  clearLoginAttempts,
  countLoginAttempt,
  findUserCompanies,
  findUsersForLogin,
  pruneLoginAttempts,
  readLoginAttempts,
} from './repository';
import { FAILURE_WINDOW_MS, SLOW_SLOT_MS, deviceCookie, isKnownDevice } from './login-guard';
import type { UserRow } from './repository';

const COMPANY = new Set<string>(COMPANY_ROLES);

export interface LoginDeps {
  db: Db;
  auth: Auth;
  /** Failed passwords per account per minute before unknown devices are slowed (env.LOGIN_RATE_LIMIT). */
  limit: number;
  /** Attempts per address per minute (login-guard addressLimit). */
  addressLimit: number;
  /** JWT_SECRET: device cookies are signed with a key derived from it. */
  secret: string;
  now?: Date;
}

/** Who is signing in: the address and the request's cookies (device cookie). */
export interface LoginClient {
  ip: string;
  cookies: Readonly<Record<string, string | undefined>>;
  secure: boolean;
}

const tooMany = (detail: string) => new ApiError(429, 'TOO_MANY_REQUESTS', detail);

/** The token, plus the device cookie that lets this browser pass the per-account slowdown. */
export async function login(
  deps: LoginDeps,
  context: ContextRow,
  body: { email: string; password: string },
  client: LoginClient,
): Promise<{ response: LoginResponse; deviceCookie: string }> {
  const now = deps.now ?? new Date();
  const identifier = body.email.trim();
  // Counted in the database so every API process shares them (login-guard.ts).
  const perAddress = await countLoginAttempt(deps.db, `login-ip:${client.ip}`, now, FAILURE_WINDOW_MS);
  if (perAddress > deps.addressLimit)
    throw tooMany('Too many sign-in attempts from this address; try again in a minute.');
  if (Math.random() < 0.01)
    await pruneLoginAttempts(deps.db, new Date(now.getTime() - 10 * FAILURE_WINDOW_MS));

  const candidates = await findUsersForLogin(deps.db, context.id, identifier);
  // An e-mail match wins over someone whose username happens to equal that e-mail.
  const user =
    candidates.find((u) => u.email.toLowerCase() === identifier.toLowerCase()) ?? candidates[0] ?? null;

  // Failures are keyed by what was typed, so unknown accounts are slowed like known ones.
  const failureKey = `login:${context.id}:${identifier.toLowerCase()}`;
  const failures = await readLoginAttempts(deps.db, failureKey, now, FAILURE_WINDOW_MS);
  const known = user !== null && isKnownDevice(deps.secret, client.cookies, context.id, user.id);
  if (failures >= deps.limit && !known) {
    const inSlot = await countLoginAttempt(
      deps.db,
      `login-slow:${context.id}:${identifier.toLowerCase()}`,
      now,
      SLOW_SLOT_MS,
    );
    if (inSlot > 1) throw tooMany('Too many failed sign-ins for this account; try again in a few seconds.');
  }

  // verifyPassword spends the same time without a user, so answers do not reveal accounts.
  const ok = await verifyPassword(body.password, user?.passwordHash ?? null).catch((err: unknown) => {
    // More sign-ins waiting for a hash than the queue holds (lib/password.ts): refused before
    // anything is counted, as an overloaded server would.
    if (err instanceof PasswordQueueFull)
      throw tooMany('Too many sign-ins at once; try again in a few seconds.');
    throw err;
  });
  if (!user || !ok) {
    await countLoginAttempt(deps.db, failureKey, now, FAILURE_WINDOW_MS);
    throw new ApiError(401, 'INVALID_PASSWORD', 'Wrong e-mail or password.');
  }

  await clearLoginAttempts(deps.db, failureKey);
  if (user.passwordHash && needsRehash(user.passwordHash)) await upgradeHash(deps.db, user, body.password);
  const token = await deps.auth.sign(user.id, context.id, now);
  return {
    response: { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, user_id: user.id },
    deviceCookie: deviceCookie(deps.secret, context.id, user.id, client.secure),
  };
}

/**
 * Replaces a hash made with older parameters (scrypt N = 16 384) by today's (R3-14), once the
 * password is known to be right. Only if the stored hash is still the one checked: a password
 * changed meanwhile wins. A full hashing queue skips it; the next sign-in tries again.
 */
async function upgradeHash(db: Db, user: { id: string; passwordHash: string | null }, password: string) {
  try {
    const fresh = await hashPassword(password);
    await db
      .updateTable('users')
      .set({ passwordHash: fresh })
      .where('id', '=', user.id)
      .where('passwordHash', '=', user.passwordHash)
      .execute();
  } catch (err) {
    if (!(err instanceof PasswordQueueFull)) throw err;
  }
}

/** docs/product.md §5 "Required profile data": names, birthday and acceptance of the current terms. */
export function needsRequiredDatas(user: UserRow, settings: ContextSettings): boolean {
  if (!settings.requiredDatas) return false;
  const blank = (v: string | null) => v == null || v.trim() === '';
  if (blank(user.lastname) || blank(user.firstname) || blank(user.birthday)) return true;
  const cgu = settings.legal.cgu;
  if (!cgu) return false;
  const legal = parseJson<{ cguAcceptedVersion?: unknown }>(user.legal, {});
  return legal.cguAcceptedVersion !== cgu.version;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export async function profileOf(db: Db, context: ContextRow, user: AuthUser): Promise<UserProfile> {
  const row = user.row;
  const companies = (await findUserCompanies(db, context.id, row.id)).filter(
    (c): c is { id: string; name: string; role: CompanyRole } => COMPANY.has(c.role),
  );
  const domain = userDomain({ roles: user.roles, companies });
  const legal = parseJson<{ cguAcceptedVersion?: unknown; cguAcceptedAt?: unknown }>(row.legal, {});
  const scoring = parseJson<unknown>(row.scoring, {});
  return {
    id: row.id,
    username: row.username,
    firstname: row.firstname,
    lastname: row.lastname,
    displayName: displayName(row),
    avatarId: row.avatarId,
    email: row.email,
    birthday: row.birthday,
    legal: {
      cguAcceptedVersion: typeof legal.cguAcceptedVersion === 'string' ? legal.cguAcceptedVersion : null,
      cguAcceptedAt: typeof legal.cguAcceptedAt === 'string' ? legal.cguAcceptedAt : null,
    },
    supportGroups: stringArray(parseJson<unknown>(row.supportGroups, [])),
    scoring:
      scoring !== null && typeof scoring === 'object' && !Array.isArray(scoring)
        ? (scoring as Record<string, unknown>)
        : {},
    contributionLevel: row.contributionLevel,
    donePageCount: { global: row.donePageCount },
    timeAlive: { global: row.timeAlive },
    isFromInvitationCode: row.isFromInvitationCode === 1,
    tincanIdentifier: row.tincanIdentifier,
    roles: user.roles,
    // The route guard reads the domain (docs/product.md §2 'grains|client|public'); administrators may
    // also open previews and corrections (docs/product.md §6).
    permissions: [domain, ...(user.isAdmin ? ['preview', 'correction'] : [])],
    companies,
    createdAt: row.createdAt,
    domain,
    preferredLocale:
      row.preferredLocale === 'fr' || row.preferredLocale === 'en' ? row.preferredLocale : null,
    contextId: row.contextId,
    needsRequiredDatas: needsRequiredDatas(row, contextSettings(context)),
  };
}

export async function me(db: Db, context: ContextRow, user: AuthUser): Promise<MeResponse> {
  return { _id: user.id, profile: await profileOf(db, context, user) };
}
