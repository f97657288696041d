/**
 * Checks the sign-in fields with the shared domain schema. The schema (and zod with it) is
 * imported on demand so it is not part of the /login page's initial scripts; `preload` warms it
 * as soon as the learner starts typing.
 */
import type { Locale } from '@parcours/domain/entities';
import type { Credentials } from './login';

export type LoginFieldErrors = Partial<Record<keyof Credentials, string>>;

const loadSchemas = () => import('@parcours/domain/schemas');

export function preloadLoginSchema(): void {
  void loadSchemas().catch(() => undefined);
}

/** Translated errors per field (first message of each), or null when the values are valid. */
export async function validateLogin(
  values: Credentials,
  locale: Locale,
): Promise<{ values: Credentials; errors: null } | { values: null; errors: LoginFieldErrors }> {
  const { loginSchema, validationMessage } = await loadSchemas();
  const result = loginSchema.safeParse(values);
  if (result.success) return { values: result.data, errors: null };
  const errors: LoginFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) {
      errors[field] = validationMessage(issue.message, locale);
    }
  }
  return { values: null, errors };
}
