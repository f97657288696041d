import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { homeKeys } from './query-keys';

/** POST class-programs/{id}/reset/me (SPEC §7): the learner's lessons of it start again. */
export function resetProgram(classProgramId: string): Promise<unknown> {
  return apiFetch(`class-programs/${encodeURIComponent(classProgramId)}/reset/me`, { method: 'POST' });
}

/** Restarts, then reloads the home: lessons, states and progress all changed on the server. */
export function useResetProgram() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resetProgram,
    onSuccess: () => client.invalidateQueries({ queryKey: homeKeys.all }),
  });
}
