/** The dashboard's logbook tab (issue 9). Rendered by the dashboard shell inside its tab panel. */
export function LogbookTab() {
  return null;
}
