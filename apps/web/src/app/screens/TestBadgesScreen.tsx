import { TestBadgesPage } from '../../features/dashboard/test-badges/TestBadgesPage';

/** /test-badges: the internal badge test page (docs/product.md §2). */
export function TestBadgesScreen() {
  return <TestBadgesPage />;
}
