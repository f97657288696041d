/** Query keys of the logbook tab, from one factory so a write can refresh the whole tab. */
export const logbookKeys = {
  all: ['logbook'] as const,
  notes: (studentId: string) => [...logbookKeys.all, 'notes', studentId] as const,
};
