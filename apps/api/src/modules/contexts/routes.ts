import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendPrepared } from '../../lib/answer-cache';
import type { PreparedAnswer } from '../../lib/answer-cache';
import { resourceDocument } from '../../plugins/jsonapi';
import { toContextResource } from './service';
import type { ContextRow } from './repository';
import { documentOf, serializerCompiler } from '../../plugins/contract';
import { contextResource } from '../../plugins/resources';

const RESPONSE = documentOf(contextResource);

export const contextRoutes: FastifyPluginAsyncZod = async (app) => {
  // The answer depends on the tenant's row alone: its bytes are made once per row object (the
  // tenant resolver hands out a new one when it reads the tenant again), by the serializer
  // Fastify would run on every answer, then sent as they are, compressed once (issue 38 item 4).
  const serialize = serializerCompiler({
    schema: RESPONSE,
    method: 'GET',
    url: '/api/contexts/current',
    httpStatus: '200',
  });
  const answers = new WeakMap<ContextRow, PreparedAnswer>();
  app.get(
    '/contexts/current',
    {
      // Its bytes are compressed once, by sendPrepared.
      compress: false,
      schema: {
        tags: ['contexts'],
        summary: 'The tenant answering on this host (public; read before sign-in).',
        response: { 200: RESPONSE },
      },
    },
    async (request, reply) => {
      // The answer depends on the Host header only, so shared caches must key on it.
      reply.header('cache-control', 'public, max-age=60').header('vary', 'Host');
      let answer = answers.get(request.context);
      if (!answer) {
        const document = resourceDocument(toContextResource(request.context), []);
        answers.set(request.context, (answer = { body: Buffer.from(serialize(document)) }));
      }
      return sendPrepared(request, reply, answer);
    },
  );
};
