/**
 * What the server hands a route's loader when it draws a page (decision 0046, 0060): the
 * request's own query cache and learner, as the static handler's `requestContext`. In the browser
 * the loader's context is React Router's own (no `draw` field): the loader then works for the
 * browser's one learner.
 */
import type { MeResponse } from '@parcours/domain/entities';
import type { QueryClient } from '@tanstack/react-query';

export interface DrawContext {
  queryClient: QueryClient;
  me: MeResponse;
}

const DRAW = Symbol.for('parcours.draw');

export function drawRequestContext(draw: DrawContext): { [DRAW]: DrawContext } {
  return { [DRAW]: draw };
}

export function drawContext(context: unknown): DrawContext | null {
  return (context as { [DRAW]?: DrawContext } | null | undefined)?.[DRAW] ?? null;
}
