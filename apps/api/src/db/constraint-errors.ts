/**
 * Which unique index a failed insert/update hit, from the driver error: SQLite names the
 * columns or the index in its message, PostgreSQL gives the constraint (23505). Shared by every
 * module that inserts under a unique index, so it lives with the database code (issue 40).
 */
export function uniqueViolation(err: unknown): 'username' | 'email' | 'oidc' | 'other' | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; message?: unknown; constraint?: unknown };
  const isUnique =
    e.code === '23505' || (typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT'));
  if (!isUnique) return null;
  const text = `${typeof e.constraint === 'string' ? e.constraint : ''} ${typeof e.message === 'string' ? e.message : ''}`;
  if (text.includes('username')) return 'username';
  if (text.includes('email')) return 'email';
  if (text.includes('oidc')) return 'oidc';
  return 'other';
}
