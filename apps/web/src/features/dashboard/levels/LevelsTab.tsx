/** The dashboard's levels tab (issue 9). Rendered by the dashboard shell inside its tab panel. */
export function LevelsTab() {
  return null;
}
