import { z } from 'zod';
import { AU_STATUSES, BLOCK_TYPES, NODE_TYPES, PACKAGE_KINDS, PAGE_PROGRESS, ROW_TYPES } from './enums';
import { scoringSchema } from './lessons';

/**
 * Lesson player (issue 3): the page a learner sees, as the API serves it (docs/api.md "Lesson
 * player"; see tenant.ts). Parts authored freely in the content (a row's own fields, settings)
 * are open objects: their known fields are typed, the rest passes as authored.
 */

/** A file the content names (content/blocks.ts `appFile`): the player links it by `url`. */
export const appFileSchema = z.object({
  id: z.string(),
  url: z.string().optional(),
  name: z.string().optional(),
  /** The MIME type, as authored. */
  type: z.string().optional(),
  fileType: z.string().optional(),
});
export type AppFile = z.infer<typeof appFileSchema>;

export const hintsViewSchema = z.object({
  /** Messages of the hints already unlocked, in order. */
  messages: z.array(z.string()),
  remaining: z.number(),
  /** Cost in points of the next hint, null when none remains or it is free. */
  nextMalus: z.number().nullable(),
});
export type HintsView = z.infer<typeof hintsViewSchema>;

/** A row as the learner sees it before answering: no expected answer, no answer feedback. */
export const publicRowViewSchema = z.looseObject({
  type: z.enum(ROW_TYPES),
  title: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  order: z.number().optional(),
  choices: z
    .array(
      z.looseObject({
        value: z.string().nullable().optional(),
        appFile: appFileSchema.nullable().optional(),
      }),
    )
    .optional(),
  targets: z.array(z.looseObject({ value: z.string().nullable().optional() })).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});
export type PublicRowView = z.infer<typeof publicRowViewSchema>;

/**
 * A package page's `block.content.package` (docs/api.md "Packages"): what the player shows and
 * needs to launch it. `launch` is the page's launch (the same as `tincanLaunch`), null once the
 * page is answered, for staff, and outside a page document; the launch itself is asked with
 * `POST /api/packages/launches`.
 */
export const packageViewSchema = z.object({
  kind: z.enum(PACKAGE_KINDS),
  title: z.string(),
  /** The frame's size in CSS pixels when the content says so, else null (the player decides). */
  width: z.number().nullable(),
  height: z.number().nullable(),
  launch: z.string().nullable(),
  /**
   * A cmi5 course's AUs in order (issue 39): the player lists them, each launched by its place;
   * `ownWindow`: the AU asks for a window of its own (launchMethod OwnWindow). Empty otherwise.
   * `status` (decision 0071): the AU's state in the page's registration, in a page document only
   * (absent when the course's settings cannot be read); it says nothing of any expected answer.
   */
  units: z
    .array(z.object({ title: z.string(), ownWindow: z.boolean(), status: z.enum(AU_STATUSES).optional() }))
    .optional(),
});
export type PackageView = z.infer<typeof packageViewSchema>;
export type PackageUnit = NonNullable<PackageView['units']>[number];

/** A spot of an interactive image: a zone (as a clickable image's) and the HTML it reveals. */
const spotText = { label: z.string(), html: z.string() };
export const interactiveImageSpotSchema = z.discriminatedUnion('shape', [
  z.object({ ...spotText, shape: z.literal('circle'), cx: z.number(), cy: z.number(), r: z.number() }),
  z.object({
    ...spotText,
    shape: z.literal('rectangle'),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
  }),
  z.object({ ...spotText, shape: z.literal('polygon'), points: z.string() }),
]);
export type InteractiveImageSpot = z.infer<typeof interactiveImageSpotSchema>;

export const interactiveImageViewSchema = z.object({
  appFile: appFileSchema,
  alt: z.string(),
  /** `0 0 808 h` (docs/product.md §9: 808 wide). */
  viewBox: z.string(),
  spots: z.array(interactiveImageSpotSchema),
});
export type InteractiveImageView = z.infer<typeof interactiveImageViewSchema>;

export const blockViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(BLOCK_TYPES),
  settings: z.looseObject({
    template: z
      .object({
        backToDashBoard: z.boolean().optional(),
        hideNextButton: z.boolean().optional(),
        hideMainTitle: z.boolean().optional(),
      })
      .optional(),
    /** Number of hints the block has (their messages come through `hints`). */
    hintCount: z.number(),
  }),
  content: z.looseObject({
    statement: z
      .object({ html: z.string(), settings: z.record(z.string(), z.unknown()).optional() })
      .nullable()
      .optional(),
    sections: z.array(
      z.object({ title: z.string().nullable().optional(), rows: z.array(publicRowViewSchema) }),
    ),
    tincan: z.object({ url: z.string() }).nullable().optional(),
    /** A tincan block playing an imported package (SCORM, cmi5, xAPI) instead of a module URL. */
    package: packageViewSchema.nullable().optional(),
    /** The block's own table, under its statement (SPEC §3 CourseBlock content.table). */
    table: z
      .object({
        caption: z.string().nullable(),
        head: z.array(z.string()),
        rows: z.array(z.array(z.string())),
      })
      .nullable()
      .optional(),
    /** The block's own picture with spots to explore (SPEC §3 content.interactiveImage, decision 0052). */
    interactiveImage: interactiveImageViewSchema.nullable().optional(),
    /** A parametrised block (decision 0042): the value names its statement and rows show as `{{name}}`. */
    datasetNames: z.array(z.string()).optional(),
  }),
  terms: z.array(
    z.object({ id: z.string(), title: z.string(), words: z.array(z.string()), definition: z.string() }),
  ),
});
export type BlockView = z.infer<typeof blockViewSchema>;

export const nodeViewSchema = z.object({
  id: z.string(),
  type: z.enum(NODE_TYPES),
  title: z.string().nullable(),
  parentId: z.string().nullable(),
  settings: z.looseObject({ timeLimit: z.number().nullable().optional() }),
  tools: z.looseObject({ calculator: z.boolean().optional() }),
  attachmentIds: z.array(z.string()),
});
export type NodeView = z.infer<typeof nodeViewSchema>;

export const pageResultsSchema = z.object({
  /** One entry per row in reading order; null for rows that are not exercises. */
  answerRatios: z.array(z.number().nullable()),
  outcome: z.enum(['correct', 'partial', 'incorrect']).nullable(),
  score: z.object({ actual: z.number(), max: z.number() }),
  feedbacks: z.array(
    z.object({
      source: z.enum(['general', 'answer']),
      preset: z.string(),
      message: z.string(),
      rowIndex: z.number().nullable(),
    }),
  ),
  /** Per-row correction detail: only present once answered; expected answers only once no retry can be graded. */
  correction: z.array(z.unknown()),
  hints: hintsViewSchema,
  retryAllowed: z.boolean(),
  /** True when the page's time ran out before an answer arrived: recorded with score 0. */
  skipped: z.boolean().optional(),
  /** A learning module's own score (`POST …/pages/custom-tincan-score`), as a fraction 0..1. */
  tincan: z.object({ scaled: z.number() }).optional(),
  /** A retry of the page can still be graded: the correction tells right/wrong, not the expected answers (decision 0009). */
  keyWithheld: z.boolean().optional(),
  /**
   * docs/product.md §3 LessonPage `results.sections`: per section of the block, in order, its exercise rows'
   * mean answer ratio (null for a section without exercises). Derived when the page is served.
   */
  sections: z.array(z.object({ title: z.string().nullable(), ratio: z.number().nullable() })).optional(),
});
export type PageResults = z.infer<typeof pageResultsSchema>;

export const lessonPageAttributesSchema = z.object({
  lessonId: z.string(),
  nodeId: z.string(),
  /** Position of this page in the lesson (0-based) and the number of pages. */
  index: z.number(),
  count: z.number(),
  state: z.enum(['ACTIVE', 'ARCHIVED']),
  progress: z.enum(PAGE_PROGRESS).nullable(),
  node: nodeViewSchema,
  /** Null for container-level pages (multiblock chooser): see `children`. */
  block: blockViewSchema.nullable(),
  /** Multiblock: its child blocks, each chosen by its numbered title. */
  children: z.array(z.object({ nodeId: z.string(), title: z.string().nullable(), done: z.boolean() })),
  hints: hintsViewSchema,
  /** The learner's recorded answers (one per row in reading order), null before answering. */
  inputs: z.object({ answers: z.array(z.unknown()) }).nullable(),
  /** Null until the learner's answer is recorded; then what feedback and correction need. */
  results: pageResultsSchema.nullable(),
  timeLimit: z.number().nullable(),
  /** Seconds left on the server's clock, null without a limit or before the timed page starts. */
  remainingSeconds: z.number().nullable(),
  /** For timed pages: when the learner confirmed the start (server time), else null. */
  startedAt: z.string().nullable(),
  timeSpent: z.number(),
  /** docs/product.md §3 LessonPage `timeAlive`: seconds the page was open and alive (keep-alive pings). */
  timeAlive: z.number().optional(),
  answeredAt: z.string().nullable(),
  lessonScoring: scoringSchema,
  courseTypeSettings: z.object({ hints: z.boolean(), feedbacks: z.boolean(), retry: z.boolean() }),
  /** The container node (section) the page belongs to. */
  sectionId: z.string().nullable(),
  /** 1 for the first answer, +1 for each retry (earlier attempts are ARCHIVED). */
  attempt: z.number(),
  /** True for the lesson's current page, the furthest one reached (never moves back). */
  current: z.boolean(),
  /** The lesson's own time limit (seconds, from its first opening) and what is left of it. */
  lessonTimeLimit: z.number().nullable(),
  lessonRemainingSeconds: z.number().nullable(),
  /**
   * An unanswered learning-module page: the launch the server issued to this learner for this
   * page; the score is accepted only with it, once (decision 0009). Null on any other page.
   */
  tincanLaunch: z.string().nullable(),
  /**
   * docs/product.md §3 `sheet.datasetComputed`: a parametrised exercise's values for this learner (drawn once
   * with the page), the ones its statement and rows name as `{{name}}`; every value once the
   * answer's key is shown. Empty for other pages.
   */
  sheet: z.object({ datasetComputed: z.record(z.string(), z.number()) }).optional(),
});
export type LessonPageAttributes = z.infer<typeof lessonPageAttributesSchema>;

/** `offline-pages` (GET /api/offline/lessons/{id}/pages): an upcoming page kept for offline play. */
export const offlinePageAttributesSchema = z.object({
  lessonId: z.string(),
  nodeId: z.string(),
  index: z.number(),
  count: z.number(),
  sectionId: z.string().nullable(),
  node: nodeViewSchema,
  /** Null when the page cannot be played offline (`needsNetwork` says why). */
  block: blockViewSchema.nullable(),
  needsNetwork: z.enum(['timed', 'tincan', 'multiblock', 'conditions']).nullable(),
});
export type OfflinePageAttributes = z.infer<typeof offlinePageAttributesSchema>;

/** `course-nodes`: a node of a course's tree (JSON:API forbids `type` as an attribute: `kind`). */
export const courseNodeAttributesSchema = nodeViewSchema.omit({ id: true, type: true }).extend({
  kind: z.enum(NODE_TYPES),
  attachmentUrls: z.array(z.string()),
  courseId: z.string(),
  blockId: z.string().nullable(),
  order: z.number(),
  /** docs/product.md §3 CourseNode `conditions`, as authored (docs/content-format.md). */
  conditions: z.array(z.unknown()),
});
export type CourseNodeAttributes = z.infer<typeof courseNodeAttributesSchema>;

/** `course-blocks`: a block's public view (the same as in a page document), hint texts left out. */
export const courseBlockAttributesSchema = z.object({
  title: z.string(),
  kind: z.enum(BLOCK_TYPES),
  categoryId: z.string().nullable(),
  competencyId: z.string().nullable(),
  attachmentIds: z.array(z.string()),
  settings: blockViewSchema.shape.settings,
  content: blockViewSchema.shape.content,
  termIds: z.array(z.string()),
});
export type CourseBlockAttributes = z.infer<typeof courseBlockAttributesSchema>;
