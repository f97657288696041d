import { createHash, randomBytes } from 'node:crypto';
import { resetPasswordSchema, usesSimplePassword } from '@parcours/domain/schemas';
import { displayName } from '@parcours/domain/display-name';
import { hashPassword } from '../../lib/password';
import { t } from '../../lib/i18n';
import type { TextKey } from '../../lib/i18n';
import { ApiError } from '../../plugins/errors';
import type { ContextRow } from '../contexts/repository';
import { contextSettings } from '../contexts/service';
import type { IdentityDeps } from './deps';
import { enforceAttemptLimit, localeOf } from './deps';
import { resetMail } from './mails';
import {
  consumePasswordReset,
  findPasswordReset,
  findUserByEmail,
  findUserById,
  insertPasswordReset,
  updateUser,
  usePendingPasswordResets,
} from './repository';
import { parseWith } from './validation';

/** How long a reset link works. */
export const RESET_TTL_MINUTES = 60;

/** Only this hash is stored: a leaked database does not give working links. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// docs/product.md §8 "User load via link": 403 'Lien expiré', 401 'Lien invalide ou expiré'. The
// link is opened before any language is chosen, so the detail says it in both.
const bothLanguages = (key: TextKey) => `${t('fr', key)} / ${t('en', key)}`;
const invalidLink = () => new ApiError(401, 'UNAUTHORIZED', bothLanguages('errors.linkInvalid'));
const expiredLink = () => new ApiError(403, 'Forbidden', bothLanguages('errors.linkExpired'));

/**
 * POST users/recover. The answer never depends on whether the e-mail is known: the mail is
 * sent in the background so the response time does not tell either.
 */
export async function recover(
  deps: IdentityDeps,
  context: ContextRow,
  origin: string,
  email: string,
): Promise<void> {
  const now = deps.now();
  const normalized = email.trim().toLowerCase();
  await enforceAttemptLimit(
    deps,
    `recover:${context.id}:${normalized}`,
    'Too many recovery requests for this e-mail; try again in a minute.',
  );
  const settings = contextSettings(context);
  const user = settings.login.internal ? await findUserByEmail(deps.db, context.id, normalized) : undefined;
  if (!user) return;

  const token = randomBytes(32).toString('base64url');
  await insertPasswordReset(deps.db, {
    tokenHash: hashResetToken(token),
    userId: user.id,
    expireAt: new Date(now.getTime() + RESET_TTL_MINUTES * 60_000).toISOString(),
    createdAt: now.toISOString(),
  });
  const link = `${origin}/reset/${token}`;
  const mail = resetMail(localeOf(user.preferredLocale, settings.defaultLocale), {
    tenantName: context.name,
    link,
    ttlMinutes: RESET_TTL_MINUTES,
  });
  void deps.mailer
    .send({ to: user.email, fromName: context.name, ...mail })
    .catch((err: unknown) => deps.log.error({ err, userId: user.id }, 'password reset mail failed'));
}

export interface ResetLinkInfo {
  userId: string;
  email: string;
  displayName: string;
  /** The simple-password rule applies to this user (docs/product.md §5). */
  simplePassword: boolean;
}

async function loadLink(deps: IdentityDeps, context: ContextRow, token: string) {
  const reset = await findPasswordReset(deps.db, context.id, hashResetToken(token));
  if (!reset || reset.usedAt) throw invalidLink();
  if (reset.expireAt <= deps.now().toISOString()) throw expiredLink();
  const user = await findUserById(deps.db, context.id, reset.userId);
  if (!user) throw invalidLink();
  const simplePassword = usesSimplePassword(
    { isFromInvitationCode: user.isFromInvitationCode === 1 },
    contextSettings(context),
  );
  return { reset, user, simplePassword };
}

/** GET users/reset/{token}: the reset screen loads the link first (docs/product.md §7). */
export async function loadResetLink(
  deps: IdentityDeps,
  context: ContextRow,
  token: string,
): Promise<ResetLinkInfo> {
  const { user, simplePassword } = await loadLink(deps, context, token);
  return { userId: user.id, email: user.email, displayName: displayName(user), simplePassword };
}

/**
 * POST users/reset: sets the new password, uses the link up (single use even under concurrent
 * submissions) and revokes every token issued before, all in one transaction.
 */
export async function resetPassword(
  deps: IdentityDeps,
  context: ContextRow,
  body: { token: string; password: unknown },
): Promise<void> {
  const { reset, simplePassword } = await loadLink(deps, context, body.token);
  const { password } = parseWith(resetPasswordSchema({ simple: simplePassword }), {
    password: body.password,
  });
  const passwordHash = await hashPassword(password);
  const nowIso = deps.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await consumePasswordReset(trx, reset.tokenHash, nowIso))) throw invalidLink();
    await updateUser(trx, context.id, reset.userId, {
      passwordHash,
      tokensValidAfter: nowIso,
      updatedAt: nowIso,
    });
    await usePendingPasswordResets(trx, reset.userId, nowIso);
  });
}
