/** Fields that take part in a person's display name (docs/product.md §3 AppUser). */
export interface DisplayNameSource {
  firstname?: string | null;
  lastname?: string | null;
  username?: string | null;
  email?: string | null;
}

function clean(value: string | null | undefined): string {
  return value?.trim() ?? '';
}

/**
 * docs/product.md §3 fallback order: first and last name, username, first or last name alone, e-mail.
 * Blank values count as missing; an empty string means nothing usable is known.
 */
export function displayName(user: DisplayNameSource): string {
  const first = clean(user.firstname);
  const last = clean(user.lastname);
  if (first && last) return `${first} ${last}`;
  return clean(user.username) || first || last || clean(user.email);
}
