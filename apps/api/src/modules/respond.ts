import type { Document } from '@parcours/domain/entities';
import type { JsonApiQuery, Resource } from '../plugins/jsonapi';
import { collectionDocument, resolveIncludes, resourceDocument } from '../plugins/jsonapi';
import { relations } from './relations';
import type { Scope } from './scope';

/** A page of primary data plus the requested includes, as a JSON:API collection document. */
export async function collection(
  scope: Scope,
  q: JsonApiQuery,
  data: Resource[],
  total: number,
): Promise<Document<Resource[]>> {
  const included = await resolveIncludes(scope, relations, data, q.include);
  return collectionDocument(data, included, total, q.page);
}

export async function single(scope: Scope, q: JsonApiQuery, data: Resource): Promise<Document<Resource>> {
  const included = await resolveIncludes(scope, relations, [data], q.include);
  return resourceDocument(data, included);
}
