import { DashboardPage } from '../../features/dashboard/components/DashboardPage';

/** /niveaux, /metiers, /statistiques, /validations, /logbook: one shell, the tab from the path. */
export function DashboardScreen() {
  return <DashboardPage />;
}
