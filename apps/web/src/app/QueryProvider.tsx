import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, use, type ReactNode } from 'react';
import { queryClient, ServerQueryClientContext } from '../lib/query-client';

// The first screen fills the cache before rendering (app/first-screen.ts): same chunk, no request.
export { queryClient };

// TanStack Query's devtools in development only: `import.meta.env.DEV` is false in a production
// build, so Rollup drops the import and no chunk of it ships (decision 0035). Not in unit tests.
const Devtools =
  import.meta.env.DEV && import.meta.env.MODE !== 'test'
    ? lazy(() => import('@tanstack/react-query-devtools').then((m) => ({ default: m.ReactQueryDevtools })))
    : null;

export function QueryProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={use(ServerQueryClientContext) ?? queryClient}>
      {children}
      {Devtools ? (
        <Suspense fallback={null}>
          <Devtools buttonPosition="bottom-left" />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}
