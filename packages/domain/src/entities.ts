/**
 * The shapes the API serves and the web app reads: JSON:API `attributes` of each resource,
 * with the field names of docs/product.md §3. This file is the contract between apps/api and apps/web;
 * change it here first. Pure types and constants, no I/O.
 */

import type { CompanyRole, Locale, SystemRole } from './contract/enums';

// The closed lists and the resources' attributes are the contract's schemas (contract/*.ts): their
// types are inferred from the same Zod schemas the API documents its answers with (/api/docs).
export {
  AU_STATUSES,
  BLOCK_TYPES,
  CLASS_ROLES,
  COMPANY_ROLES,
  EXERCISE_TYPES,
  LESSON_STATES,
  LOCALES,
  NODE_TYPES,
  PACKAGE_KINDS,
  PAGE_PROGRESS,
  PUBLICATION_STATES,
  ROW_TYPES,
  SPLASH_SIZES,
  SYSTEM_ROLES,
  TOUCH_ICON_SIZES,
} from './contract/enums';
export type {
  AuStatus,
  BlockType,
  ClassRole,
  CompanyRole,
  ExerciseType,
  LessonState,
  Locale,
  NodeType,
  PackageKind,
  PageProgress,
  PublicationState,
  RowType,
  SystemRole,
} from './contract/enums';
export type {
  ContextAssets,
  ContextAttributes,
  ContextHosts,
  ContextSettings,
  LegalText,
} from './contract/tenant';
export type {
  ClassAttributes,
  ClassProgramAttributes,
  ClassUserAttributes,
  CourseAttributes,
  CourseCategoryAttributes,
  CourseCompetencyAttributes,
  OpeningBoundaries,
  ProgramAttributes,
  ProgramCourseAttributes,
} from './contract/catalogue';
export type { LessonActions, LessonAttributes, LessonTreeNode, Scoring } from './contract/lessons';
export type {
  BlockView,
  HintsView,
  InteractiveImageSpot,
  InteractiveImageView,
  LessonPageAttributes,
  NodeView,
  PackageUnit,
  PackageView,
  PageResults,
  PublicRowView,
} from './contract/player';

/** Company roles that count for the company list and the "client" domain (docs/product.md §5). */
export const ALLOWED_COMPANY_ROLES = [
  'TEACHER',
  'ADMIN',
  'OWNER',
  'ORGANIZER',
  'CERTIFIER',
  'SUPERVISOR',
] as const;

export type UserDomain = 'grains' | 'client' | 'public';

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
