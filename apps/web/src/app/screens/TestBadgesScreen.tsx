import { TestBadgesPage } from '../../features/dashboard/test-badges/TestBadgesPage';

/** /test-badges: the internal badge test page (SPEC §2). */
export function TestBadgesScreen() {
  return <TestBadgesPage />;
}
