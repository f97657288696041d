import { Readable } from 'node:stream';
import { z } from 'zod';
import { documented } from './contract';

/**
 * The answers that are not JSON:API documents (decision 0069): xAPI, keys and credentials, the
 * cmi5 fetch, files, PDFs, images, HTML, redirects. Each success status of every operation says
 * what it answers in /api/docs (test/docs/openapi-contract.test.ts counts those that do not).
 *
 * A JSON answer is typed like a JSON:API one (checked against every answer of the API test suite,
 * test/jsonapi/setup.ts) and sent as built: what the handler returns is `JSON.stringify`-ed, as
 * without a schema, never parsed or stripped in production (decision 0064).
 */

/** Sent as it is by Fastify: buffers, streams and strings are never serialised. */
export type SentBytes = Buffer | Uint8Array | Readable | string;

const sentAsBuilt = z.unknown();

/** A JSON answer of its own format (xAPI, a JWK set, the cmi5 fetch), documented by `typed`. */
export function jsonAnswer<T extends z.ZodType>(typed: T): T {
  return documented(typed, sentAsBuilt);
}

const isSentBytes = (value: unknown): value is SentBytes =>
  typeof value === 'string' ||
  Buffer.isBuffer(value) ||
  value instanceof Uint8Array ||
  value instanceof Readable;

/**
 * Bytes of the media types the route's `produces` lists (a PDF, an SVG, a signed JWT, HTML): a
 * binary string in the reference, no body schema. A JSON object is not bytes: on a route that
 * also answers JSON, the contract check holds that JSON to the route's other members.
 */
export function bytes(description: string) {
  return z.custom<SentBytes>(isSentBytes).meta({ type: 'string', format: 'binary', description });
}

/**
 * Content stored by someone else, of the media type it was stored with (a file, an xAPI
 * document): any bytes, JSON included, so nothing to check.
 */
export function storedContent(description: string) {
  return z.custom<SentBytes>(() => true).meta({ type: 'string', format: 'binary', description });
}

/**
 * No body: a redirect (its Location says where) or a 204. The type provider writes an empty
 * answer's schema (`z.undefined()`) as `type: 'null'`, which @fastify/swagger shows as a response
 * with a description and no content. The handler sends nothing (`send()`, `redirect()`): a
 * `null` would be serialised against this schema and refused.
 */
export function noBody(description: string) {
  return z.undefined().meta({ description });
}
