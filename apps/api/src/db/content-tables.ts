/**
 * The tables of the content (courses, their blocks, nodes and terms, programs), written by the
 * content import and the authoring tools, never by a learner and naming nobody: both the write
 * budget (modules/quotas/tables.ts) and the register of a learner's data
 * (modules/privacy/register.ts) classify every table, and name these the same way.
 */
export const CONTENT_TABLES = [
  'course_types',
  'course_categories',
  'course_competencies',
  'courses',
  'course_terms',
  'course_blocks',
  'course_block_terms',
  'course_nodes',
  'programs',
  'program_courses',
] as const;

/** `{ table: reason }` for each content table. */
export const contentTables = (reason: string): Record<string, string> =>
  Object.fromEntries(CONTENT_TABLES.map((table) => [table, reason]));
