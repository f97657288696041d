/**
 * The request a page is drawn for on the server (decisions 0046, 0060): its tenant, learner,
 * language and in-process fetch. In the browser there is one learner, kept in module state
 * (lib/tenant.ts, lib/session.ts, lib/i18n.ts); on the server many pages are drawn at once, so
 * each one's state travels with it instead: in React context for what the screens read through
 * hooks, and, for the plain calls (`t()`, `getSession()`, `apiFetch`), through the reader the
 * server installs (an AsyncLocalStorage per request: prerender/request-scope.ts). Never set in a
 * browser, where both are absent and the module state answers.
 */
import type { Locale } from '@parcours/domain/entities';
import { createContext, useContext } from 'react';
import type { SessionState } from './session';
import type { Tenant } from './tenant';

export interface RequestScope {
  tenant: Tenant | null;
  session: SessionState;
  lang: Locale;
  /** The API's routes, in-process, with this learner's token (GET only); absent for the sign-in page. */
  fetch?: typeof fetch;
}

let read: (() => RequestScope | undefined) | null = null;

/** The server's reader of the request being drawn (an AsyncLocalStorage's store). */
export function setRequestScopeReader(reader: (() => RequestScope | undefined) | null): void {
  read = reader;
}

/** The request being drawn on the server, if any. */
export function requestScope(): RequestScope | undefined {
  return read?.();
}

export const RequestScopeContext = createContext<RequestScope | null>(null);

/** The drawn request, for a hook (null in the browser). */
export function useRequestScope(): RequestScope | null {
  return useContext(RequestScopeContext);
}
