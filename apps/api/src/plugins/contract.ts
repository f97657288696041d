import type { FastifySerializerCompiler } from 'fastify/types/schema';
import {
  jsonSchemaTransformObject,
  serializerCompiler as zodSerializerCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { collectionDocumentSchema, resourceDocumentSchema } from './jsonapi';

/**
 * The API contract typed from the routes' own schemas (issue 40, decision 0064). A route declares
 * the JSON:API document it answers with `collectionOf` / `documentOf` over a named resource schema
 * (plugins/resources.ts, attributes from packages/domain/src/contract): OpenAPI (/api/docs) shows
 * every attribute and relationship, and the web app's types are inferred from the same schemas.
 *
 * What runs per request does not change: a typed document is serialised through the envelope
 * schema it replaces (attributes as any object), the cost and the bytes of before. The typed
 * schema is checked against every answer of the API test suite instead (test/jsonapi/setup.ts),
 * so the hot reads (users/me, lessons, class-users) pay no deep re-validation in production.
 */

const runtimeOf = new WeakMap<z.ZodType, z.ZodType>();

/** `typed` documents the answer; `runtime` is what the serializer parses, as before issue 40. */
export function documented<T extends z.ZodType>(typed: T, runtime: z.ZodType): T {
  runtimeOf.set(typed, runtime);
  return typed;
}

/** The route's declared schema for a status, as the test suite's contract check reads it. */
export function contractSchemaOf(schema: unknown): z.ZodType | null {
  return schema instanceof z.ZodType ? schema : null;
}

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) =>
  zodSerializerCompiler({ ...route, schema: runtimeOf.get(route.schema) ?? route.schema });

type TransformObject = typeof jsonSchemaTransformObject;

/**
 * The named resources as OpenAPI components. The library writes an input twin (`LessonInput`) of
 * every named schema; ours are answers only, so a twin no operation points to is left out.
 */
export const transformObject: TransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as ReturnType<TransformObject> & {
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const text = JSON.stringify(document);
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && !text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
  return document;
};

const identifierOf = (type: string) => z.object({ type: z.literal(type), id: z.string() });

/** A to-one relationship to a resource of `type`; null when the target is absent or hidden. */
export function toOne(type: string) {
  return z.object({ data: identifierOf(type).nullable() });
}

/** A to-many relationship to resources of `type`. */
export function toMany(type: string) {
  return z.object({ data: z.array(identifierOf(type)) });
}

/**
 * A resource of one JSON:API type, named `name` in the OpenAPI components. Relationships are all
 * optional: the serializer sets some, `include=` adds the followed ones.
 */
export function resourceOf<
  T extends string,
  A extends z.ZodType,
  R extends Record<string, z.ZodObject<{ data: z.ZodType }>>,
>(name: string, type: T, attributes: A, relationships?: R) {
  const shape = {
    type: z.literal(type),
    id: z.string(),
    attributes,
    ...(relationships ? { relationships: z.object(relationships).partial().optional() } : {}),
  };
  return z.object(shape).meta({ id: name });
}

type AnyResource = ReturnType<typeof resourceOf>;

const pageMeta = z.object({
  total: z.number().int(),
  /** Absent only where a write answers the lessons it changed (class-programs reset). */
  page: z.object({ number: z.number().int(), size: z.number().int() }).optional(),
});

function includedOf(included: readonly AnyResource[]) {
  const [first, ...rest] = included;
  if (!first) return {};
  const member = rest.length ? z.union([first, ...rest]) : first;
  return { included: z.array(member).optional() };
}

/*
 * The two builders below answer the typed schema, typed for TypeScript as the envelope it is
 * serialised through: handlers keep returning `Document<Resource>` as before, while serializers
 * check their attributes against the contract where they build them (`const attributes:
 * LessonAttributes = …`, types inferred from the same schemas) and the test suite checks
 * every answer against the typed schema.
 */

/** A collection document of `resource`, with the resources `include=` may add. */
export function collectionOf(
  resource: z.ZodType,
  included: readonly AnyResource[] = [],
): typeof collectionDocumentSchema {
  const typed = z.object({ data: z.array(resource), ...includedOf(included), meta: pageMeta });
  return documented(typed, collectionDocumentSchema) as unknown as typeof collectionDocumentSchema;
}

/** A single-resource document of `resource`, with the resources `include=` may add. */
export function documentOf(
  resource: z.ZodType,
  included: readonly AnyResource[] = [],
): typeof resourceDocumentSchema {
  const typed = z.object({ data: resource, ...includedOf(included) });
  return documented(typed, resourceDocumentSchema) as unknown as typeof resourceDocumentSchema;
}
