/**
 * The closed lists of values the API contract names (attribute enums). They live here, under the
 * contract's schemas, so entities.ts re-exports them and no file of the domain imports back.
 */
export const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const LESSON_STATES = ['LOCKED', 'AVAILABLE', 'HIDDEN', 'DONE', 'SKIPPED', 'EXPIRED'] as const;
export type LessonState = (typeof LESSON_STATES)[number];

export const PAGE_PROGRESS = ['ONGOING', 'COMPLETED'] as const;
export type PageProgress = (typeof PAGE_PROGRESS)[number];

export const PUBLICATION_STATES = ['DRAFT', 'PUBLISHED', 'CLOSED'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

export const BLOCK_TYPES = ['slide', 'exercice', 'tincan'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const NODE_TYPES = ['root', 'container', 'multiblock', 'block'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const EXERCISE_TYPES = [
  'multiple-choice',
  'combined-choice',
  'free-answer',
  'drag-n-drop',
  'pick-words',
  'image-cliquable',
] as const;
export type ExerciseType = (typeof EXERCISE_TYPES)[number];

export const ROW_TYPES = [
  ...EXERCISE_TYPES,
  'media-internal',
  'media-tincan',
  'wysiwyg',
  'wysiwyg-table',
  'video-external',
  'medias-by-mail',
  'widgets',
] as const;
export type RowType = (typeof ROW_TYPES)[number];

export const COMPANY_ROLES = [
  'OWNER',
  'ADMIN',
  'ORGANIZER',
  'TEACHER',
  'STUDENT',
  'CERTIFIER',
  'SUPERVISOR',
] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export const CLASS_ROLES = ['STUDENT', 'TEACHER'] as const;
export type ClassRole = (typeof CLASS_ROLES)[number];

export const SYSTEM_ROLES = ['superadmin', 'admin'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

export const SPLASH_SIZES = [
  '640x1136',
  '750x1334',
  '1242x2208',
  '1125x2436',
  '828x1792',
  '1242x2688',
  '1536x2048',
  '1668x2224',
  '1668x2388',
  '2048x2732',
] as const;
export const TOUCH_ICON_SIZES = ['192x192', '512x512'] as const;

/** The e-learning packages a tincan block may play (issue 31, docs/content-format.md "Packages"). */
export const PACKAGE_KINDS = ['scorm12', 'scorm2004', 'cmi5', 'xapi'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];
/**
 * A cmi5 AU's state in the learner's registration, as the player lists it (decision 0071):
 * `satisfied` once its moveOn is met; before that what it recorded (passed, failed, completed),
 * `inProgress` once launched; `waived` by a teacher or an operator.
 */
export const AU_STATUSES = [
  'notAttempted',
  'inProgress',
  'completed',
  'passed',
  'failed',
  'satisfied',
  'waived',
] as const;
export type AuStatus = (typeof AU_STATUSES)[number];
