import type { RouteEntry, RoutePath } from '@parcours/domain/routes';
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { TranslationKey } from '../lib/i18n';

/** A route of the table (packages/domain/src/routes.ts) with its title (app/routes.tsx). */
export interface RouteDef extends RouteEntry {
  path: RoutePath;
  /** Translation key of the route name, used in the page title. */
  titleKey: TranslationKey;
}

/** What a route's first reads are given: where to put them and for whom. */
export interface ReadsContext {
  client: QueryClient;
  userId: string;
  params: Record<string, string | undefined>;
  search: string;
  /** Drawn on the server (decision 0046): the page's reads travel in it. */
  server: boolean;
}

/** The route being shown, for screens that describe themselves (e.g. the "coming" pages). */
export const RouteMetaContext = createContext<RouteDef | null>(null);

export function useRouteMeta(): RouteDef | null {
  return useContext(RouteMetaContext);
}
