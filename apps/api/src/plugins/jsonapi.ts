import { z } from 'zod';
import type { Document, Resource, ResourceIdentifier } from '@parcours/domain/entities';

/**
 * JSON:API 1.1 building blocks (docs/architecture.md §4): a query-string schema per resource built from
 * its allow-lists (so unknown filters, sorts and includes are a 400, never silently ignored),
 * the parsed query, include resolution with de-duplicated `included`, and document builders.
 */

export type { Resource, ResourceIdentifier };

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface QuerySpec {
  /** Allowed `filter[name]` keys, each with the schema of its raw value. */
  filters?: Record<string, z.ZodType<string>>;
  sorts?: readonly string[];
  includes?: readonly string[];
  /** Collections accept `page[number]`/`page[size]`; single resources do not. */
  paginated?: boolean;
}

export interface SortField {
  field: string;
  desc: boolean;
}

export interface JsonApiQuery {
  /** Comma lists are split: a filter matches any of its values. */
  filters: Record<string, string[]>;
  sort: SortField[];
  /** Include paths, with the intermediate paths of deep ones added. */
  include: string[];
  page: { number: number; size: number };
}

function listChecker(allowed: readonly string[], what: string, strip: (token: string) => string) {
  return (value: string, ctx: z.RefinementCtx) => {
    for (const token of value.split(',')) {
      if (!allowed.includes(strip(token))) {
        ctx.addIssue({
          code: 'custom',
          message: allowed.length
            ? `Unknown ${what} "${token}". Allowed: ${allowed.join(', ')}.`
            : `This resource has no ${what}.`,
        });
      }
    }
  };
}

/** The strict query-string schema of a resource (documented in OpenAPI, enforced by Fastify). */
export function jsonApiQuerySchema(spec: QuerySpec, extra: z.ZodRawShape = {}) {
  const shape: Record<string, z.ZodType> = {
    // Cache busters that the web client may append (docs/product.md §7 "noCache timestamp", forced refresh).
    noCache: z.string().optional(),
    ...extra,
  };
  for (const [name, schema] of Object.entries(spec.filters ?? {})) {
    shape[`filter[${name}]`] = schema.optional();
  }
  if (spec.sorts?.length) {
    shape.sort = z
      .string()
      .superRefine(listChecker(spec.sorts, 'sort', (t) => t.replace(/^-/, '')))
      .optional();
  }
  if (spec.includes?.length) {
    shape.include = z
      .string()
      .superRefine(listChecker(spec.includes, 'include', (t) => t))
      .optional();
  }
  if (spec.paginated) {
    shape['page[number]'] = z.coerce.number().int().min(1).optional();
    shape['page[size]'] = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional();
  }
  return z.strictObject(shape);
}

/** Non-empty filter value; comma lists allowed. */
export const filterValue = z.string().min(1);

/**
 * docs/product.md §7 names a few relationships by a name JSON:API forbids (`type`): the spec's name is
 * accepted in `include` where the resource's allow-list has it, and read as the API's name.
 * docs/api.md "Spec names" lists every renamed field.
 */
export const INCLUDE_ALIASES: Readonly<Record<string, string>> = { type: 'courseType' };

export function expandIncludes(paths: string[]): string[] {
  const all = new Set<string>();
  for (const path of paths) {
    const parts = path.split('.');
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('.'));
  }
  return [...all];
}

/** The values of one `filter[name]` (comma-separated, trimmed, none empty), or undefined. */
export function filterValues(query: Record<string, unknown>, name: string): string[] | undefined {
  const value = query[`filter[${name}]`];
  return typeof value === 'string' ? splitFilter(value) : undefined;
}

function splitFilter(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Reads a query already validated by `jsonApiQuerySchema`. */
export function parseJsonApiQuery(query: Record<string, unknown>): JsonApiQuery {
  const filters: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    const m = /^filter\[(.+)\]$/.exec(key);
    if (m?.[1] && typeof value === 'string') filters[m[1]] = splitFilter(value);
  }
  const sortText = typeof query.sort === 'string' ? query.sort : '';
  const sort = sortText
    .split(',')
    .filter((t) => t !== '')
    .map((t) => ({ field: t.replace(/^-/, ''), desc: t.startsWith('-') }));
  const includeText = typeof query.include === 'string' ? query.include : '';
  const include = expandIncludes(
    includeText
      .split(',')
      .filter((t) => t !== '')
      .map((t) =>
        t
          .split('.')
          .map((part) => INCLUDE_ALIASES[part] ?? part)
          .join('.'),
      ),
  );
  const number = typeof query['page[number]'] === 'number' ? query['page[number]'] : 1;
  const size = typeof query['page[size]'] === 'number' ? query['page[size]'] : DEFAULT_PAGE_SIZE;
  return { filters, sort, include, page: { number, size } };
}

export function identifier(resource: Resource): ResourceIdentifier {
  return { type: resource.type, id: resource.id };
}

/** How a relationship of a resource type loads its targets for a batch of parents. */
export interface Relation<S> {
  many: boolean;
  /** One query for all parents (no N+1); returns targets by parent id. */
  load(scope: S, parents: Resource[]): Promise<Map<string, Resource[]>>;
}
/** By resource type, then by relationship name. */
export type Relations<S> = Record<string, Record<string, Relation<S>>>;

type IncludeTree = Map<string, IncludeTree>;

function includeTree(paths: string[]): IncludeTree {
  const root: IncludeTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const part of path.split('.')) {
      let next = node.get(part);
      if (!next) {
        next = new Map();
        node.set(part, next);
      }
      node = next;
    }
  }
  return root;
}

/**
 * Loads the requested include paths level by level, sets relationship linkage on the parents
 * and returns `included` without duplicates (nor resources already in primary data).
 */
export async function resolveIncludes<S>(
  scope: S,
  relations: Relations<S>,
  primary: Resource[],
  include: string[],
): Promise<Resource[]> {
  const seen = new Map<string, Resource>();
  const included: Resource[] = [];
  const key = (r: Resource) => `${r.type}\u0000${r.id}`;
  for (const r of primary) seen.set(key(r), r);
  // The same resource reached by two paths must be one object, so its relationships add up.
  const intern = (r: Resource): Resource => {
    const existing = seen.get(key(r));
    if (existing) return existing;
    seen.set(key(r), r);
    included.push(r);
    return r;
  };

  const walk = async (parents: Resource[], tree: IncludeTree): Promise<void> => {
    for (const [name, subtree] of tree) {
      const byType = new Map<string, Resource[]>();
      for (const p of parents) byType.set(p.type, [...(byType.get(p.type) ?? []), p]);
      const children = new Map<string, Resource>();
      for (const [type, group] of byType) {
        const relation = relations[type]?.[name];
        // The query allow-lists only name existing relations; reaching this is a programming error.
        if (!relation) throw new Error(`No relation ${type}.${name}`);
        const targets = await relation.load(scope, group);
        for (const parent of group) {
          const found = (targets.get(parent.id) ?? []).map(intern);
          for (const f of found) children.set(key(f), f);
          parent.relationships = {
            ...parent.relationships,
            [name]: { data: relation.many ? found.map(identifier) : found[0] ? identifier(found[0]) : null },
          };
        }
      }
      if (subtree.size > 0 && children.size > 0) await walk([...children.values()], subtree);
    }
  };
  if (primary.length > 0) await walk(primary, includeTree(include));
  return included;
}

export function collectionDocument(
  data: Resource[],
  included: Resource[],
  total: number,
  page: { number: number; size: number },
): Document<Resource[]> {
  return { data, ...(included.length ? { included } : {}), meta: { total, page } };
}

export function resourceDocument(data: Resource, included: Resource[]): Document<Resource> {
  return { data, ...(included.length ? { included } : {}) };
}

/** OpenAPI/serialisation schemas of JSON:API documents (attributes are typed in entities.ts). */
const identifierSchema = z.object({ type: z.string(), id: z.string() });
export const resourceSchema = z.object({
  type: z.string(),
  id: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: z
    .record(z.string(), z.object({ data: z.union([identifierSchema, z.array(identifierSchema), z.null()]) }))
    .optional(),
});
const metaSchema = z
  .object({ total: z.number().int(), page: z.object({ number: z.number().int(), size: z.number().int() }) })
  .partial()
  .optional();
export const collectionDocumentSchema = z.object({
  data: z.array(resourceSchema),
  included: z.array(resourceSchema).optional(),
  meta: metaSchema,
});
export const resourceDocumentSchema = z.object({
  data: resourceSchema,
  included: z.array(resourceSchema).optional(),
  meta: metaSchema,
});

/** Applies offset pagination values. */
export function offsetOf(page: { number: number; size: number }): number {
  return (page.number - 1) * page.size;
}
