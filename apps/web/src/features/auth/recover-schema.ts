/**
 * The recover form's e-mail rule with the profile's messages (docs/product.md §5 "Saisissez un e-mail
 * valide"), written with zod/mini: this mode is one field, and classic zod would weigh more
 * than the rest of the screen.
 */
import { EMAIL_MAX } from '@parcours/domain/constants';
import * as z from 'zod/mini';

export const recoverSchema = z.object({
  email: z.pipe(
    z
      .string({ error: 'validation.email.invalid' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'validation.email.invalid', abort: true }),
        z.maxLength(EMAIL_MAX, { error: 'validation.email.length', abort: true }),
      ),
    z.email({ error: 'validation.email.invalid' }),
  ),
});

export function checkRecoverEmail(
  value: string,
): { success: true; email: string } | { success: false; error: string } {
  const result = recoverSchema.safeParse({ email: value });
  if (result.success) return { success: true, email: result.data.email };
  return { success: false, error: result.error.issues[0]?.message ?? 'validation.email.invalid' };
}
