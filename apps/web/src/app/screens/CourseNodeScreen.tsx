import { ComingSoon } from '../ComingSoon';

// Built by a later issue; until then the route exists and says so.
export function CourseNodeScreen() {
  return <ComingSoon />;
}
