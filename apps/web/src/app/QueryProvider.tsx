import { QueryClientProvider } from '../lib/query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client';

// The first screen fills the cache before rendering (app/first-screen.ts): same chunk, no request.
export { queryClient };

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
