import type { Resource } from '../../plugins/jsonapi';
import type { CompanyRow, CompanyUserRow, LibraryRow, RoleRow, RoleUserRow } from './repository';

export function toCompanyResource(row: CompanyRow): Resource {
  return {
    type: 'companies',
    id: row.id,
    attributes: { name: row.name, avatarId: row.avatarId, createdAt: row.createdAt },
  };
}

export function toCompanyUserResource(row: CompanyUserRow): Resource {
  return {
    type: 'company-users',
    id: row.id,
    attributes: { companyId: row.companyId, userId: row.userId, role: row.role },
    relationships: {
      company: { data: { type: 'companies', id: row.companyId } },
      user: { data: { type: 'users', id: row.userId } },
    },
  };
}

export function toRoleResource(row: RoleRow): Resource {
  return { type: 'roles', id: row.id, attributes: { name: row.name, description: row.description } };
}

export function toRoleUserResource(row: RoleUserRow): Resource {
  return {
    type: 'role-users',
    id: row.id,
    attributes: {
      roleId: row.roleId,
      principalType: row.principalType,
      principalId: row.principalId,
      scopeId: row.scopeId,
    },
    relationships: { role: { data: { type: 'roles', id: row.roleId } } },
  };
}

export function toLibraryResource(row: LibraryRow): Resource {
  return {
    type: 'libraries',
    id: row.id,
    attributes: { ownerId: row.ownerId, ownerType: row.ownerType, createdAt: row.createdAt },
    relationships: { files: { data: row.fileIds.map((id) => ({ type: 'files', id })) } },
  };
}
