import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type {
  CompaniesTable,
  CompanyUsersTable,
  LibrariesTable,
  RolesTable,
  RoleUsersTable,
} from '../../db/schema';
import { ALLOWED_COMPANY_ROLES } from '@parcours/domain/entities';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';

export type CompanyRow = Selectable<CompaniesTable>;
export type CompanyUserRow = Selectable<CompanyUsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type RoleUserRow = Selectable<RoleUsersTable>;
export type LibraryRow = Selectable<LibrariesTable> & { fileIds: string[] };

type Page<T> = Promise<{ rows: T[]; total: number }>;

/** Companies of the tenant the viewer belongs to; administrators see every company of the tenant. */
function myCompanyIds(db: Db, v: Viewer) {
  let q = db.selectFrom('companies as mc').select('mc.id').where('mc.contextId', '=', v.contextId);
  if (!v.isAdmin) {
    q = q.where(
      'mc.id',
      'in',
      db.selectFrom('companyUsers as mcu').select('mcu.companyId').where('mcu.userId', '=', v.userId),
    );
  }
  return q;
}

export async function listCompanies(db: Db, v: Viewer, q: JsonApiQuery): Page<CompanyRow> {
  let qb = db
    .selectFrom('companies as c')
    .where('c.contextId', '=', v.contextId)
    .where('c.id', 'in', myCompanyIds(db, v));
  if (q.filters.id) qb = qb.where('c.id', 'in', q.filters.id);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('c'),
    q.sort,
    { name: 'c.name', createdAt: 'c.createdAt' },
    [{ field: 'name', desc: false }],
    'c.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

export async function findCompany(db: Db, v: Viewer, id: string): Promise<CompanyRow | undefined> {
  return db
    .selectFrom('companies as c')
    .selectAll('c')
    .where('c.contextId', '=', v.contextId)
    .where('c.id', 'in', myCompanyIds(db, v))
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/**
 * docs/product.md §5 allowed company roles: a learner sees the staff of their companies (whom to turn to)
 * and their own membership, never the other learners.
 */
export async function listCompanyUsers(db: Db, v: Viewer, q: JsonApiQuery): Page<CompanyUserRow> {
  let qb = db.selectFrom('companyUsers as cu').where('cu.companyId', 'in', myCompanyIds(db, v));
  if (!v.isAdmin) {
    qb = qb.where((eb) =>
      eb.or([eb('cu.role', 'in', [...ALLOWED_COMPANY_ROLES]), eb('cu.userId', '=', v.userId)]),
    );
  }
  if (q.filters.id) qb = qb.where('cu.id', 'in', q.filters.id);
  if (q.filters.companyId) qb = qb.where('cu.companyId', 'in', q.filters.companyId);
  if (q.filters.userId) qb = qb.where('cu.userId', 'in', q.filters.userId);
  if (q.filters.role) qb = qb.where('cu.role', 'in', q.filters.role);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('cu'),
    q.sort,
    { role: 'cu.role' },
    [{ field: 'role', desc: false }],
    'cu.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/**
 * Role assignments: the viewer's own; administrators also see every assignment scoped to their
 * tenant. System roles are global, so an assignment is tied to a tenant by its scope.
 */
function visibleRoleUsers(db: Db, v: Viewer) {
  const qb = db.selectFrom('roleUsers as ru');
  if (v.isAdmin) {
    return qb.where((eb) =>
      eb.or([
        eb('ru.scopeId', '=', v.contextId),
        eb.and([eb('ru.principalType', '=', 'USER'), eb('ru.principalId', '=', v.userId)]),
      ]),
    );
  }
  return qb.where('ru.principalType', '=', 'USER').where('ru.principalId', '=', v.userId);
}

export async function listRoleUsers(db: Db, v: Viewer, q: JsonApiQuery): Page<RoleUserRow> {
  let qb = visibleRoleUsers(db, v);
  if (q.filters.id) qb = qb.where('ru.id', 'in', q.filters.id);
  if (q.filters.roleId) qb = qb.where('ru.roleId', 'in', q.filters.roleId);
  if (q.filters.principalId) qb = qb.where('ru.principalId', 'in', q.filters.principalId);
  const total = await countRows(qb);
  const rows = await withSort(qb.selectAll('ru'), q.sort, {}, [], 'ru.id')
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/** Roles: administrators see the catalogue of system roles; anyone else the roles they hold. */
export async function listRoles(db: Db, v: Viewer, q: JsonApiQuery): Page<RoleRow> {
  let qb = db.selectFrom('roles as r');
  if (!v.isAdmin) qb = qb.where('r.id', 'in', visibleRoleUsers(db, v).select('ru.roleId'));
  if (q.filters.id) qb = qb.where('r.id', 'in', q.filters.id);
  if (q.filters.name) qb = qb.where('r.name', 'in', q.filters.name);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('r'),
    q.sort,
    { name: 'r.name' },
    [{ field: 'name', desc: false }],
    'r.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/** Libraries owned by the viewer or by one of their companies; the whole tenant for administrators. */
export async function listLibraries(db: Db, v: Viewer, q: JsonApiQuery): Page<LibraryRow> {
  let qb = db.selectFrom('libraries as l').where('l.contextId', '=', v.contextId);
  if (!v.isAdmin) {
    qb = qb.where((eb) =>
      eb.or([
        eb.and([eb('l.ownerType', '=', 'USER'), eb('l.ownerId', '=', v.userId)]),
        eb.and([eb('l.ownerType', '=', 'COMPANY'), eb('l.ownerId', 'in', myCompanyIds(db, v))]),
      ]),
    );
  }
  if (q.filters.id) qb = qb.where('l.id', 'in', q.filters.id);
  if (q.filters.ownerId) qb = qb.where('l.ownerId', 'in', q.filters.ownerId);
  if (q.filters.ownerType) qb = qb.where('l.ownerType', 'in', q.filters.ownerType);
  const total = await countRows(qb);
  const libraries = await withSort(
    qb.selectAll('l'),
    q.sort,
    { createdAt: 'l.createdAt' },
    [{ field: 'createdAt', desc: false }],
    'l.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  // One query for the files of the whole page, whatever its size.
  const files = libraries.length
    ? await db
        .selectFrom('files')
        .select(['id', 'libraryId'])
        .where('contextId', '=', v.contextId)
        .where(
          'libraryId',
          'in',
          libraries.map((l) => l.id),
        )
        .orderBy('id')
        .execute()
    : [];
  const rows = libraries.map((l) => ({
    ...l,
    fileIds: files.filter((f) => f.libraryId === l.id).map((f) => f.id),
  }));
  return { rows, total };
}
