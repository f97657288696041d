/** The dashboard's certificates tab (issue 9). Rendered by the dashboard shell inside its tab panel. */
export function CertificatesTab() {
  return null;
}
