import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceDocument } from '../../plugins/jsonapi';
import { toContextResource } from './service';
import { documentOf } from '../../plugins/contract';
import { contextResource } from '../../plugins/resources';

export const contextRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/contexts/current',
    {
      schema: {
        tags: ['contexts'],
        summary: 'The tenant answering on this host (public; read before sign-in).',
        response: { 200: documentOf(contextResource) },
      },
    },
    async (request, reply) => {
      // The answer depends on the Host header only, so shared caches must key on it.
      reply.header('cache-control', 'public, max-age=60').header('vary', 'Host');
      return resourceDocument(toContextResource(request.context), []);
    },
  );
};
