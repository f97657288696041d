import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';

/** xAPI-Communication.md §6.2: 1.0.x accepted, anything else (or nothing) refused with 400. */
export async function requireVersion(request: FastifyRequest) {
  const v = request.headers['x-experience-api-version'];
  if (typeof v !== 'string' || !/^1\.0(\.\d+)?$/.test(v.trim())) {
    throw new ApiError(400, 'VALIDATION_ERROR', 'X-Experience-API-Version 1.0.x is required.', {
      parameter: 'X-Experience-API-Version',
    });
  }
}

/** A JSON body of the statements resource, from its bytes; 400 when it is not JSON. */
export function jsonBody(request: FastifyRequest): unknown {
  const type = String(request.headers['content-type'] ?? '');
  const raw = request.body;
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(400, 'VALIDATION_ERROR', 'Statements are sent as application/json.');
  try {
    return JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw ?? ''));
  } catch {
    throw new ApiError(400, 'VALIDATION_ERROR', 'The body is not valid JSON.');
  }
}
