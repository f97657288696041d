import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@parcours/domain/entities';
import type { Db } from '../../db/db';
import type { Auth } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import { countLoginAttempt } from './repository';

/** What the identity services need; routes build it once. */
export interface IdentityDeps {
  db: Db;
  auth: Auth;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Attempts per minute per key (env.LOGIN_RATE_LIMIT), as for sign-in. */
  limit: number;
  /** Attempts per address per minute (login-guard addressLimit). */
  addressLimit: number;
  /** Injectable clock (tests). */
  now: () => Date;
}

export const ATTEMPT_WINDOW_MS = 60_000;

/**
 * Per-key limit kept in the database (login_attempts), so it holds across API processes; the
 * per-IP limit is the route's @fastify/rate-limit config.
 */
export async function enforceAttemptLimit(
  deps: IdentityDeps,
  key: string,
  detail: string,
  limit = deps.limit,
): Promise<void> {
  const count = await countLoginAttempt(deps.db, key, deps.now(), ATTEMPT_WINDOW_MS);
  if (count > limit) throw new ApiError(429, 'TOO_MANY_REQUESTS', detail);
}

export function localeOf(preferred: string | null, fallback: Locale): Locale {
  return preferred === 'fr' || preferred === 'en' ? preferred : fallback;
}
