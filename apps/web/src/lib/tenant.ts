/**
 * The tenant context (docs/product.md §1), loaded once before start. Kept in local storage too, so the app
 * still starts with its branding offline and so logout can keep it (docs/product.md §4).
 */
import type { ContextAttributes, Document, Resource } from '@parcours/domain/entities';
import { useSyncExternalStore } from 'react';
import { apiFetch } from './api-client';
import { setTenantApiHost } from './api-base';
import { applyBranding } from './branding';
import { requestScope, useRequestScope } from './request-scope';
import { getStoredContext, setStoredContext } from './storage';

export type Tenant = Resource<'contexts', ContextAttributes>;

let tenant: Tenant | null = null;
const listeners = new Set<() => void>();

export function getTenant(): Tenant | null {
  const scope = requestScope();
  return scope ? scope.tenant : tenant;
}

export function setTenant(next: Tenant | null): void {
  tenant = next;
  setTenantApiHost(next?.attributes.hosts?.api);
  if (next && typeof document !== 'undefined') applyBranding(next.attributes.assets, next.attributes.name);
  listeners.forEach((listener) => listener());
}

function storedTenant(): Tenant | null {
  const raw = getStoredContext();
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Tenant;
    return parsed?.attributes?.name ? parsed : null;
  } catch {
    return null;
  }
}

export async function loadTenant(): Promise<Tenant | null> {
  try {
    const doc = await apiFetch<Document<Tenant>>('contexts/current');
    setStoredContext(JSON.stringify(doc.data));
    setTenant(doc.data);
  } catch (error) {
    // Offline or API down: the last known context keeps the branding; the screens still work.
    console.warn('Context could not be loaded', error);
    setTenant(storedTenant());
  }
  return tenant;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTenant(): Tenant | null {
  const scope = useRequestScope();
  const current = useSyncExternalStore(subscribe, getTenant, getTenant);
  return scope ? scope.tenant : current;
}
