import { useMutation } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../../lib/api-client';
import { getToken } from '../../../../lib/storage';

/**
 * The PDF; the Open Badges credential as OB 3.0's VC-JWT (a compact JWS, `text/plain`, `.jwt`);
 * or the same credential with its embedded proof (`application/vc+ld+json`, `.json`), the file a
 * wallet such as the Learner Credential Wallet imports (decision 0058).
 */
export type DocumentKind = 'pdf' | 'credential' | 'wallet';

const ACCEPT: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  credential: 'text/plain',
  wallet: 'application/vc+ld+json',
};
const EXTENSION: Record<DocumentKind, string> = { pdf: 'pdf', credential: 'jwt', wallet: 'json' };
// Long enough for any browser to have started reading the blob before it is released.
const REVOKE_AFTER_MS = 60_000;

function fileNameOf(disposition: string | null, fallback: string): string {
  const m = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return m?.[1] ?? fallback;
}

/**
 * The certificate of the lesson is awarded first (a POST, decision 0065: stored with its signed
 * credential once; again, it changes nothing), so the document's GET only reads.
 */
export function awardCertificate(lessonId: string): Promise<unknown> {
  return apiFetch<unknown>(`lessons/${encodeURIComponent(lessonId)}/certificate`, { method: 'POST' });
}

/**
 * Downloads a certificate document. The API wants the bearer token in a header, so the file
 * is fetched here and handed to the browser as a blob link: the token never appears in a URL
 * (server logs, history, referrers).
 */
export async function downloadDocument(
  url: string,
  kind: DocumentKind,
  baseName: string,
  lessonId: string,
): Promise<void> {
  await awardCertificate(lessonId);
  const token = getToken();
  const response = await fetch(url, {
    headers: { Accept: ACCEPT[kind], ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // not JSON: keep the text
    }
    throw new ApiError(response.status, body, url);
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileNameOf(response.headers.get('content-disposition'), `${baseName}.${EXTENSION[kind]}`);
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), REVOKE_AFTER_MS);
}

export function useDownloadDocument() {
  return useMutation({
    mutationFn: (v: { url: string; kind: DocumentKind; baseName: string; lessonId: string }) =>
      downloadDocument(v.url, v.kind, v.baseName, v.lessonId),
  });
}
