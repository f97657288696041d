import { z } from 'zod';

/**
 * The learner's dashboard, files and notes, and a teacher's class view, as the API serves them
 * (JSON:API `attributes`; see tenant.ts).
 */

export const filesAttributesSchema = z.object({
  /** The MIME type; not `type`, which JSON:API forbids as an attribute name. */
  mimeType: z.string(),
  fileType: z.string(),
  name: z.string(),
  libraryId: z.string().nullable(),
  ownerId: z.string().nullable(),
  icon: z.string().nullable(),
  size: z.number(),
  /** The API path of the bytes, signed for the viewer (decision 0036). */
  download: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FileAttributes = z.infer<typeof filesAttributesSchema>;

/** docs/product.md §3 LogBookRecord, as the API serialises it. */
export const logBookRecordAttributesSchema = z.object({
  title: z.string(),
  message: z.string(),
  createdAt: z.string(),
  lastInputAt: z.string(),
  studentId: z.string(),
  userId: z.string(),
  attachmentIds: z.array(z.string()),
  parentId: z.string().nullable(),
  classId: z.string().nullable(),
  companyId: z.string().nullable(),
});
export type LogBookRecordAttributes = z.infer<typeof logBookRecordAttributesSchema>;

/** docs/product.md §3 Review. */
export const reviewAttributesSchema = z.object({
  classId: z.string().nullable(),
  comment: z.string().nullable(),
  resourceType: z.string(),
  resourceId: z.string(),
  ratio: z.number(),
  userId: z.string(),
  createdAt: z.string(),
});
export type ReviewAttributes = z.infer<typeof reviewAttributesSchema>;

/** docs/product.md §3 Record: a score snapshot. */
export const recordAttributesSchema = z.object({
  userId: z.string(),
  date: z.string(),
  scoring: z.object({ xp: z.number(), donePageCount: z.number(), timeAlive: z.number() }),
});
export type RecordAttributes = z.infer<typeof recordAttributesSchema>;

export const STATISTICS_PERIODS = ['1w', '1m', '3m', '6m', '1y'] as const;
export type StatisticsPeriod = (typeof STATISTICS_PERIODS)[number];
export const BUCKET_UNITS = ['day', 'week', 'month'] as const;
export type BucketUnit = (typeof BUCKET_UNITS)[number];

/** One bucket of `GET /api/statistics` (resource type `statistics`). */
export const statisticsBucketAttributesSchema = z.object({
  /** First local day of the bucket, 'YYYY-MM-DD'. */
  key: z.string(),
  unit: z.enum(BUCKET_UNITS),
  from: z.string(),
  to: z.string(),
  /** Activité: pages done (COMPLETED, not archived), dated by their answer. */
  pagesDone: z.number(),
  /** Temps: seconds spent on the pages answered in the bucket (archived attempts included). */
  timeSpent: z.number(),
  /** Points earned and at stake on the pages done in the bucket. */
  scoreActual: z.number(),
  scoreMax: z.number(),
  /** Progression: `progressionPercent(scoreActual, scoreMax)`. */
  progression: z.number().nullable(),
});
export type StatisticsBucketAttributes = z.infer<typeof statisticsBucketAttributesSchema>;

export const statisticsAttributesSchema = z.object({
  userId: z.string(),
  period: z.enum(STATISTICS_PERIODS),
  timeZone: z.string(),
  /** UTC bounds of the whole period. */
  from: z.string(),
  to: z.string(),
  /** 'grains': pages done over the period. */
  grains: z.number(),
  /** Seconds spent over the period. */
  timeSpent: z.number(),
  buckets: z.array(statisticsBucketAttributesSchema),
});
export type StatisticsAttributes = z.infer<typeof statisticsAttributesSchema>;

const MEDALS = ['bronze', 'silver', 'gold'] as const;

/** Attributes of a `competency-levels` resource (GET /api/competency-levels). */
export const competencyLevelAttributesSchema = z.object({
  competencyId: z.string(),
  parentId: z.string().nullable(),
  title: z.string(),
  icon: z.string().nullable(),
  order: z.number(),
  isGeneric: z.boolean(),
  depth: z.number(),
  actual: z.number(),
  max: z.number(),
  ratio: z.number(),
  medal: z.enum(MEDALS).nullable(),
  /** docs/product.md §4 medal colour (medalColor). */
  color: z.enum(['danger', 'warning', 'success']),
});
export type CompetencyLevelAttributes = z.infer<typeof competencyLevelAttributesSchema>;

/** Attributes of a `category-progress` resource (GET /api/category-progress). */
export const categoryProgressAttributesSchema = z.object({
  categoryId: z.string(),
  title: z.string(),
  icon: z.string().nullable(),
  /** The learner's started lessons in this category. */
  startedLessons: z.number(),
  actual: z.number(),
  max: z.number(),
  /** Out of 100 (categoryPercent). */
  percent: z.number(),
  /** The theme badge's level for percent / 100. */
  level: z.enum(['none', ...MEDALS, 'xp', 'certification', 'attestation']),
});
export type CategoryProgressAttributes = z.infer<typeof categoryProgressAttributesSchema>;

export const CERTIFICATION_WORDING_VALUES = ['certification', 'attestation'] as const;

/**
 * docs/product.md §3 Certification item: the attributes of a `certification-items` resource
 * (GET /api/certification-items, docs/api.md), built by the API and read by the certificates tab.
 */
export const certificationItemAttributesSchema = z.object({
  lessonId: z.string(),
  course: z.object({ id: z.string(), title: z.string(), reference: z.string().nullable() }),
  class: z.object({ id: z.string(), name: z.string() }),
  classProgram: z.object({
    id: z.string().nullable(),
    startAt: z.string().nullable(),
    expireAt: z.string().nullable(),
  }),
  /** 0..1 */
  scoreRatio: z.number(),
  /** Out of 1000 (CERTIFICATE_SCORE_SCALE). */
  score: z.number(),
  passingScore: z.number(),
  percentProgression: z.number(),
  ended: z.boolean(),
  endedAt: z.string().nullable(),
  certificationRef: z.string().nullable(),
  wording: z.enum(CERTIFICATION_WORDING_VALUES),
  certificateUrl: z.string().nullable(),
  credentialUrl: z.string().nullable(),
});
export type CertificationItemAttributes = z.infer<typeof certificationItemAttributesSchema>;

/** `time-accommodations` (decision 0019): a learner's extra time in a class. */
export const timeAccommodationAttributesSchema = z.object({
  classId: z.string(),
  userId: z.string(),
  timeFactor: z.number().nullable(),
  noTimeLimit: z.boolean(),
});
export type TimeAccommodationAttributes = z.infer<typeof timeAccommodationAttributesSchema>;

/** `class-user-data` (GET /api/classes/{id}/users/data): a learner of the class as its teacher sees them. */
export const classUserDataAttributesSchema = z.object({
  classId: z.string(),
  userId: z.string(),
  displayName: z.string(),
  email: z.string(),
  avatarId: z.string().nullable(),
  timeSpent: z.number(),
  courses: z.array(
    z.object({
      courseId: z.string(),
      courseTitle: z.string(),
      lessonId: z.string(),
      state: z.string(),
      percentProgression: z.number(),
      score: z.object({ actual: z.number(), max: z.number() }),
      scoreRatio: z.number(),
      timeSpent: z.number(),
      startedAt: z.string().nullable(),
    }),
  ),
  timeAccommodation: timeAccommodationAttributesSchema,
});
export type ClassUserDataAttributes = z.infer<typeof classUserDataAttributesSchema>;
