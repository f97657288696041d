/** Reading JSON:API documents: resolve relationships through the `included` array. */
import type { Document, Resource, ResourceIdentifier } from '@parcours/domain/entities';

/** Any resource, whatever its attributes: the helpers only look at type, id and relationships. */
export type AnyResource = Resource<string, unknown>;
export type ResourceIndex = Map<string, AnyResource>;

const keyOf = (id: ResourceIdentifier): string => `${id.type}:${id.id}`;

/** Every resource of a document (primary data and included) by type and id. */
export function indexDocument(doc: Document<AnyResource | AnyResource[] | null>): ResourceIndex {
  const index: ResourceIndex = new Map();
  const primary: AnyResource[] = doc.data === null ? [] : Array.isArray(doc.data) ? doc.data : [doc.data];
  for (const resource of [...primary, ...(doc.included ?? [])]) index.set(keyOf(resource), resource);
  return index;
}

function identifiers(resource: AnyResource, name: string): ResourceIdentifier[] {
  const data = resource.relationships?.[name]?.data;
  if (!data) return [];
  return Array.isArray(data) ? data : [data];
}

/** The resource a to-one relationship points to, when it was included. */
export function relatedOne<A>(
  resource: AnyResource,
  name: string,
  index: ResourceIndex,
): Resource<string, A> | null {
  const [first] = identifiers(resource, name);
  return first ? ((index.get(keyOf(first)) as Resource<string, A> | undefined) ?? null) : null;
}

/** The included resources of a to-many relationship, in the relationship's order. */
export function relatedMany<A>(
  resource: AnyResource,
  name: string,
  index: ResourceIndex,
): Resource<string, A>[] {
  return identifiers(resource, name)
    .map((id) => index.get(keyOf(id)) as Resource<string, A> | undefined)
    .filter((r): r is Resource<string, A> => r !== undefined);
}
