/**
 * GET users/me/data-export (issue 29, docs/api.md "Identity and account"): all of the signed-in
 * user's data as one JSON document, saved as a file by the browser.
 */
import { apiFetch } from '../../../lib/api-client';

export function fetchDataExport(): Promise<unknown> {
  return apiFetch<unknown>('users/me/data-export');
}

/** Hands `data` to the browser as a JSON file named `name`. */
export function saveJsonFile(data: unknown, name: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
