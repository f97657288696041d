/** programs.yaml and classes.yaml: programs, classes, enrolments, demo history, invitation codes. */
import { z } from 'zod';
import { CLASS_ROLES, PUBLICATION_STATES } from '@parcours/domain/entities';
import { MAX_TIME_FACTOR, MIN_TIME_FACTOR } from '@parcours/domain/time-accommodation';
import { contentDate, slug } from './common';

/**
 * A program course with progression settings (docs/content-format.md "Progression"): which
 * courses open when it ends, an end-of-lesson question whose choice opens its target, and
 * whether ending it ends the program. Targets are course ids of the same program.
 */
const programCourseSchema = z.strictObject({
  course: slug,
  unlocks: z.array(slug).min(1).optional(),
  question: z
    .strictObject({
      label: z.string().min(1).max(500),
      choices: z
        .array(z.strictObject({ response: z.string().min(1).max(500), target: slug }))
        .min(1)
        .max(10),
    })
    .optional(),
  endOfProgram: z.boolean().optional(),
});
export type ProgramCourseFile = z.infer<typeof programCourseSchema>;

export const programsSchema = z.strictObject({
  programs: z.array(
    z
      .strictObject({
        id: slug,
        name: z.string().min(1),
        description: z.string().nullable().default(null),
        icon: z.string().nullable().default(null),
        public: z.boolean().default(false),
        state: z.enum(PUBLICATION_STATES).default('PUBLISHED'),
        tags: z.array(z.string()).default([]),
        /** `unlock: sequential` (default: the next course by order) or `all` (every course at once). */
        settings: z
          .object({ unlock: z.enum(['sequential', 'all']).optional() })
          .catchall(z.unknown())
          .default({}),
        /** Course ids in the order the learner takes them; an entry may carry progression settings. */
        courses: z.array(z.union([slug, programCourseSchema])).min(1),
      })
      // `courses` stays a list of ids for the rest of the importer; the settings go aside.
      .transform(({ courses, ...program }) => ({
        ...program,
        courses: courses.map((c) => (typeof c === 'string' ? c : c.course)),
        progression: courses.flatMap((c) => (typeof c === 'string' ? [] : [c])),
      })),
  ),
});
export type ProgramsFile = z.infer<typeof programsSchema>;

/** The score of a lesson as a whole: `actual` out of `max` points. */
const scoreSchema = z.strictObject({ actual: z.number().min(0), max: z.number().min(0) });

const historySchema = z
  .strictObject({
    program: slug.optional(),
    course: slug,
    /** Pages (block nodes, in course order) completed; the next one is left ONGOING unless DONE. */
    pagesDone: z.number().int().min(0),
    state: z.enum(['AVAILABLE', 'DONE']),
    /** The lesson's score as given; with `ratio` instead, it is the sum of the pages' scores. */
    score: scoreSchema.optional(),
    /**
     * Share (0..1) of the points earned on every graded page done: each exercise page is worth
     * 10 points per exercise row, as the graders count (pages get scoreActual / scoreMax).
     */
    ratio: z.number().min(0).max(1).optional(),
    startedAt: contentDate.optional(),
    /**
     * Days the done pages were answered on, spread evenly from `from` to `to` (both included):
     * pages get answeredAt, openedAt and their share of timeSpent. Without it every page is
     * answered at `startedAt` and carries no time.
     */
    activity: z.strictObject({ from: contentDate, to: contentDate }).optional(),
    timeSpent: z.number().int().min(0).default(0),
    /** The reference of the document of an ended certifying lesson (state DONE). */
    certificationRef: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/, 'letters, digits, dots, dashes, 3 to 64')
      .optional(),
  })
  .refine((h) => (h.score === undefined) !== (h.ratio === undefined), {
    message: 'give either score (the lesson as a whole) or ratio (page by page), not both',
    path: ['score'],
  });
export type HistoryFile = z.infer<typeof historySchema>;

/** Limits of the log book API (packages/domain logbook), so an imported note can be edited as is. */
export const LOGBOOK_TITLE_MAX = 200;
export const LOGBOOK_MESSAGE_MAX = 10_000;

/** A note of the learner's log book, about the class user it is listed under. */
const logbookNoteSchema = z.strictObject({
  title: z.string().trim().min(1).max(LOGBOOK_TITLE_MAX),
  /** Plain text (line breaks kept); the app escapes it. */
  message: z.string().max(LOGBOOK_MESSAGE_MAX).default(''),
  date: contentDate,
  /** Who wrote it: the student (default) or a TEACHER of the same class. */
  author: slug.optional(),
});

export const classesSchema = z.strictObject({
  classes: z.array(
    z.strictObject({
      id: slug,
      name: z.string().min(1),
      company: slug.nullable().default(null),
      startAt: contentDate.nullable().default(null),
      expireAt: contentDate.nullable().default(null),
      settings: z.record(z.string(), z.unknown()).default({}),
      programs: z
        .array(
          z.strictObject({
            program: slug,
            startAt: contentDate.nullable().default(null),
            expireAt: contentDate.nullable().default(null),
            openingBoundaries: z
              .strictObject({
                from: contentDate.nullable().optional(),
                to: contentDate.nullable().optional(),
              })
              .default({}),
            settings: z.record(z.string(), z.unknown()).default({}),
            /** Class steps (docs/product.md §3): courses of the program, in the order this class takes them. */
            steps: z.array(slug).default([]),
          }),
        )
        .min(1),
      users: z.array(
        z
          .strictObject({
            user: slug,
            role: z.enum(CLASS_ROLES),
            /** DEMO ONLY: seeds lessons as if the learner had already worked (home page progress). */
            history: z.array(historySchema).default([]),
            /** Log book notes about this STUDENT (their own, or a teacher's of the class). */
            logbook: z.array(logbookNoteSchema).default([]),
            /** Time accommodation of a STUDENT (decision 0019): a factor on every limit, or none. */
            timeFactor: z.number().min(MIN_TIME_FACTOR).max(MAX_TIME_FACTOR).multipleOf(0.01).optional(),
            noTimeLimit: z.boolean().optional(),
          })
          .refine(
            (u) => u.role === 'STUDENT' || (u.timeFactor === undefined && u.noTimeLimit === undefined),
            {
              message: 'only a STUDENT has a time accommodation',
              path: ['timeFactor'],
            },
          )
          .refine((u) => !(u.noTimeLimit && u.timeFactor !== undefined), {
            message: 'a factor or noTimeLimit, not both',
            path: ['timeFactor'],
          }),
      ),
    }),
  ),
  /** Invitation codes (docs/product.md §1): registering with one enrols the new learner in these classes. */
  invitations: z
    .array(
      z.strictObject({
        code: z.string().regex(/^[A-Za-z0-9-]{4,64}$/, 'letters, digits and dashes, 4 to 64'),
        classes: z.array(slug).min(1),
        maxUses: z.number().int().positive().nullable().default(null),
        expireAt: contentDate.nullable().default(null),
      }),
    )
    .default([]),
});
export type ClassesFile = z.infer<typeof classesSchema>;
