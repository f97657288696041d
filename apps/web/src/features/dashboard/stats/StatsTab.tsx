/** The dashboard's stats tab (issue 9). Rendered by the dashboard shell inside its tab panel. */
export function StatsTab() {
  return null;
}
