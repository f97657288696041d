/** courses/<slug>.yaml: the rows of a block section (one schema per row type) and pick-words markers. */
import { z } from 'zod';
import { expectedSchema as combinedChoiceExpected } from '@parcours/domain/exercises/combined-choice/grader';
import { expectedSchema as dragAndDropExpected } from '@parcours/domain/exercises/drag-n-drop/grader';
import { expectedSchema as imageCliquableExpected } from '@parcours/domain/exercises/image-cliquable/grader';
import { expectedSchema as multipleChoiceExpected } from '@parcours/domain/exercises/multiple-choice/grader';
import { filePath, html } from './common';

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
  /** Index (0-based) of the one correct choice, or a formula giving it from the learner's values. */
  expected: z.union([combinedChoiceExpected, z.strictObject({ formula: z.string().min(1) })]),
});
const freeAnswerRow = z.strictObject({
  type: z.literal('free-answer'),
  ...rowBase,
  placeholder: z.string().optional(),
  expected: z.union([
    z.strictObject({ accept: z.array(z.string().min(1)).min(1) }),
    z.strictObject({ number: z.number(), tolerance: z.number().min(0).default(0) }),
    /** A parametrised exercise: the number is this formula over the learner's values. */
    z.strictObject({ formula: z.string().min(1), tolerance: z.number().min(0).default(0) }),
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

/**
 * A block's own interactive image (SPEC §3 CourseBlock content.interactiveImage, decision 0052):
 * a picture with spots, each revealing its text when chosen; never graded. The spots are zones
 * as a clickable image draws them, each with its HTML.
 */
export const interactiveImageSchema = z.strictObject({
  image: filePath,
  /** What the picture shows, for those who cannot see it. */
  alt: z.string().min(1),
  viewBox: z.strictObject({ width: z.literal(CLICKABLE_IMAGE_WIDTH), height: z.number().positive() }),
  spots: z
    .array(
      z.discriminatedUnion('shape', [
        z.strictObject({
          shape: z.literal('circle'),
          cx: z.number(),
          cy: z.number(),
          r: z.number().positive(),
          label: z.string().min(1),
          html,
        }),
        z.strictObject({
          shape: z.literal('rectangle'),
          x: z.number(),
          y: z.number(),
          width: z.number().positive(),
          height: z.number().positive(),
          label: z.string().min(1),
          html,
        }),
        z.strictObject({
          shape: z.literal('polygon'),
          points: z.array(z.tuple([z.number(), z.number()])).min(3),
          label: z.string().min(1),
          html,
        }),
      ]),
    )
    .min(1),
});
const imageCliquableRow = z.strictObject({
  type: z.literal('image-cliquable'),
  ...rowBase,
  image: filePath,
  /** SVG viewBox; always 808 wide (docs/product.md §9), height to the image's proportions. */
  viewBox: z.strictObject({ width: z.literal(CLICKABLE_IMAGE_WIDTH), height: z.number().positive() }),
  zones: z.array(zone).min(2),
  /** Indexes (0-based) of the zones to click. */
  expected: imageCliquableExpected,
});

const wysiwygRow = z.strictObject({ type: z.literal('wysiwyg'), ...rowBase, html });
/** A table of HTML cells: a `wysiwyg-table` row's, or a block's own (SPEC §3 CourseBlock content.table). */
export const tableSchema = z.strictObject({
  caption: z.string().optional(),
  head: z.array(html).default([]),
  rows: z.array(z.array(html)).min(1),
});
const wysiwygTableRow = z.strictObject({
  type: z.literal('wysiwyg-table'),
  ...rowBase,
  table: tableSchema,
});
const mediaInternalRow = z.strictObject({
  type: z.literal('media-internal'),
  ...rowBase,
  file: filePath,
  alt: z.string().optional(),
});
export const tincanRef = z.union([
  z.strictObject({ path: filePath }), // a folder holding index.html, served by the API
  z.strictObject({
    url: z
      .string()
      .url()
      .refine((u) => /^https:\/\//.test(u), 'https only'),
  }),
]);
// A zip, or a cmi5 course structure alone whose AUs are all at absolute URLs (cmi5 §14.2, issue 39).
const packageZip = filePath.refine(
  (p) => /\.zip$/i.test(p) || /\.xml$/i.test(p),
  'a package is a .zip file (or a cmi5.xml whose AUs are at absolute URLs)',
);
const frameSide = z.number().int().min(200).max(4000);
/** A package zip (docs/content-format.md "Packages"): its path, or `{ path, width?, height? }`. */
export const packageRef = z.union([
  packageZip,
  z.strictObject({ path: packageZip, width: frameSide.optional(), height: frameSide.optional() }),
]);
const mediaTincanRow = z.strictObject({ type: z.literal('media-tincan'), ...rowBase, tincan: tincanRef });
/** Watch or short form of a video site (docs/product.md §5); anything else would not embed. */
/** docs/product.md §5: the watch or short form of a video site, the same forms the web app embeds (video-url.ts). */
export const VIDEO_URL =
  /^https:\/\/(?:(?:www\.|m\.)?youtube\.com\/watch\?v=[\w-]{11}|youtu\.be\/[\w-]{11}|(?:www\.)?vimeo\.com\/\d+|(?:www\.)?dailymotion\.com\/video\/\w+|dai\.ly\/\w+)/;
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
  // A link of the supported form (docs/product.md §5), or a stored video of a supported type (docs/product.md §3).
  z
    .strictObject({
      kind: z.literal('video'),
      url: z.string().regex(VIDEO_URL).optional(),
      file: filePath.optional(),
    })
    .refine((w) => (w.url === undefined) !== (w.file === undefined), 'a video widget has either url or file'),
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
