import { displayName } from '@parcours/domain/display-name';
import { userDomain } from '@parcours/domain/user-domain';
import { COMPANY_ROLES } from '@parcours/domain/entities';
import type { CompanyRole, ContextSettings, LoginResponse, MeResponse, UserProfile } from '@parcours/domain/entities';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { verifyPassword } from '../../lib/password';
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
} from './repository';
import type { UserRow } from './repository';

const WINDOW_MS = 60_000;
const COMPANY = new Set<string>(COMPANY_ROLES);

export interface LoginDeps {
  db: Db;
  auth: Auth;
  /** Attempts per minute per identifier (env.LOGIN_RATE_LIMIT). */
  limit: number;
  now?: Date;
}

export async function login(
  deps: LoginDeps,
  context: ContextRow,
  body: { email: string; password: string },
): Promise<LoginResponse> {
  const now = deps.now ?? new Date();
  const identifier = body.email.trim();
  // Counted before the password is checked, in the database so every API process shares it:
  // spreading a password-guessing run over several processes or IPs does not help.
  const key = `login:${context.id}:${identifier.toLowerCase()}`;
  const count = await countLoginAttempt(deps.db, key, now, WINDOW_MS);
  if (count > deps.limit) {
    throw new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many sign-in attempts for this account; try again in a minute.');
  }
  if (Math.random() < 0.01) await pruneLoginAttempts(deps.db, new Date(now.getTime() - 10 * WINDOW_MS));

  const candidates = await findUsersForLogin(deps.db, context.id, identifier);
  // An e-mail match wins over someone whose username happens to equal that e-mail.
  const user =
    candidates.find((u) => u.email.toLowerCase() === identifier.toLowerCase()) ?? candidates[0] ?? null;
  // verifyPassword spends the same time without a user, so answers do not reveal accounts.
  const ok = await verifyPassword(body.password, user?.passwordHash ?? null);
  if (!user || !ok) throw new ApiError(401, 'INVALID_PASSWORD', 'Wrong e-mail or password.');

  await clearLoginAttempts(deps.db, key);
  const token = await deps.auth.sign(user.id, context.id, now);
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, user_id: user.id };
}

/** SPEC §5 "Required profile data": names, birthday and acceptance of the current terms. */
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
  const companies = (await findUserCompanies(db, context.id, row.id))
    .filter((c): c is { id: string; name: string; role: CompanyRole } => COMPANY.has(c.role));
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
    scoring: scoring !== null && typeof scoring === 'object' && !Array.isArray(scoring) ? (scoring as Record<string, unknown>) : {},
    contributionLevel: row.contributionLevel,
    donePageCount: { global: row.donePageCount },
    timeAlive: { global: row.timeAlive },
    isFromInvitationCode: row.isFromInvitationCode === 1,
    tincanIdentifier: row.tincanIdentifier,
    roles: user.roles,
    // The route guard reads the domain (SPEC §2 'grains|client|public'); administrators may
    // also open previews and corrections (SPEC §6).
    permissions: [domain, ...(user.isAdmin ? ['preview', 'correction'] : [])],
    companies,
    createdAt: row.createdAt,
    domain,
    preferredLocale: row.preferredLocale === 'fr' || row.preferredLocale === 'en' ? row.preferredLocale : null,
    contextId: row.contextId,
    needsRequiredDatas: needsRequiredDatas(row, contextSettings(context)),
  };
}

export async function me(db: Db, context: ContextRow, user: AuthUser): Promise<MeResponse> {
  return { _id: user.id, profile: await profileOf(db, context, user) };
}
