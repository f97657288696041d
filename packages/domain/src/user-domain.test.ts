import { describe, expect, it } from 'vitest';
import type { UserDomain } from './entities';
import { hasPermission, userDomain } from './user-domain';
import type { UserDomainSource } from './user-domain';

describe('userDomain', () => {
  it.each<[string, UserDomainSource, UserDomain]>([
    ['superadmin', { roles: ['superadmin'], companies: [] }, 'grains'],
    ['admin', { roles: ['admin'], companies: [] }, 'grains'],
    ['a role wins over companies', { roles: ['admin'], companies: [{ role: 'OWNER' }] }, 'grains'],
    [
      'a role wins over student-only companies',
      { roles: ['admin'], companies: [{ role: 'STUDENT' }] },
      'grains',
    ],
    ['blank role strings are ignored', { roles: [''], companies: [] }, 'public'],
    ...(['TEACHER', 'ADMIN', 'OWNER', 'ORGANIZER', 'CERTIFIER', 'SUPERVISOR'] as const).map(
      (role): [string, UserDomainSource, UserDomain] => [
        `company ${role}`,
        { roles: [], companies: [{ role }] },
        'client',
      ],
    ),
    ['company STUDENT only', { roles: [], companies: [{ role: 'STUDENT' }] }, 'public'],
    [
      'one allowed company among students',
      { roles: [], companies: [{ role: 'STUDENT' }, { role: 'TEACHER' }] },
      'client',
    ],
    ['company role is case-sensitive', { roles: [], companies: [{ role: 'teacher' }] }, 'public'],
    ['nothing', { roles: [], companies: [] }, 'public'],
  ])('%s', (_label, source, expected) => {
    expect(userDomain(source)).toBe(expected);
  });
});

describe('hasPermission', () => {
  it.each<[UserDomain | null | undefined, string | undefined, boolean]>([
    ['grains', undefined, true],
    ['client', undefined, true],
    ['public', undefined, true],
    [null, undefined, false],
    [undefined, 'grains|client|public', false],
    ['grains', 'grains', true],
    ['client', 'grains', false],
    ['public', 'grains|client', false],
    ['client', 'grains|client', true],
    ['client', ' grains | client ', true],
    ['public', '', false],
    ['grains', 'grainsclient', false],
  ])('%s with %j → %s', (domain, permission, expected) => {
    expect(hasPermission(domain, permission)).toBe(expected);
  });
});
