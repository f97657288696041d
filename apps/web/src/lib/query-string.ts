/**
 * The query strings of API calls, apart from api-client.ts so the inline start-up script of
 * index.html (app/early-start.ts) builds the very same URLs without the client's imports.
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** Query string that keeps JSON:API brackets readable: filter[role]=STUDENT&include=a.b */
export function buildQuery(params: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    const encodedKey = encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']');
    parts.push(`${encodedKey}=${encodeURIComponent(text).replace(/%2C/g, ',')}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The API's maximum page size: collections are read in pages of this many (api-collection.ts). */
export const COLLECTION_PAGE_SIZE = 100;

/** The query of a collection's page `page` (1-based). */
export const pageQuery = (page: number) => ({ 'page[number]': page, 'page[size]': COLLECTION_PAGE_SIZE });

/** What every API call accepts (JSON:API documents, or plain JSON errors). */
export const API_ACCEPT = 'application/vnd.api+json, application/json';
