import type { Document, Resource } from '@parcours/domain/entities';
import { apiFetch } from './api-client';
import { COLLECTION_PAGE_SIZE as PAGE_SIZE, pageQuery, type QueryValue } from './query-string';

const MAX_PAGES = 20; // a learner with more than 2,000 rows of one kind is a data problem, not a UI one

/**
 * Every page of a JSON:API collection merged into one document (data in order, included
 * de-duplicated). Screens like the home need whole lists to filter and paginate locally.
 */
export async function fetchCollection<A>(
  path: string,
  query: Record<string, QueryValue>,
  signal?: AbortSignal,
): Promise<Document<Resource<string, A>[]>> {
  const data: Resource<string, A>[] = [];
  const included = new Map<string, Resource>();
  let total = Infinity;
  for (let page = 1; page <= MAX_PAGES && data.length < total; page++) {
    const doc = await apiFetch<Document<Resource<string, A>[]>>(path, {
      query: { ...query, ...pageQuery(page) },
      signal,
    });
    data.push(...doc.data);
    for (const resource of doc.included ?? []) included.set(`${resource.type}:${resource.id}`, resource);
    total = doc.meta?.total ?? data.length;
    if (doc.data.length < PAGE_SIZE) break;
  }
  return { data, included: [...included.values()], meta: { total: data.length } };
}
