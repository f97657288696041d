/** The dashboard's jobs tab (issue 9). Rendered by the dashboard shell inside its tab panel. */
export function JobsTab() {
  return null;
}
