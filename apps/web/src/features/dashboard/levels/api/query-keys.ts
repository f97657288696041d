/** Query keys of the dashboard's Levels and Jobs tabs and of the XP badge (one factory). */
export const levelKeys = {
  all: ['dashboard-levels'] as const,
  competencies: () => [...levelKeys.all, 'competency-levels'] as const,
  categories: () => [...levelKeys.all, 'category-progress'] as const,
  xp: (userId: string, before: string) => [...levelKeys.all, 'xp', userId, before] as const,
};
