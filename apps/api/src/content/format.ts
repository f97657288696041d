/**
 * The content format (docs/content-format.md): zod schemas for every YAML file of a content
 * folder and the helpers the importer needs (relative dates, pick-words markers). The stored
 * solution format and free-answer normalisation live with the graders in packages/domain and
 * are re-exported here. Cross-file checks live in importer.ts.
 */
import { z } from 'zod';
import type { ContextSettings } from '@parcours/domain/entities';
import {
  BLOCK_TYPES,
  CLASS_ROLES,
  COMPANY_ROLES,
  LOCALES,
  PUBLICATION_STATES,
  SYSTEM_ROLES,
} from '@parcours/domain/entities';
import { expectedSchema as combinedChoiceExpected } from '@parcours/domain/exercises/combined-choice/grader';
import { expectedSchema as dragAndDropExpected } from '@parcours/domain/exercises/drag-n-drop/grader';
import { expectedSchema as imageCliquableExpected } from '@parcours/domain/exercises/image-cliquable/grader';
import { expectedSchema as multipleChoiceExpected } from '@parcours/domain/exercises/multiple-choice/grader';
import { FEEDBACK_WHEN } from '@parcours/domain/exercises/solution';

// Free-answer comparison and the stored solution format belong to the graders (packages/domain);
// re-exported so the importer and its tests keep one import site.
export { normaliseFreeAnswer, parseNumberAnswer } from '@parcours/domain/exercises/free-answer/grader';
export type { BlockSolution, FeedbackWhen, RowValidator } from '@parcours/domain/exercises/solution';
export type { RowFeedbacks } from '@parcours/domain/exercises/exercise-grader';
export { FEEDBACK_WHEN };

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** Content ids are slugs: they end up in stable ids and in error messages, so keep them plain. */
export const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes');

/**
 * A date in content: absolute (`2026-03-01`, or a full ISO timestamp) or relative to the import
 * day (`now`, `-30d`, `+60d`, `now+2w`). Relative dates resolve to 00:00 UTC of that day so two
 * imports on the same day write the same values.
 */
export const RELATIVE_DATE = /^(?:now)?(?:([+-]\d+)([dw]))?$/;
export const contentDate = z
  .string()
  .refine(
    (s) =>
      s !== '' && (RELATIVE_DATE.test(s) || (/^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)))),
    'expected YYYY-MM-DD, an ISO timestamp, now, or a relative date like -30d, +2w, now+7d',
  );

export function resolveDate(value: string, now: Date): string {
  const m = RELATIVE_DATE.exec(value);
  if (m) {
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const n = m[1] ? Number(m[1]) * (m[2] === 'w' ? 7 : 1) : 0;
    return new Date(day + n * 86_400_000).toISOString();
  }
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString();
}

/** A path to a file inside the content folder (relative to the folder given to the importer). */
export const filePath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'),
    'must be relative to the content folder, without ..',
  );

const html = z.string();

// ---------------------------------------------------------------------------------------------
// tenant.yaml

const legalText = z.strictObject({
  content: html,
  version: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

/**
 * The tenant's OpenID provider. Only `label` is ever published (contexts/current answers an
 * allow-list); the rest stays in the stored settings for the sign-in routes.
 */
const oidcSettingsSchema = z.strictObject({
  label: z.string().min(1),
  issuer: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().min(1).optional(),
});

export const contextSettingsSchema = z.strictObject({
  defaultLocale: z.enum(LOCALES),
  login: z.strictObject({ internal: z.boolean(), oidc: oidcSettingsSchema.nullable() }),
  invitationCodes: z.strictObject({ enabled: z.boolean(), simplePassword: z.boolean() }),
  certification: z.strictObject({ allowed: z.boolean(), type: z.enum(['certification', 'attestation']) }),
  allowContactTeacher: z.boolean(),
  profile: z.strictObject({
    fields: z.strictObject({
      firstname: z.boolean(),
      lastname: z.boolean(),
      email: z.boolean(),
      username: z.boolean(),
      birthday: z.boolean(),
    }),
  }),
  requiredDatas: z.boolean(),
  emailNotifications: z.boolean(),
  demoVideoUrl: z.string().url().nullable(),
  legal: z.strictObject({ cgu: legalText.nullable(), rgpd: legalText.nullable() }),
});
// Compile-time guard: the file format must give at least every field of the contract type (the
// stored settings add the provider's server-side fields, never published).
const settingsMatch: z.infer<typeof contextSettingsSchema> extends ContextSettings ? true : false = true;
void settingsMatch;

const hostsSchema = z.strictObject({
  api: z.string().optional(),
  app: z.string().optional(),
  player: z.string().optional(),
  backoffice: z.string().optional(),
  certification: z.string().optional(),
  frontoffice: z.string().optional(),
  lrs: z.string().optional(),
});

const colour = z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'expected a #rrggbb colour');

export const tenantSchema = z.strictObject({
  alias: slug,
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  isGeneric: z.boolean().default(false),
  /** Host names (no port) that resolve to this tenant. */
  hostnames: z.array(z.string().regex(/^[a-z0-9.-]+$/i, 'a host name without port')).default([]),
  hosts: hostsSchema.default({}),
  assets: z
    .strictObject({
      logo: filePath.nullable().default(null),
      favicon: filePath.nullable().default(null),
      colors: z.strictObject({
        primary: colour,
        secondary: colour,
        accent: colour.optional(),
        text: colour.optional(),
        background: colour.optional(),
      }),
      splashScreens: z.record(z.string(), filePath).default({}),
      touchIcons: z.record(z.string(), filePath).default({}),
    })
    .default({
      logo: null,
      favicon: null,
      colors: { primary: '#1d4ed8', secondary: '#64748b' },
      splashScreens: {},
      touchIcons: {},
    }),
  metas: z.record(z.string(), z.string()).default({}),
  settings: contextSettingsSchema,
  courseTypes: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        description: z.string().nullable().default(null),
        settings: z.strictObject({
          hints: z.boolean(),
          feedbacks: z.boolean(),
          retry: z.boolean(),
          competencies: z.boolean().default(true),
          categories: z.boolean().default(true),
          certificate: z.boolean().default(false),
        }),
      }),
    )
    .default([]),
  categories: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        icon: z.string().nullable().default(null),
        backgroundImage: filePath.nullable().default(null),
      }),
    )
    .default([]),
  /** A tree through `parent`; parents may be listed after their children. */
  competencies: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        parent: slug.nullable().default(null),
        isGeneric: z.boolean().default(false),
        icon: z.string().nullable().default(null),
        order: z.number().int().default(0),
      }),
    )
    .default([]),
});
export type TenantFile = z.infer<typeof tenantSchema>;

// ---------------------------------------------------------------------------------------------
// users.yaml

export const usersSchema = z.strictObject({
  companies: z.array(z.strictObject({ id: slug, name: z.string().min(1) })).default([]),
  users: z.array(
    z.strictObject({
      id: slug,
      email: z.string().email(),
      /** Plain demo password, hashed at import. Omit for accounts that sign in through SSO only. */
      password: z.string().min(6).max(254).optional(),
      username: z.string().min(3).max(60).nullable().default(null),
      firstname: z.string().min(1).max(60).nullable().default(null),
      lastname: z.string().min(1).max(60).nullable().default(null),
      birthday: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .nullable()
        .default(null),
      preferredLocale: z.enum(LOCALES).nullable().default(null),
      /** Terms version already accepted (so demo accounts are not asked at first sign-in). */
      cguAcceptedVersion: z.string().nullable().default(null),
      roles: z.array(z.enum(SYSTEM_ROLES)).default([]),
      companies: z.array(z.strictObject({ company: slug, role: z.enum(COMPANY_ROLES) })).default([]),
    }),
  ),
});
export type UsersFile = z.infer<typeof usersSchema>;

// ---------------------------------------------------------------------------------------------
// courses/<slug>.yaml: rows

const rowSettings = z
  .strictObject({
    columns: z.number().int().min(1).max(6).optional(),
    keepOrder: z.boolean().optional(),
    showDescriptionIfImage: z.boolean().optional(),
    returnToLineAfterImage: z.boolean().optional(),
    questionIsHidden: z.boolean().optional(),
    hideTitle: z.boolean().optional(),
    hideDescription: z.boolean().optional(),
    autoplay: z.boolean().optional(),
    audioFile: filePath.optional(),
    beforeStatement: z.boolean().optional(),
    defaultWidth: z.number().int().positive().optional(),
    defaultHeight: z.number().int().positive().optional(),
  })
  .default({});

const rowBase = {
  title: z.string().nullable().default(null),
  /** The question or text above the row (HTML). */
  message: html.nullable().default(null),
  settings: rowSettings,
  /** Shown when the row is answered correctly / wrongly (server-only until answered). */
  feedback: z.strictObject({ correct: html.optional(), incorrect: html.optional() }).optional(),
};

const choice = z.strictObject({
  value: html,
  file: filePath.optional(),
  /** Answer-specific feedback: shown when the learner picks (or misplaces) this choice. */
  feedback: html.optional(),
});

// Where the file's `expected` is already the stored shape, the grader's schema is the one
// definition; free-answer and pick-words are converted by blocks.ts.
const multipleChoiceRow = z.strictObject({
  type: z.literal('multiple-choice'),
  ...rowBase,
  choices: z.array(choice).min(2),
  /** Indexes (0-based) of every correct choice; at least one. */
  expected: multipleChoiceExpected,
});
const combinedChoiceRow = z.strictObject({
  type: z.literal('combined-choice'),
  ...rowBase,
  choices: z.array(choice).min(2),
  /** Index (0-based) of the one correct choice. */
  expected: combinedChoiceExpected,
});
const freeAnswerRow = z.strictObject({
  type: z.literal('free-answer'),
  ...rowBase,
  placeholder: z.string().optional(),
  expected: z.union([
    z.strictObject({ accept: z.array(z.string().min(1)).min(1) }),
    z.strictObject({ number: z.number(), tolerance: z.number().min(0).default(0) }),
  ]),
  /** Feedback for specific wrong (or alternative) answers, compared like `accept`. */
  answers: z.array(z.strictObject({ match: z.array(z.string().min(1)).min(1), feedback: html })).default([]),
});
const dragAndDropRow = z.strictObject({
  type: z.literal('drag-n-drop'),
  ...rowBase,
  choices: z.array(choice).min(1),
  targets: z.array(z.strictObject({ value: html })).min(1),
  /** One list per target (same order): the indexes of the choices that belong in it. */
  expected: dragAndDropExpected,
});
const pickWordsRow = z.strictObject({
  type: z.literal('pick-words'),
  ...rowBase,
  /** Plain text; words to pick are wrapped in [[double brackets]]. */
  text: z.string().min(1),
});
const zone = z.discriminatedUnion('shape', [
  z.strictObject({
    shape: z.literal('circle'),
    cx: z.number(),
    cy: z.number(),
    r: z.number().positive(),
    label: z.string(),
    feedback: html.optional(),
  }),
  z.strictObject({
    shape: z.literal('rectangle'),
    x: z.number(),
    y: z.number(),
    width: z.number().positive(),
    height: z.number().positive(),
    label: z.string(),
    feedback: html.optional(),
  }),
  z.strictObject({
    shape: z.literal('polygon'),
    points: z.array(z.tuple([z.number(), z.number()])).min(3),
    label: z.string(),
    feedback: html.optional(),
  }),
]);
export const CLICKABLE_IMAGE_WIDTH = 808;
const imageCliquableRow = z.strictObject({
  type: z.literal('image-cliquable'),
  ...rowBase,
  image: filePath,
  /** SVG viewBox; always 808 wide (SPEC §9), height to the image's proportions. */
  viewBox: z.strictObject({ width: z.literal(CLICKABLE_IMAGE_WIDTH), height: z.number().positive() }),
  zones: z.array(zone).min(2),
  /** Indexes (0-based) of the zones to click. */
  expected: imageCliquableExpected,
});

const wysiwygRow = z.strictObject({ type: z.literal('wysiwyg'), ...rowBase, html });
const wysiwygTableRow = z.strictObject({
  type: z.literal('wysiwyg-table'),
  ...rowBase,
  table: z.strictObject({
    caption: z.string().optional(),
    head: z.array(html).default([]),
    rows: z.array(z.array(html)).min(1),
  }),
});
const mediaInternalRow = z.strictObject({
  type: z.literal('media-internal'),
  ...rowBase,
  file: filePath,
  alt: z.string().optional(),
});
const tincanRef = z.union([
  z.strictObject({ path: filePath }), // a folder holding index.html, served by the API
  z.strictObject({
    url: z
      .string()
      .url()
      .refine((u) => /^https:\/\//.test(u), 'https only'),
  }),
]);
const mediaTincanRow = z.strictObject({ type: z.literal('media-tincan'), ...rowBase, tincan: tincanRef });
/** Watch or short form of a video site (SPEC §5); anything else would not embed. */
export const VIDEO_URL =
  /^https:\/\/(?:(?:www\.)?youtube\.com\/watch\?v=[\w-]{11}|youtu\.be\/[\w-]{11}|(?:www\.)?vimeo\.com\/\d+|(?:www\.)?dailymotion\.com\/video\/\w+)/;
const videoExternalRow = z.strictObject({
  type: z.literal('video-external'),
  ...rowBase,
  url: z.string().regex(VIDEO_URL, 'a YouTube watch/short, Vimeo or Dailymotion URL'),
});
const mediasByMailRow = z.strictObject({
  type: z.literal('medias-by-mail'),
  ...rowBase,
  files: z.array(filePath).min(1),
});
const widget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('calculator') }),
  z.strictObject({ kind: z.literal('countdown'), seconds: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('pdf'), file: filePath }),
  z.strictObject({ kind: z.literal('sound'), file: filePath }),
  z.strictObject({ kind: z.literal('video'), url: z.string().regex(VIDEO_URL) }),
  z.strictObject({ kind: z.literal('richtext'), html }),
]);
const widgetsRow = z.strictObject({
  type: z.literal('widgets'),
  ...rowBase,
  widgets: z.array(widget).min(1),
});

export const rowSchema = z.discriminatedUnion('type', [
  multipleChoiceRow,
  combinedChoiceRow,
  freeAnswerRow,
  dragAndDropRow,
  pickWordsRow,
  imageCliquableRow,
  mediaInternalRow,
  mediaTincanRow,
  wysiwygRow,
  wysiwygTableRow,
  videoExternalRow,
  mediasByMailRow,
  widgetsRow,
]);
export type RowFile = z.infer<typeof rowSchema>;

// ---------------------------------------------------------------------------------------------
// courses/<slug>.yaml: blocks, nodes, course

export const blockSchema = z.strictObject({
  id: slug,
  title: z.string().min(1),
  type: z.enum(BLOCK_TYPES),
  category: slug.optional(),
  competency: slug.optional(),
  attachments: z.array(filePath).default([]),
  terms: z.array(slug).default([]),
  template: z
    .strictObject({
      backToDashBoard: z.boolean().optional(),
      hideNextButton: z.boolean().optional(),
      hideMainTitle: z.boolean().optional(),
    })
    .default({}),
  /** Revealed one by one; a cost (score points) asks confirmation first (SPEC §4). */
  hints: z.array(z.strictObject({ message: html, cost: z.number().min(0).default(0) })).default([]),
  statement: z.strictObject({ html, settings: z.record(z.string(), z.unknown()).default({}) }).optional(),
  sections: z
    .array(z.strictObject({ title: z.string().nullable().default(null), rows: z.array(rowSchema) }))
    .default([]),
  /** General feedbacks, shown one at a time before the answer-specific ones. */
  feedbacks: z
    .array(
      z.strictObject({
        when: z.enum(FEEDBACK_WHEN).default('always'),
        preset: z.enum(['success', 'info', 'warning', 'danger']).optional(),
        message: html,
      }),
    )
    .default([]),
  /** The external learning module of a tincan block. */
  tincan: tincanRef.optional(),
});
export type BlockFile = z.infer<typeof blockSchema>;

export interface NodeFile {
  id: string;
  type?: 'container' | 'multiblock' | 'block' | undefined;
  title?: string | null | undefined;
  block?: string | undefined;
  settings: { timeLimit?: number | undefined };
  tools: { calculator?: boolean | undefined };
  conditions: unknown[];
  attachments: string[];
  children: NodeFile[];
}
export const nodeSchema: z.ZodType<NodeFile, unknown> = z.lazy(() =>
  z.strictObject({
    id: slug,
    type: z.enum(['container', 'multiblock', 'block']).optional(),
    title: z.string().nullable().optional(),
    block: slug.optional(),
    settings: z.strictObject({ timeLimit: z.number().int().positive().optional() }).default({}),
    tools: z.strictObject({ calculator: z.boolean().optional() }).default({}),
    conditions: z.array(z.unknown()).default([]),
    attachments: z.array(filePath).default([]),
    children: z.array(nodeSchema).default([]),
  }),
);

export const courseSchema = z.strictObject({
  id: slug,
  title: z.string().min(1),
  description: z.string().nullable().default(null),
  reference: z.string().nullable().default(null),
  state: z.enum(PUBLICATION_STATES).default('PUBLISHED'),
  type: slug.nullable().default(null),
  category: slug,
  competencies: z.array(slug).default([]),
  video: z.string().regex(VIDEO_URL).nullable().default(null),
  settings: z.record(z.string(), z.unknown()).default({}),
  terms: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        words: z.array(z.string().min(1)).min(1),
        definition: html,
      }),
    )
    .default([]),
  blocks: z.array(blockSchema).default([]),
  /** The root node: its children are the sections (containers). */
  tree: z.strictObject({ title: z.string().nullable().default(null), children: z.array(nodeSchema).min(1) }),
});
export type CourseFile = z.infer<typeof courseSchema>;

// ---------------------------------------------------------------------------------------------
// programs.yaml, classes.yaml

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
      choices: z.array(z.strictObject({ response: z.string().min(1).max(500), target: slug })).min(1).max(10),
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

// ---------------------------------------------------------------------------------------------
// pick-words: the learner's words (public) and the positions to pick (solution).

/** Splits pick-words text into the learner's words and the positions marked [[...]]. */
export function parsePickWords(text: string): { plain: string; words: string[]; positions: number[] } {
  const words: string[] = [];
  const positions: number[] = [];
  const plain = text.replace(/\[\[([^\]]+)\]\]/g, '$1');
  const re = /\[\[([^\]]+)\]\]|([\p{L}\p{N}][\p{L}\p{N}'’-]*)/gu;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) {
      // A marked span may hold several words; each is a position to pick.
      for (const w of m[1].match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []) {
        positions.push(words.length);
        words.push(w);
      }
    } else if (m[2] !== undefined) {
      words.push(m[2]);
    }
  }
  return { plain, words, positions };
}
