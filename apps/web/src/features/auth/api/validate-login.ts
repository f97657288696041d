/**
 * Checks the sign-in fields with the shared domain rule (`@parcours/domain/login-schema`, written
 * with zod/mini so it stays a few kB). It is still imported on demand, so the /login page's first
 * scripts hold only what paints the form; `preload` warms it when the learner starts typing.
 * Messages are catalogue keys, translated by the caller.
 */
import type { Credentials } from './login';

export type LoginFieldErrors = Partial<Record<keyof Credentials, string>>;

const loadSchema = () => import('@parcours/domain/login-schema');

export function preloadLoginSchema(): void {
  void loadSchema().catch(() => undefined);
}

/** Message keys per field (first message of each), or null when the values are valid. */
export async function validateLogin(
  values: Credentials,
): Promise<{ values: Credentials; errors: null } | { values: null; errors: LoginFieldErrors }> {
  const { loginSchema } = await loadSchema();
  const result = loginSchema.safeParse(values);
  if (result.success) return { values: result.data, errors: null };
  const errors: LoginFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { values: null, errors };
}
