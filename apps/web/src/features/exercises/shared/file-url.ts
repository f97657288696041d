/**
 * Where a content file is downloaded: the URL the API gave with the file, signed for the learner
 * (docs/api.md "Files"); a URL built from the id works only for public tenant branding.
 */
export function fileUrl(file: { id: string; url?: unknown } | null | undefined): string | null {
  if (!file) return null;
  return typeof file.url === 'string' && file.url
    ? file.url
    : `/api/files/${encodeURIComponent(file.id)}/download`;
}
