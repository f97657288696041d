/** Where a content file is downloaded (public within the tenant, docs/api.md "Files"). */
export function fileUrl(file: { id: string; url?: unknown } | null | undefined): string | null {
  if (!file) return null;
  return typeof file.url === 'string' && file.url ? file.url : `/api/files/${encodeURIComponent(file.id)}/download`;
}
