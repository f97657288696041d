/**
 * POST files (multipart): one attachment. Not through apiFetch, which sends JSON; the browser
 * sets the multipart boundary itself when the body is FormData.
 */
import type { UploadedFileAttributes } from '@parcours/domain/logbook';
import type { Document, Resource } from '@parcours/domain/entities';
import { apiBase } from '../../../../lib/api-base';
import { ApiError } from '../../../../lib/api-client';
import { getToken } from '../../../../lib/storage';
import type { Attachment } from './get-log-book-records';

export async function uploadFile(file: File, signal?: AbortSignal): Promise<Attachment> {
  const body = new FormData();
  body.append('file', file, file.name);
  const token = getToken();
  const response = await fetch(`${apiBase()}/files`, {
    method: 'POST',
    headers: {
      Accept: 'application/vnd.api+json, application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body,
    signal,
  });
  const text = await response.text();
  let payload: unknown = undefined;
  try {
    payload = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    payload = text;
  }
  if (!response.ok) throw new ApiError(response.status, payload, 'files');
  const doc = payload as Document<Resource<'files', UploadedFileAttributes>>;
  return { ...doc.data.attributes, id: doc.data.id };
}
