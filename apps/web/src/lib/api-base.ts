/**
 * docs/product.md §7: "The base path comes from the context's API host (a configurable base path is also
 * kept in local storage, with a default host; trailing slash handled)". In order:
 * 1. a base path stored on this device (`parcours.apiBasePath`: support, a proxy in front);
 * 2. the tenant's API host (`hosts.api`), when it is on the page's own origin — the API answers
 *    no cross-origin calls, so a host on another origin is ignored with a warning;
 * 3. the default, `/api` on the page's origin.
 * `contexts/current` itself is asked at the default (or stored) base: the tenant is not known yet.
 */
export const DEFAULT_API_BASE = '/api';
export const API_BASE_PATH_KEY = 'parcours.apiBasePath';

export function normaliseBase(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '/') return '';
  return trimmed.replace(/\/+$/, '');
}

export function storedApiBase(): string | null {
  try {
    const value = window.localStorage.getItem(API_BASE_PATH_KEY);
    return value ? normaliseBase(value) : null;
  } catch {
    return null;
  }
}

let tenantBase: string | null = null;

/** The base the tenant's `hosts.api` gives, kept as a path when it is on our origin. */
export function baseFromTenantHost(apiHost: string | null | undefined, pageOrigin: string): string | null {
  if (!apiHost) return null;
  let url: URL;
  try {
    url = new URL(apiHost, pageOrigin);
  } catch {
    return null;
  }
  if (url.origin !== pageOrigin) {
    console.warn(`The tenant's API host ${apiHost} is on another origin; calls stay on ${pageOrigin}.`);
    return null;
  }
  return normaliseBase(url.pathname);
}

export function setTenantApiHost(apiHost: string | null | undefined): void {
  tenantBase = typeof window === 'undefined' ? null : baseFromTenantHost(apiHost, window.location.origin);
}

export function apiBase(): string {
  return storedApiBase() ?? tenantBase ?? DEFAULT_API_BASE;
}
