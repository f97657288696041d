/**
 * The shapes the API serves and the web app reads: JSON:API `attributes` of each resource,
 * with the field names of docs/product.md §3. This file is the contract between apps/api and apps/web;
 * change it here first. Pure types and constants, no I/O.
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
/** Company roles that count for the company list and the "client" domain (docs/product.md §5). */
export const ALLOWED_COMPANY_ROLES = [
  'TEACHER',
  'ADMIN',
  'OWNER',
  'ORGANIZER',
  'CERTIFIER',
  'SUPERVISOR',
] as const;

export const CLASS_ROLES = ['STUDENT', 'TEACHER'] as const;
export type ClassRole = (typeof CLASS_ROLES)[number];

export const SYSTEM_ROLES = ['superadmin', 'admin'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

export type UserDomain = 'grains' | 'client' | 'public';

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

/** A legal text of the tenant (cgu = terms, rgpd = data protection). `content` is sanitised HTML. */
export interface LegalText {
  content: string;
  version: string;
  date: string; // YYYY-MM-DD
}

/** Tenant settings (docs/product.md §1, §6). Secrets (OIDC client secret) are never part of this. */
export interface ContextSettings {
  defaultLocale: Locale;
  login: {
    internal: boolean;
    /** Present when the tenant signs in through its OpenID provider. */
    oidc: { label: string } | null;
  };
  invitationCodes: { enabled: boolean; simplePassword: boolean };
  certification: { allowed: boolean; type: 'certification' | 'attestation' };
  allowContactTeacher: boolean;
  profile: {
    fields: { firstname: boolean; lastname: boolean; email: boolean; username: boolean; birthday: boolean };
  };
  requiredDatas: boolean;
  emailNotifications: boolean;
  demoVideoUrl: string | null;
  legal: { cgu: LegalText | null; rgpd: LegalText | null };
  /** Dashboard badges (content `settings.badges`): how far back the XP change looks. */
  badges?: { xpPeriodDays: number };
}

export interface ContextHosts {
  api?: string;
  app?: string;
  player?: string;
  backoffice?: string;
  certification?: string;
  frontoffice?: string;
  lrs?: string;
}

export interface ContextAssets {
  /** URLs served by the API (files/{id}/download) or absolute paths under the web root. */
  logo: string | null;
  favicon: string | null;
  colors: { primary: string; secondary: string; accent?: string; text?: string; background?: string };
  splashScreens: Partial<Record<(typeof SPLASH_SIZES)[number], string>>;
  touchIcons: Partial<Record<(typeof TOUCH_ICON_SIZES)[number], string>>;
}

export interface ContextAttributes {
  alias: string;
  name: string;
  description: string | null;
  hosts: ContextHosts;
  assets: ContextAssets;
  metas: Record<string, string>;
  settings: ContextSettings;
  isGeneric: boolean;
}

export interface UserProfile {
  id: string;
  username: string | null;
  firstname: string | null;
  lastname: string | null;
  displayName: string;
  avatarId: string | null;
  email: string;
  birthday: string | null;
  legal: { cguAcceptedVersion: string | null; cguAcceptedAt: string | null };
  supportGroups: string[];
  scoring: Record<string, unknown>;
  contributionLevel: number;
  donePageCount: { global: number };
  timeAlive: { global: number };
  isFromInvitationCode: boolean;
  tincanIdentifier: string | null;
  roles: SystemRole[];
  permissions: string[];
  companies: { id: string; name: string; role: CompanyRole }[];
  createdAt: string;
  domain: UserDomain;
  preferredLocale: Locale | null;
  contextId: string;
  /** True when required profile data or acceptance of the current terms is missing (docs/product.md §5). */
  needsRequiredDatas: boolean;
}

/** GET /api/users/me */
export interface MeResponse {
  _id: string;
  profile: UserProfile;
}

/** POST /api/users/login */
export interface LoginResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number; // seconds
  user_id: string;
}

export interface ClassAttributes {
  name: string;
  startAt: string | null;
  expireAt: string | null;
  settings: { mobile?: { allowed?: boolean } } & Record<string, unknown>;
  createdAt: string;
}

export interface ClassUserAttributes {
  classId: string;
  userId: string;
  role: ClassRole;
  createdAt: string;
}

export interface OpeningBoundaries {
  from?: string | null;
  to?: string | null;
}

export interface ClassProgramAttributes {
  classId: string;
  programId: string;
  order: number;
  startAt: string | null;
  expireAt: string | null;
  openingBoundaries: OpeningBoundaries;
}

export interface ProgramAttributes {
  name: string;
  description: string | null;
  icon: string | null;
  public: boolean;
  settings: Record<string, unknown>;
  tags: string[];
  state: PublicationState;
}

export interface ProgramCourseAttributes {
  programId: string;
  courseId: string;
  order: number;
  settings: Record<string, unknown>;
}

export interface CourseAttributes {
  title: string;
  description: string | null;
  reference: string | null;
  state: PublicationState;
  categoryId: string;
  typeId: string | null;
  competencyIds: string[];
  video: string | null;
  settings: { credit?: number } & Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface CourseCategoryAttributes {
  title: string;
  icon: string | null;
  backgroundImageId: string | null;
}

export interface CourseCompetencyAttributes {
  parentId: string | null;
  isGeneric: boolean;
  title: string;
  icon: string | null;
  order: number;
}

export interface Scoring {
  global: { actual: number; max: number };
}

/** One entry of a lesson's tree: a section (container node) and the progress of its pages. */
export interface LessonTreeNode {
  nodeId: string;
  title: string | null;
  order: number;
  pages: { nodeId: string; progress: PageProgress | null }[];
}

export interface LessonActions {
  interactive: { label: string; choices: { response: string; action: { target: string } }[] }[];
  unlockedLessons: { id: string; title: string }[];
}

export interface LessonAttributes {
  userId: string;
  classId: string;
  classProgramId: string | null;
  classStepProgramId: string | null;
  courseId: string;
  programCourseId: string | null;
  contextId: string;
  currentNodeId: string | null;
  enabledSectionIds: string[];
  timeLimit: number | null;
  timeSpent: number;
  timeAlive: number;
  state: LessonState;
  progress: PageProgress | null;
  certificationRef: string | null;
  isEndOfProgram: boolean;
  /** Sections in order with their pages' progress (docs/product.md §4 progression formula input). */
  tree: LessonTreeNode[];
  /** Server-computed progression percent 0..100 from `tree` (same rule as domain/progress). */
  percentProgression: number;
  /**
   * docs/product.md §3 `sortedTree`: the lesson's pages in reading order (sections by order, then pages by
   * order), each with its section, position and progress: what the player walks through.
   */
  sortedTree?:
    { nodeId: string; sectionId: string; index: number; progress: PageProgress | null }[] | undefined;
  actions: LessonActions;
  scoring: Scoring;
  startAt: string | null;
  startedAt: string | null;
  createdAt: string;
}

/** JSON:API document helpers (docs/architecture.md §4). */
export interface ResourceIdentifier<T extends string = string> {
  type: T;
  id: string;
}
export interface Resource<
  T extends string = string,
  A = Record<string, unknown>,
> extends ResourceIdentifier<T> {
  attributes: A;
  relationships?: Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>;
}
export interface Document<D> {
  data: D;
  included?: Resource[];
  meta?: { total?: number; page?: { number: number; size: number } } & Record<string, unknown>;
}

export interface ApiErrorObject {
  status: string;
  code: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}
export interface ApiErrorDocument {
  errors: ApiErrorObject[];
}

// ---------------------------------------------------------------------------------------------
// Lesson player (issue 3). The page a learner sees; see docs/api.md "Lesson player".

export interface HintsView {
  /** Messages of the hints already unlocked, in order. */
  messages: string[];
  remaining: number;
  /** Cost in points of the next hint, null when none remains or it is free. */
  nextMalus: number | null;
}

/** A row as the learner sees it before answering: no expected answer, no answer feedback. */
export interface PublicRowView {
  type: RowType;
  title?: string | null;
  message?: string | null;
  order?: number;
  choices?: { value?: string | null; appFile?: { id: string } | null; [k: string]: unknown }[];
  targets?: { value?: string | null; [k: string]: unknown }[];
  settings?: Record<string, unknown>;
  [k: string]: unknown;
}

/** The e-learning packages a tincan block may play (issue 31, docs/content-format.md "Packages"). */
export const PACKAGE_KINDS = ['scorm12', 'scorm2004', 'cmi5', 'xapi'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

/**
 * A package page's `block.content.package` (docs/api.md "Packages"): what the player shows and
 * needs to launch it. `launch` is the page's launch (the same as `tincanLaunch`), null once the
 * page is answered, for staff, and outside a page document; the launch itself is asked with
 * `POST /api/packages/launches`.
 */
export interface PackageView {
  kind: PackageKind;
  title: string;
  /** The frame's size in CSS pixels when the content says so, else null (the player decides). */
  width: number | null;
  height: number | null;
  launch: string | null;
  /**
   * A cmi5 course's AUs in order (issue 39): the player lists them, each launched by its place;
   * `ownWindow`: the AU asks for a window of its own (launchMethod OwnWindow). Empty otherwise.
   */
  units?: PackageUnit[];
}

export interface PackageUnit {
  title: string;
  ownWindow: boolean;
}

/** A spot of an interactive image: a zone (as a clickable image's) and the HTML it reveals. */
export type InteractiveImageSpot = { label: string; html: string } & (
  | { shape: 'circle'; cx: number; cy: number; r: number }
  | { shape: 'rectangle'; x: number; y: number; width: number; height: number }
  | { shape: 'polygon'; points: string }
);

export interface InteractiveImageView {
  appFile: { id: string; url?: string; name?: string; type?: string };
  alt: string;
  /** `0 0 808 h` (docs/product.md §9: 808 wide). */
  viewBox: string;
  spots: InteractiveImageSpot[];
}

export interface BlockView {
  id: string;
  title: string;
  type: BlockType;
  settings: {
    template?: { backToDashBoard?: boolean; hideNextButton?: boolean; hideMainTitle?: boolean };
    /** Number of hints the block has (their messages come through `hints`). */
    hintCount: number;
    [k: string]: unknown;
  };
  content: {
    statement?: { html: string; settings?: Record<string, unknown> } | null;
    sections: { title?: string | null; rows: PublicRowView[] }[];
    tincan?: { url: string } | null;
    /** A tincan block playing an imported package (SCORM, cmi5, xAPI) instead of a module URL. */
    package?: PackageView | null;
    /** The block's own table, under its statement (SPEC §3 CourseBlock content.table). */
    table?: { caption: string | null; head: string[]; rows: string[][] } | null;
    /** The block's own picture with spots to explore (SPEC §3 content.interactiveImage, decision 0052). */
    interactiveImage?: InteractiveImageView | null;
    /** A parametrised block (decision 0042): the value names its statement and rows show as `{{name}}`. */
    datasetNames?: string[];
    [k: string]: unknown;
  };
  terms: { id: string; title: string; words: string[]; definition: string }[];
}

export interface NodeView {
  id: string;
  type: NodeType;
  title: string | null;
  parentId: string | null;
  settings: { timeLimit?: number | null; [k: string]: unknown };
  tools: { calculator?: boolean; [k: string]: unknown };
  attachmentIds: string[];
}

export interface PageResults {
  /** One entry per row in reading order; null for rows that are not exercises. */
  answerRatios: (number | null)[];
  outcome: 'correct' | 'partial' | 'incorrect' | null;
  score: { actual: number; max: number };
  feedbacks: { source: 'general' | 'answer'; preset: string; message: string; rowIndex: number | null }[];
  /** Per-row correction detail: only present once answered; expected answers only once no retry can be graded. */
  correction: unknown[];
  hints: HintsView;
  retryAllowed: boolean;
  /** True when the page's time ran out before an answer arrived: recorded with score 0. */
  skipped?: boolean;
  /** A learning module's own score (`POST …/pages/custom-tincan-score`), as a fraction 0..1. */
  tincan?: { scaled: number };
  /** A retry of the page can still be graded: the correction tells right/wrong, not the expected answers (decision 0009). */
  keyWithheld?: boolean;
  /**
   * docs/product.md §3 LessonPage `results.sections`: per section of the block, in order, its exercise rows'
   * mean answer ratio (null for a section without exercises). Derived when the page is served.
   */
  sections?: { title: string | null; ratio: number | null }[];
}

export interface LessonPageAttributes {
  lessonId: string;
  nodeId: string;
  /** Position of this page in the lesson (0-based) and the number of pages. */
  index: number;
  count: number;
  state: 'ACTIVE' | 'ARCHIVED';
  progress: PageProgress | null;
  node: NodeView;
  /** Null for container-level pages (multiblock chooser): see `children`. */
  block: BlockView | null;
  /** Multiblock: its child blocks, each chosen by its numbered title. */
  children: { nodeId: string; title: string | null; done: boolean }[];
  hints: HintsView;
  /** The learner's recorded answers (one per row in reading order), null before answering. */
  inputs: { answers: unknown[] } | null;
  /** Null until the learner's answer is recorded; then what feedback and correction need. */
  results: PageResults | null;
  timeLimit: number | null;
  /** Seconds left on the server's clock, null without a limit or before the timed page starts. */
  remainingSeconds: number | null;
  /** For timed pages: when the learner confirmed the start (server time), else null. */
  startedAt: string | null;
  timeSpent: number;
  /** docs/product.md §3 LessonPage `timeAlive`: seconds the page was open and alive (keep-alive pings). */
  timeAlive?: number | undefined;
  answeredAt: string | null;
  lessonScoring: Scoring;
  courseTypeSettings: { hints: boolean; feedbacks: boolean; retry: boolean };
  /** The container node (section) the page belongs to. */
  sectionId: string | null;
  /** 1 for the first answer, +1 for each retry (earlier attempts are ARCHIVED). */
  attempt: number;
  /** True for the lesson's current page, the furthest one reached (never moves back). */
  current: boolean;
  /** The lesson's own time limit (seconds, from its first opening) and what is left of it. */
  lessonTimeLimit: number | null;
  lessonRemainingSeconds: number | null;
  /**
   * An unanswered learning-module page: the launch the server issued to this learner for this
   * page; the score is accepted only with it, once (decision 0009). Null on any other page.
   */
  tincanLaunch: string | null;
  /**
   * docs/product.md §3 `sheet.datasetComputed`: a parametrised exercise's values for this learner (drawn once
   * with the page), the ones its statement and rows name as `{{name}}`; every value once the
   * answer's key is shown. Empty for other pages.
   */
  sheet?: { datasetComputed: Record<string, number> } | undefined;
}
