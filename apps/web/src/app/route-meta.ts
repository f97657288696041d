import { createContext, useContext } from 'react';
import type { RouteDef } from './routes';

/** The route being shown, for screens that describe themselves (e.g. the "coming" pages). */
export const RouteMetaContext = createContext<RouteDef | null>(null);

export function useRouteMeta(): RouteDef | null {
  return useContext(RouteMetaContext);
}
