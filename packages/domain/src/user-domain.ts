import { ALLOWED_COMPANY_ROLES } from './entities';
import type { UserDomain } from './entities';

export const USER_DOMAINS = ['grains', 'client', 'public'] as const satisfies readonly UserDomain[];

/** Every route's default permission (docs/product.md §2). */
export const DEFAULT_PERMISSION = 'grains|client|public';

export interface UserDomainSource {
  /** System roles from RoleUser (superadmin, admin). */
  roles: readonly string[];
  companies: readonly { role: string }[];
}

const ALLOWED_ROLES = new Set<string>(ALLOWED_COMPANY_ROLES);

/**
 * docs/product.md §4 Domain rule: any role → grains; else a company where the user holds an allowed role
 * → client; else public. A STUDENT-only company membership does not make a client.
 */
export function userDomain({ roles, companies }: UserDomainSource): UserDomain {
  if (roles.some((role) => role.trim() !== '')) return 'grains';
  if (companies.some((company) => ALLOWED_ROLES.has(company.role))) return 'client';
  return 'public';
}

/**
 * Route guard check: `permission` is a pipe-separated list of allowed domains. A visitor
 * without a domain (not signed in) never passes, and an empty list allows nobody.
 */
export function hasPermission(
  domain: UserDomain | null | undefined,
  permission: string = DEFAULT_PERMISSION,
): boolean {
  if (!domain) return false;
  return permission
    .split('|')
    .map((part) => part.trim())
    .includes(domain);
}
