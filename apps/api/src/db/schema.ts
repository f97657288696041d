import type { Generated } from 'kysely';

/**
 * Row types as Kysely sees them (camelCase through CamelCasePlugin). JSON columns hold
 * serialised text: read them with `parseJson` / write them with `JSON.stringify` in
 * repositories. Flags are 0/1 integers. Timestamps are UTC ISO strings.
 */
type Json = string;
type Flag = number;

export interface ContextsTable {
  id: string;
  alias: string;
  name: string;
  description: string | null;
  hosts: Json;
  assets: Json;
  metas: Json;
  settings: Json;
  isGeneric: Generated<Flag>;
  createdAt: string;
  updatedAt: string;
}
export interface ContextHostnamesTable {
  hostname: string;
  contextId: string;
}
export interface LibrariesTable {
  id: string;
  contextId: string;
  ownerId: string | null;
  ownerType: string | null;
  createdAt: string;
}
export interface FilesTable {
  id: string;
  contextId: string;
  libraryId: string | null;
  ownerId: string | null;
  name: string;
  type: string;
  fileType: string;
  icon: string | null;
  size: Generated<number>;
  storagePath: string;
  sha256: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface UsersTable {
  id: string;
  contextId: string;
  username: string | null;
  email: string;
  firstname: string | null;
  lastname: string | null;
  avatarId: string | null;
  birthday: string | null;
  legal: Generated<Json>;
  supportGroups: Generated<Json>;
  scoring: Generated<Json>;
  contributionLevel: Generated<number>;
  passwordHash: string | null;
  donePageCount: Generated<number>;
  timeAlive: Generated<number>;
  isFromInvitationCode: Generated<Flag>;
  tincanIdentifier: string | null;
  preferredLocale: string | null;
  oidcSubject: string | null;
  tokensValidAfter: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface RolesTable {
  id: string;
  name: string;
  description: string | null;
}
export interface RoleUsersTable {
  id: string;
  roleId: string;
  principalType: string;
  principalId: string;
  scopeId: string | null;
}
export interface CompaniesTable {
  id: string;
  contextId: string;
  name: string;
  avatarId: string | null;
  createdAt: string;
}
export interface CompanyUsersTable {
  id: string;
  companyId: string;
  userId: string;
  role: string;
}
export interface CourseTypesTable {
  id: string;
  contextId: string;
  title: string;
  description: string | null;
  settings: Generated<Json>;
}
export interface CourseCategoriesTable {
  id: string;
  contextId: string;
  title: string;
  icon: string | null;
  backgroundImageId: string | null;
}
export interface CourseCompetenciesTable {
  id: string;
  contextId: string;
  parentId: string | null;
  isGeneric: Generated<Flag>;
  title: string;
  icon: string | null;
  order: Generated<number>;
}
export interface CoursesTable {
  id: string;
  contextId: string;
  title: string;
  description: string | null;
  reference: string | null;
  state: string;
  categoryId: string;
  typeId: string | null;
  competencyIds: Generated<Json>;
  video: string | null;
  settings: Generated<Json>;
  createdAt: string;
  updatedAt: string;
}
export interface CourseTermsTable {
  id: string;
  contextId: string;
  title: string;
  words: Json;
  definition: string;
}
export interface CourseBlocksTable {
  id: string;
  contextId: string;
  title: string;
  type: string;
  categoryId: string | null;
  competencyId: string | null;
  attachmentIds: Generated<Json>;
  settings: Generated<Json>;
  content: Generated<Json>;
  solution: Generated<Json>;
  createdAt: string;
  updatedAt: string;
}
export interface CourseBlockTermsTable {
  blockId: string;
  termId: string;
}
export interface CourseNodesTable {
  id: string;
  courseId: string;
  parentId: string | null;
  type: string;
  blockId: string | null;
  order: Generated<number>;
  title: string | null;
  settings: Generated<Json>;
  tools: Generated<Json>;
  conditions: Generated<Json>;
  attachmentIds: Generated<Json>;
}
export interface ProgramsTable {
  id: string;
  contextId: string;
  name: string;
  description: string | null;
  icon: string | null;
  public: Generated<Flag>;
  settings: Generated<Json>;
  tags: Generated<Json>;
  state: string;
  createdAt: string;
  updatedAt: string;
}
export interface ProgramCoursesTable {
  id: string;
  programId: string;
  courseId: string;
  order: Generated<number>;
  settings: Generated<Json>;
}
export interface ClassesTable {
  id: string;
  contextId: string;
  companyId: string | null;
  name: string;
  startAt: string | null;
  expireAt: string | null;
  settings: Generated<Json>;
  createdAt: string;
  updatedAt: string;
}
export interface ClassUsersTable {
  id: string;
  classId: string;
  userId: string;
  role: string;
  createdAt: string;
  /** Decision 0019: multiplies the learner's time limits in this class; null = ×1. */
  timeFactor: number | null;
  /** Decision 0019: 1 = no time limit at all for the learner in this class. */
  noTimeLimit: Generated<Flag>;
}
export interface ClassProgramsTable {
  id: string;
  classId: string;
  programId: string;
  order: Generated<number>;
  startAt: string | null;
  expireAt: string | null;
  openingBoundaries: Generated<Json>;
  settings: Generated<Json>;
}
export interface ClassStepsTable {
  id: string;
  classProgramId: string;
  resourceId: string;
  order: Generated<number>;
}
export interface LessonsTable {
  id: string;
  contextId: string;
  userId: string;
  classId: string;
  classProgramId: string | null;
  classStepProgramId: string | null;
  courseId: string;
  programCourseId: string | null;
  currentNodeId: string | null;
  enabledSectionIds: Generated<Json>;
  timeLimit: number | null;
  timeSpent: Generated<number>;
  timeAlive: Generated<number>;
  state: string;
  progress: string | null;
  certificationRef: string | null;
  isEndOfProgram: Generated<Flag>;
  scoring: Generated<Json>;
  actions: Generated<Json>;
  startAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface LessonPagesTable {
  id: string;
  lessonId: string;
  nodeId: string;
  sectionId: string | null;
  attempt: Generated<number>;
  position: Generated<number>;
  state: Generated<string>;
  progress: string | null;
  inputs: Generated<Json>;
  results: Generated<Json>;
  sheet: Generated<Json>;
  hintsUsed: Generated<number>;
  scoreActual: Generated<number>;
  scoreMax: Generated<number>;
  timeSpent: Generated<number>;
  timeAlive: Generated<number>;
  timeLimit: number | null;
  openedAt: string | null;
  answeredAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Timed pages: when the learner confirmed the start (0003). */
  startedAt: string | null;
  /** Last keep-alive or opening, from which the next ping measures time (0003). */
  lastSeenAt: string | null;
  /** A multiblock child's page: the multiblock's node id, one active choice per lesson (0008). */
  choiceOf: string | null;
  /** A learning-module page: the launch issued when it was served; its score needs it (0008). */
  launchToken: string | null;
}
export interface ReviewsTable {
  id: string;
  contextId: string;
  userId: string;
  classId: string | null;
  resourceType: string;
  resourceId: string;
  ratio: number;
  comment: string | null;
  createdAt: string;
}
export interface LogBookRecordsTable {
  id: string;
  contextId: string;
  title: string;
  message: Generated<string>;
  studentId: string;
  userId: string;
  parentId: string | null;
  classId: string | null;
  companyId: string | null;
  attachmentIds: Generated<Json>;
  createdAt: string;
  lastInputAt: string;
}
export interface RecordsTable {
  id: string;
  contextId: string;
  userId: string;
  date: string;
  scoring: Generated<Json>;
}
export interface InvitationCodesTable {
  code: string;
  contextId: string;
  classIds: Generated<Json>;
  maxUses: number | null;
  uses: Generated<number>;
  expireAt: string | null;
  createdAt: string;
}
export interface PasswordResetsTable {
  tokenHash: string;
  userId: string;
  expireAt: string;
  usedAt: string | null;
  createdAt: string;
}
/** What a learner, a launch or a tenant used of a quota in a period (0021, modules/quotas). */
export interface QuotaUsageTable {
  contextId: string;
  subject: string;
  kind: string;
  period: string;
  amount: number | string;
  updatedAt: string;
}
/** Random secrets of the installation (0009), e.g. the salt of content file ids. */
export interface InstallationSecretsTable {
  name: string;
  value: string;
  createdAt: string;
}
export interface LoginAttemptsTable {
  key: string;
  count: Generated<number>;
  windowStart: string;
}
/** Per-tenant credential signing keys (0004); `privateJwk` is sealed, never sent. */
export interface SigningKeysTable {
  id: string;
  contextId: string;
  alg: string;
  publicJwk: Json;
  privateJwk: string;
  createdAt: string;
  retiredAt: string | null;
  /** `vc-jwt` (ES256 or legacy EdDSA) or `data-integrity` (Ed25519, eddsa-rdfc-2022), 0027. */
  purpose: Generated<string>;
}
/** Delivered certificates (0004): random public id, snapshot of what the document shows. */
export interface CertificatesTable {
  id: string;
  contextId: string;
  lessonId: string;
  userId: string;
  issuedFor: string;
  snapshot: Json;
  createdAt: string;
  revokedAt: string | null;
  /** The credential as signed once (0023). */
  credentialJwt: Generated<string | null>;
  /** Its entry in the tenant's revocation status list (0023). */
  statusIndex: Generated<number | null>;
  /** The credential with its embedded Data Integrity proof, signed once (0027). */
  credentialLd: Generated<string | null>;
}

/** Learning record store (issue 14, migration 0010). */
export interface XapiStatementsTable {
  contextId: string;
  id: string;
  userId: string | null;
  actorKey: string;
  verbId: string;
  activityId: string | null;
  refId: string | null;
  registration: string | null;
  voiding: Generated<Flag>;
  voided: Generated<Flag>;
  stored: string;
  body: Json;
  /** The credentials that stored it (0022); null before. */
  credentialKey: Generated<string | null>;
}
/** LRS clients with scopes (issue 28, migration 0022). */
export interface XapiClientsTable {
  key: string;
  contextId: string;
  name: string;
  /** JSON array of xAPI scopes. */
  scopes: Json;
  secretHash: string;
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
}
/** State, Activity Profile and Agent Profile documents (0023). */
export interface XapiDocumentsTable {
  contextId: string;
  kind: string;
  activityId: string;
  agentKey: string;
  registration: string;
  docId: string;
  contentType: string;
  content: string;
  etag: string;
  updated: string;
}
export interface XapiStatementAgentsTable {
  contextId: string;
  agentKey: string;
  statementId: string;
  direct: Flag;
}
export interface XapiStatementActivitiesTable {
  contextId: string;
  activityId: string;
  statementId: string;
  direct: Flag;
}
export interface XapiAttachmentsTable {
  contextId: string;
  sha2: string;
  contentType: string;
  content: string;
}
export interface XapiActivitiesTable {
  contextId: string;
  id: string;
  definition: Json;
}
export interface XapiCredentialsTable {
  key: string;
  contextId: string;
  userId: string;
  lessonId: string;
  pageId: string;
  registration: string;
  secretHash: string;
  expiresAt: string;
  createdAt: string;
}
export interface XapiOutboxTable {
  contextId: string;
  statementId: string;
  attempts: Generated<number>;
  nextAttemptAt: string;
  deliveredAt: string | null;
  lastError: string | null;
  createdAt: string;
  /** The other store refused it for good (0022). */
  refusedAt: Generated<string | null>;
}

/** A launch of a package page (issue 31, migration 0024). */
export interface PackageLaunchesTable {
  key: string;
  contextId: string;
  userId: string;
  lessonId: string;
  pageId: string;
  blockId: string;
  packageId: string;
  kind: string;
  secretHash: string;
  appOrigin: string;
  registration: string;
  sessionId: string;
  fetchHash: string | null;
  fetchedAt: string | null;
  xapiKey: string | null;
  timeBase: Generated<number>;
  lastSequence: Generated<number>;
  statements: Generated<number>;
  terminatedAt: string | null;
  finishedAt: string | null;
  abandonedAt: string | null;
  createdAt: string;
  expiresAt: string;
  /** cmi5: the AU's place in cmi5.xml (0029). */
  auIndex: Generated<number>;
  /** cmi5: Normal, Browse or Review (0029). */
  launchMode: Generated<string>;
  /** cmi5: what the session said so far, JSON (0029). */
  sessionState: string | null;
}
/** A SCORM page's cmi data (issue 31, migration 0024). */
export interface PackageRuntimeTable {
  pageId: string;
  contextId: string;
  userId: string;
  lessonId: string;
  attempt: number;
  kind: string;
  cmi: Json;
  totalSeconds: Generated<number>;
  launchKey: string;
  createdAt: string;
  updatedAt: string;
}

/** Version stamps of what the home's reads show, kept by triggers (0014, decision 0015). */
export interface HomeVersionsTable {
  key: string;
  /** bigint: a string on PostgreSQL, a number on SQLite. */
  version: number | string;
}
/** Sessions ended by a sign-out, by the tokens' `sid` (0026, decision 0057). */
export interface EndedSessionsTable {
  id: string;
  userId: string;
  expiresAt: string;
}
export interface Database {
  homeVersions: HomeVersionsTable;
  contexts: ContextsTable;
  contextHostnames: ContextHostnamesTable;
  libraries: LibrariesTable;
  files: FilesTable;
  users: UsersTable;
  endedSessions: EndedSessionsTable;
  roles: RolesTable;
  roleUsers: RoleUsersTable;
  companies: CompaniesTable;
  companyUsers: CompanyUsersTable;
  courseTypes: CourseTypesTable;
  courseCategories: CourseCategoriesTable;
  courseCompetencies: CourseCompetenciesTable;
  courses: CoursesTable;
  courseTerms: CourseTermsTable;
  courseBlocks: CourseBlocksTable;
  courseBlockTerms: CourseBlockTermsTable;
  courseNodes: CourseNodesTable;
  programs: ProgramsTable;
  programCourses: ProgramCoursesTable;
  classes: ClassesTable;
  classUsers: ClassUsersTable;
  classPrograms: ClassProgramsTable;
  classSteps: ClassStepsTable;
  lessons: LessonsTable;
  lessonPages: LessonPagesTable;
  reviews: ReviewsTable;
  logBookRecords: LogBookRecordsTable;
  records: RecordsTable;
  invitationCodes: InvitationCodesTable;
  passwordResets: PasswordResetsTable;
  loginAttempts: LoginAttemptsTable;
  installationSecrets: InstallationSecretsTable;
  signingKeys: SigningKeysTable;
  certificates: CertificatesTable;
  xapiStatements: XapiStatementsTable;
  xapiCredentials: XapiCredentialsTable;
  xapiOutbox: XapiOutboxTable;
  quotaUsage: QuotaUsageTable;
  xapiClients: XapiClientsTable;
  xapiDocuments: XapiDocumentsTable;
  xapiActivities: XapiActivitiesTable;
  xapiAttachments: XapiAttachmentsTable;
  xapiStatementAgents: XapiStatementAgentsTable;
  xapiStatementActivities: XapiStatementActivitiesTable;
  packageLaunches: PackageLaunchesTable;
  packageRuntime: PackageRuntimeTable;
}

/** Reads a JSON text column; a corrupt value yields the fallback rather than a 500. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
