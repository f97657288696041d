/** Query keys of the end-of-lesson and evaluation screens, from one factory. */
export const progressionKeys = {
  all: ['progression'] as const,
  lesson: (lessonId: string) => [...progressionKeys.all, 'lesson', lessonId] as const,
  review: (programId: string, userId: string) =>
    [...progressionKeys.all, 'review', programId, userId] as const,
  programClass: (programId: string) => [...progressionKeys.all, 'program-class', programId] as const,
};
