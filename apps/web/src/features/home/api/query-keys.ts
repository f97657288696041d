/** Query keys of the home screen, from one factory so invalidation can target the whole screen. */
export const homeKeys = {
  all: ['home'] as const,
  classUsers: (expired: boolean) => [...homeKeys.all, 'class-users', { expired }] as const,
  lessons: (userId: string) => [...homeKeys.all, 'lessons', userId] as const,
  competencies: (ids: readonly string[]) => [...homeKeys.all, 'competencies', [...ids].sort()] as const,
};
