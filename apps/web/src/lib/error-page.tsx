import { Navigate, useNavigate } from 'react-router';
import { ApiError } from './api-client';

/**
 * docs/product.md §2 "an unknown-route helper pushes /{code}, default 404": the one way every
 * screen reaches an error screen. The codes with a screen of their own (routes.ts) are 404 and 403.
 */
export type ErrorPageCode = 404 | 403;

export function errorPagePath(code: ErrorPageCode | number | string = 404): string {
  return `/${code}`;
}

/** The error screen a failed read leads to: 404 for what is not found, 403 for what is refused; else none. */
export function errorPageOf(error: unknown): ErrorPageCode | null {
  if (!(error instanceof ApiError)) return null;
  return error.status === 404 ? 404 : error.status === 403 ? 403 : null;
}

/** Pushes `/{code}` (the browser's Back returns to the screen that failed). */
export function useErrorPage(): (code?: ErrorPageCode) => void {
  const navigate = useNavigate();
  return (code = 404) => void navigate(errorPagePath(code));
}

/** A screen that is an error from the start (an unknown path, a refused one): replaced by `/{code}`. */
export function ErrorPageRedirect({ code = 404 }: { code?: ErrorPageCode }) {
  return <Navigate to={errorPagePath(code)} replace />;
}
