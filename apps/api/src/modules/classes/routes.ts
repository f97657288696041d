import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { listRoute, oneRoute } from '../respond';
import { findClass, listClasses } from './repository';
import { toClassResource } from './serializer';
import { collectionOf, documentOf } from '../../plugins/contract';
import { CLASS_TREE_INCLUDED, classResource } from '../../plugins/resources';

export const classRoutes: FastifyPluginAsyncZod = async (app) => {
  listRoute(app, {
    path: '/classes',
    tag: 'classes',
    summary: 'Classes the user belongs to.',
    query: jsonApiQuerySchema({
      filters: { id: filterValue },
      sorts: ['startAt', 'name'],
      includes: INCLUDES.classes,
      paginated: true,
    }),
    document: collectionOf(classResource, CLASS_TREE_INCLUDED),
    list: listClasses,
    toResource: toClassResource,
  });
  oneRoute(app, {
    path: '/classes/:id',
    tag: 'classes',
    summary: 'One class the user belongs to.',
    query: jsonApiQuerySchema({ includes: INCLUDES.classes }),
    document: documentOf(classResource, CLASS_TREE_INCLUDED),
    name: 'Class',
    find: findClass,
    toResource: toClassResource,
  });
};
