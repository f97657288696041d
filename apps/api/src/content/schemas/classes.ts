/** programs.yaml and classes.yaml: programs, classes, enrolments, demo history, invitation codes. */
import { z } from 'zod';
import { CLASS_ROLES, PUBLICATION_STATES } from '@parcours/domain/entities';
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

const historySchema = z.strictObject({
  program: slug.optional(),
  course: slug,
  /** Pages (block nodes, in course order) completed; the next one is left ONGOING unless DONE. */
  pagesDone: z.number().int().min(0),
  state: z.enum(['AVAILABLE', 'DONE']),
  score: z.strictObject({ actual: z.number().min(0), max: z.number().min(0) }),
  startedAt: contentDate.optional(),
  timeSpent: z.number().int().min(0).default(0),
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
          }),
        )
        .min(1),
      users: z.array(
        z.strictObject({
          user: slug,
          role: z.enum(CLASS_ROLES),
          /** DEMO ONLY: seeds lessons as if the learner had already worked (home page progress). */
          history: z.array(historySchema).default([]),
        }),
      ),
    }),
  ),
  /** Invitation codes (SPEC §1): registering with one enrols the new learner in these classes. */
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
