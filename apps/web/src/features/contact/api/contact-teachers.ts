/** POST users/contact to the teachers of a class (docs/api.md): 204, one mail per teacher. */
import type { ContactInput } from '@parcours/domain/schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export interface ContactTeachersBody {
  classId: string;
  subject?: string;
  message: string;
}

export function contactTeachers(body: ContactTeachersBody): Promise<void> {
  return apiFetch<void>('users/contact', { method: 'POST', body });
}

export function useContactTeachers(classId: string) {
  return useMutation({
    mutationFn: ({ subject, message }: Pick<ContactInput, 'subject' | 'message'>) =>
      contactTeachers({ classId, message, ...(subject ? { subject } : {}) }),
  });
}
