/** Query keys of the player, from one factory so leaving the player can drop them all. */
export const playerKeys = {
  all: ['player'] as const,
  /** The page a player route shows: the lesson's current page, or the one named in the route. */
  page: (lessonId: string, pageId: string | null) =>
    [...playerKeys.all, 'page', lessonId, pageId ?? 'current'] as const,
  /** The mutation key of every write the player makes to a lesson (answers, hints, moves). */
  writes: (lessonId: string) => [...playerKeys.all, 'writes', lessonId] as const,
  /** A tincan module's score, recorded in the writes' order but not one of them (use-tincan-score.ts). */
  score: (lessonId: string) => [...playerKeys.all, 'score', lessonId] as const,
  lesson: (lessonId: string) => [...playerKeys.all, 'lesson', lessonId] as const,
  resources: (pageId: string, lessonId: string) =>
    [...playerKeys.all, 'resources', pageId, lessonId] as const,
  node: (nodeId: string) => [...playerKeys.all, 'node', nodeId] as const,
  siblings: (parentId: string) => [...playerKeys.all, 'siblings', parentId] as const,
  block: (blockId: string) => [...playerKeys.all, 'block', blockId] as const,
};
