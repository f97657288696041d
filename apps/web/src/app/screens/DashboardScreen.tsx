import { DashboardPage } from '../../features/dashboard/components/DashboardPage';
import { XpBadge } from '../../features/dashboard/xp/XpBadge';

/** /niveaux, /metiers, /statistiques, /validations, /logbook: one shell, the tab from the path. */
export function DashboardScreen() {
  return <DashboardPage aside={<XpBadge />} />;
}
