import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { courseCategoriesByIds, courseTypesByIds } from '../courses/repository';
import { toCourseCategoryResource, toCourseTypeResource } from '../courses/serializer';
import { filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { listRoute, oneRoute } from '../respond';
import {
  findCompany,
  listCompanies,
  listCompanyUsers,
  listLibraries,
  listRoles,
  listRoleUsers,
} from './repository';
import {
  toCompanyResource,
  toCompanyUserResource,
  toLibraryResource,
  toRoleResource,
  toRoleUserResource,
} from './serializer';
import { collectionOf, documentOf } from '../../plugins/contract';
import {
  companyResource,
  companyUserResource,
  courseCategoryResource,
  courseTypeResource,
  libraryResource,
  roleResource,
  roleUserResource,
} from '../../plugins/resources';

/**
 * Organisation reads of docs/product.md §7 (companies, company users, libraries, roles, role users) and the
 * tenant's reference data by id (course categories and types). Scoping lives in the repository:
 * a learner sees their own companies, memberships and roles, administrators the whole tenant.
 */
export const organisationRoutes: FastifyPluginAsyncZod = async (app) => {
  const paged = (filters: Record<string, typeof filterValue>, sorts: string[] = []) =>
    jsonApiQuerySchema({ filters, sorts, paginated: true });

  listRoute(app, {
    path: '/companies',
    tag: 'organisation',
    summary: "The viewer's companies (every company of the tenant for administrators).",
    query: paged({ id: filterValue }, ['name', 'createdAt']),
    document: collectionOf(companyResource),
    list: listCompanies,
    toResource: toCompanyResource,
  });
  oneRoute(app, {
    path: '/companies/:id',
    tag: 'organisation',
    summary: 'One of the viewer’s companies.',
    query: jsonApiQuerySchema({}),
    document: documentOf(companyResource),
    name: 'Company',
    find: findCompany,
    toResource: toCompanyResource,
  });
  listRoute(app, {
    path: '/company-users',
    tag: 'organisation',
    summary:
      'Members of the viewer’s companies with an allowed role (SPEC §5), and the viewer’s own memberships.',
    query: paged({ id: filterValue, companyId: filterValue, userId: filterValue, role: filterValue }, [
      'role',
    ]),
    document: collectionOf(companyUserResource),
    list: listCompanyUsers,
    toResource: toCompanyUserResource,
  });
  listRoute(app, {
    path: '/libraries',
    tag: 'organisation',
    summary: 'File libraries owned by the viewer or their companies (the whole tenant for administrators).',
    query: paged({ id: filterValue, ownerId: filterValue, ownerType: filterValue }, ['createdAt']),
    document: collectionOf(libraryResource),
    list: listLibraries,
    toResource: toLibraryResource,
  });
  listRoute(app, {
    path: '/roles',
    tag: 'organisation',
    summary: 'System roles: the ones the viewer holds (all of them for administrators).',
    query: paged({ id: filterValue, name: filterValue }, ['name']),
    document: collectionOf(roleResource),
    list: listRoles,
    toResource: toRoleResource,
  });
  listRoute(app, {
    path: '/role-users',
    tag: 'organisation',
    summary: 'Role assignments: the viewer’s own (and the tenant’s for administrators).',
    query: paged({ id: filterValue, roleId: filterValue, principalId: filterValue }),
    document: collectionOf(roleUserResource),
    list: listRoleUsers,
    toResource: toRoleUserResource,
  });
  oneRoute(app, {
    path: '/course-categories/:id',
    tag: 'courses',
    summary: 'One course category of the tenant.',
    query: jsonApiQuerySchema({}),
    document: documentOf(courseCategoryResource),
    name: 'Course category',
    find: async (db, v, id) => (await courseCategoriesByIds(db, v, [id]))[0],
    toResource: toCourseCategoryResource,
  });
  oneRoute(app, {
    path: '/course-types/:id',
    tag: 'courses',
    summary: 'One course type of the tenant.',
    query: jsonApiQuerySchema({}),
    document: documentOf(courseTypeResource),
    name: 'Course type',
    find: async (db, v, id) => (await courseTypesByIds(db, v, [id]))[0],
    toResource: toCourseTypeResource,
  });
};
