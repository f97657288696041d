import * as z from 'zod/mini';
import { LOGIN_FIELD_MAX } from './constants';

/**
 * The sign-in rule, shared by the login form and the login route. Written with `zod/mini`
 * (tree-shakable, a few kB) rather than classic zod because it is the only schema the /login
 * screen needs, and that screen's first load is kept small for cheap phones on slow networks.
 * Messages are catalogue keys.
 */
export const loginSchema = z.object({
  email: z
    .string({ error: 'validation.login.identifier.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.login.identifier.required', abort: true }),
      z.maxLength(LOGIN_FIELD_MAX, { error: 'validation.login.length' }),
    ),
  // Passwords are never trimmed: spaces may be part of an old password.
  password: z
    .string({ error: 'validation.login.password.required' })
    .check(
      z.minLength(1, { error: 'validation.login.password.required', abort: true }),
      z.maxLength(LOGIN_FIELD_MAX, { error: 'validation.login.length' }),
    ),
});
export type LoginInput = z.infer<typeof loginSchema>;
