/**
 * POST users/contact with fileIds (docs/api.md "Documentation by e-mail"): the files are sent to
 * the learner's own address. 204.
 */
import type { DocumentationRequestInput } from '@parcours/domain/schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export function requestDocumentation(body: DocumentationRequestInput): Promise<void> {
  return apiFetch<void>('users/contact', { method: 'POST', body });
}

export function useRequestDocumentation() {
  return useMutation({ mutationFn: requestDocumentation });
}
