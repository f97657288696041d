import { z } from 'zod';

/**
 * xAPI 1.0.3 statements (xAPI-Data.md §2.4), checked before anything is stored: a batch with one
 * bad statement is refused whole with 400. Objects are strict: the spec has the LRS reject
 * properties it does not define (extensions are where free data goes).
 */

/** Any UUID shape (the nil registration of docs/product.md §7 included), lower or upper case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** An absolute IRI: a scheme, a colon, then no white space. */
const IRI = /^[a-z][a-z0-9+.-]*:[^\s]+$/i;
/** ISO 8601 date and time (RFC 3339 profile); the offset may be left out (then taken as UTC). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
/** RFC 3339 §4.3: "-00:00" means an unknown offset, which xAPI-Data.md §4.5 does not allow. */
const UNKNOWN_OFFSET = /-00:?00$/;
/** ISO 8601 duration; weeks stand alone (`P4W`, never `P4W1D`: ISO 8601 §4.4.3.2). */
const DURATION =
  /^P(?:\d+(?:\.\d+)?W|(?=\d|T\d)(\d+(\.\d+)?Y)?(\d+(\.\d+)?M)?(\d+(\.\d+)?D)?(T(?=\d)(\d+(\.\d+)?H)?(\d+(\.\d+)?M)?(\d+(\.\d+)?S)?)?)$/;
/** An RFC 5646 language tag, loosely: a primary subtag, then subtags of 1 to 8 letters or digits. */
export const LANGUAGE_TAG = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i;

export const iri = z.string().max(2048).regex(IRI, 'Expected an absolute IRI.');
export const uuid = z.string().regex(UUID, 'Expected a UUID.');
export const timestamp = z
  .string()
  .regex(TIMESTAMP, 'Expected an ISO 8601 timestamp.')
  .refine((t) => !UNKNOWN_OFFSET.test(t), 'An offset of -00:00 is not allowed.')
  .refine(realDate, 'Expected an ISO 8601 timestamp.');

/** A date that exists (Date.parse rolls 30 February over into March) at a time of the day. */
function realDate(s: string): boolean {
  const [y, mo, d, h, mi, se] = s.split(/[-T:.Z+]/).map(Number) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return (
    !Number.isNaN(Date.parse(s)) &&
    day.getUTCMonth() === mo! - 1 &&
    day.getUTCDate() === d &&
    h! <= 23 &&
    mi! <= 59 &&
    se! <= 60
  );
}
const languageMap = z.record(z.string().regex(LANGUAGE_TAG), z.string());
const extensions = z.record(iri, z.unknown());

const account = z.strictObject({ homePage: iri, name: z.string().min(1) });
const ifiFields = {
  mbox: z
    .string()
    .regex(/^mailto:[^\s@]+@[^\s@]+$/, 'Expected mailto:address.')
    .optional(),
  mbox_sha1sum: z
    .string()
    .regex(/^[0-9a-f]{40}$/i)
    .optional(),
  openid: iri.optional(),
  account: account.optional(),
};
type Ifi = { mbox?: string; mbox_sha1sum?: string; openid?: string; account?: unknown };
const ifiCount = (a: Ifi) =>
  [a.mbox, a.mbox_sha1sum, a.openid, a.account].filter((v) => v !== undefined).length;

export const agentSchema = z
  .strictObject({ objectType: z.literal('Agent').optional(), name: z.string().optional(), ...ifiFields })
  .refine((a) => ifiCount(a) === 1, 'An agent has exactly one inverse functional identifier.');
const groupSchema = z
  .strictObject({
    objectType: z.literal('Group'),
    name: z.string().optional(),
    member: z.array(agentSchema).optional(),
    ...ifiFields,
  })
  .refine(
    (g) => ifiCount(g) === 1 || (ifiCount(g) === 0 && (g.member?.length ?? 0) > 0),
    'A group has one identifier, or is anonymous with members.',
  );
const actorSchema = z.union([agentSchema, groupSchema]);
/** An Agent as a statement's object names itself (xAPI-Data.md §2.4.4.2: objectType required). */
const agentObjectSchema = z
  .strictObject({ objectType: z.literal('Agent'), name: z.string().optional(), ...ifiFields })
  .refine((a) => ifiCount(a) === 1, 'An agent has exactly one inverse functional identifier.');
/**
 * xAPI-Data.md §2.4.9: the authority is an Agent, or — for OAuth 3-legged — an anonymous Group
 * of exactly two Agents (the consumer and the user).
 */
export const authoritySchema = z.union([
  agentSchema,
  z.strictObject({
    objectType: z.literal('Group'),
    name: z.string().optional(),
    member: z.array(agentSchema).length(2),
  }),
]);

const verbSchema = z.strictObject({ id: iri, display: languageMap.optional() });

/** xAPI-Data.md §2.4.4.1.1: the ten interaction types. */
/** xAPI 1.0.3's interaction types (Data 2.4.4.1.1): the schema's, and what a SCORM commit maps to. */
export const INTERACTION_TYPES = [
  'true-false',
  'choice',
  'fill-in',
  'long-fill-in',
  'matching',
  'performance',
  'sequencing',
  'likert',
  'numeric',
  'other',
] as const;
const INTERACTION_FIELDS = [
  'correctResponsesPattern',
  'choices',
  'scale',
  'source',
  'target',
  'steps',
] as const;
/** Interaction components: an id and an optional description (§2.4.4.1.3). */
const components = z.array(z.strictObject({ id: z.string().min(1), description: languageMap.optional() }));

export const activitySchema = z.strictObject({
  objectType: z.literal('Activity').optional(),
  id: iri,
  definition: z
    .strictObject({
      name: languageMap.optional(),
      description: languageMap.optional(),
      type: iri.optional(),
      moreInfo: iri.optional(),
      extensions: extensions.optional(),
      interactionType: z.enum(INTERACTION_TYPES).optional(),
      correctResponsesPattern: z.array(z.string()).optional(),
      choices: components.optional(),
      scale: components.optional(),
      source: components.optional(),
      target: components.optional(),
      steps: components.optional(),
    })
    .refine(
      (d) => d.interactionType !== undefined || INTERACTION_FIELDS.every((f) => d[f] === undefined),
      'Interaction properties need an interactionType.',
    )
    .optional(),
});
const statementRefSchema = z.strictObject({ objectType: z.literal('StatementRef'), id: uuid });

/**
 * `result.score`: `scaled` in −1..1; `raw` between `min` and `max`, `min` below `max`
 * (xAPI-Data.md §2.4.5.1).
 */
export const scoreSchema = z
  .strictObject({
    scaled: z.number().min(-1).max(1).optional(),
    raw: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .refine((s) => s.min === undefined || s.max === undefined || s.min < s.max, 'min must be less than max.')
  .refine(
    (s) =>
      s.raw === undefined ||
      ((s.min === undefined || s.raw >= s.min) && (s.max === undefined || s.raw <= s.max)),
    'raw must be between min and max.',
  );
const resultSchema = z.strictObject({
  score: scoreSchema.optional(),
  success: z.boolean().optional(),
  completion: z.boolean().optional(),
  response: z.string().optional(),
  duration: z.string().regex(DURATION, 'Expected an ISO 8601 duration.').optional(),
  extensions: extensions.optional(),
});
const activities = z.union([activitySchema, z.array(activitySchema)]);
const contextSchema = z.strictObject({
  registration: uuid.optional(),
  instructor: actorSchema.optional(),
  team: groupSchema.optional(),
  contextActivities: z
    .strictObject({
      parent: activities.optional(),
      grouping: activities.optional(),
      category: activities.optional(),
      other: activities.optional(),
    })
    .optional(),
  revision: z.string().optional(),
  platform: z.string().optional(),
  language: z.string().regex(LANGUAGE_TAG, 'Expected an RFC 5646 language tag.').optional(),
  statement: statementRefSchema.optional(),
  extensions: extensions.optional(),
});
const attachmentSchema = z.strictObject({
  usageType: iri,
  display: languageMap,
  description: languageMap.optional(),
  contentType: z.string().min(1),
  length: z.number().int().min(0),
  sha2: z.string().min(1),
  fileUrl: iri.optional(),
});

const core = {
  actor: actorSchema,
  verb: verbSchema,
  result: resultSchema.optional(),
  context: contextSchema.optional(),
  timestamp: timestamp.optional(),
  attachments: z.array(attachmentSchema).optional(),
};
const subStatementSchema = z
  .strictObject({
    objectType: z.literal('SubStatement'),
    ...core,
    object: z.union([activitySchema, agentObjectSchema, groupSchema, statementRefSchema]),
  })
  .refine(revisionOnActivities, 'context.revision and context.platform are for activity objects only.');

export const VOIDED = 'http://adlnet.gov/expapi/verbs/voided';

export const statementSchema = z
  .strictObject({
    id: uuid.optional(),
    ...core,
    object: z.union([activitySchema, agentObjectSchema, groupSchema, statementRefSchema, subStatementSchema]),
    // Set by the LRS; a client may send them (a copy from another LRS), they are replaced.
    stored: timestamp.optional(),
    authority: authoritySchema.optional(),
    version: z
      .string()
      .regex(/^1\.0(\.\d+)?$/, 'Only 1.0.x statements are accepted.')
      .optional(),
  })
  .refine(
    (s) => s.verb.id !== VOIDED || s.object.objectType === 'StatementRef',
    'A voiding statement has a StatementRef object.',
  )
  .refine(revisionOnActivities, 'context.revision and context.platform are for activity objects only.');

/** xAPI-Data.md §2.4.6: revision and platform only when the object is an Activity. */
function revisionOnActivities(s: {
  context?: { revision?: string | undefined; platform?: string | undefined } | undefined;
  object: { objectType?: string | undefined };
}): boolean {
  return (s.context?.revision === undefined && s.context?.platform === undefined) || isActivity(s.object);
}

function isActivity(o: { objectType?: string | undefined }): boolean {
  return o.objectType === undefined || o.objectType === 'Activity';
}

export type Statement = z.infer<typeof statementSchema>;
export type Agent = z.infer<typeof agentSchema>;
export type Actor = Statement['actor'];
export type Score = z.infer<typeof scoreSchema>;

/** The key an agent is matched by: its one inverse functional identifier (xAPI-Data.md §2.4.2.3). */
export function actorKey(a: Ifi): string | null {
  if (a.mbox !== undefined) return `mbox:${a.mbox.toLowerCase()}`;
  if (a.mbox_sha1sum !== undefined) return `sha1:${a.mbox_sha1sum.toLowerCase()}`;
  if (a.openid !== undefined) return `openid:${a.openid}`;
  const acc = a.account as { homePage?: string; name?: string } | undefined;
  if (acc?.homePage !== undefined) return `account:${acc.homePage}|${acc.name ?? ''}`;
  return null;
}
