import { z } from 'zod';
import { bytes, jsonAnswer, noBody, storedContent } from '../../plugins/answers';
import { SCOPES } from './principal';
import { activitySchema, agentSchema, statementSchema, uuid } from './statement-schema';

/**
 * What the learning record store answers (xAPI 1.0.3, docs/api.md "Learning records"), for
 * /api/docs and the contract check of the API tests. The statements it answers are held to the
 * schema it validates the ones it receives with: what it stores, it can be sent again.
 */

const statement = statementSchema.meta({
  id: 'XapiStatement',
  description: 'An xAPI 1.0.3 statement, with the id, stored, authority and version the LRS set.',
});

export const about = jsonAnswer(
  z.object({ version: z.array(z.string()).describe('The xAPI versions this LRS speaks.') }),
);

export const moduleLaunch = jsonAnswer(
  z.object({
    endpoint: z.string().describe('The LRS endpoint the module sends its statements to (ends with /).'),
    auth: z.string().describe('`Basic …`: the launch credentials, for this launch only.'),
    actor: agentSchema,
    registration: uuid,
    expiresAt: z.string().describe('When the launch credentials stop working (ISO 8601).'),
  }),
);

const client = z.object({
  key: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  createdAt: z.string(),
});
export const createdClient = jsonAnswer(
  client.extend({ secret: z.string().describe('Shown once: only its hash is kept.') }),
);
export const clientList = jsonAnswer(z.object({ clients: z.array(client) }));

export const storedIds = jsonAnswer(
  z.array(uuid).describe('The ids of the statements stored, in the order they were sent.'),
);

const statementResult = z.object({
  statements: z.array(statement),
  more: z.string().describe('The URL of the next page of the query, or "" on the last one.'),
});
export const statementsAnswer = jsonAnswer(
  z.union([
    statement,
    statementResult,
    bytes('With `attachments=true`: multipart/mixed, the JSON first, then the attachments it names.'),
  ]),
);

export const documentAnswer = jsonAnswer(
  z.union([
    z.array(z.string()).describe('Without the document id: the ids stored (since `since`).'),
    storedContent('With the document id: the document, in the media type it was stored with.'),
  ]),
);

export const person = jsonAnswer(
  z.object({
    objectType: z.literal('Person'),
    name: z.array(z.string()).optional(),
    mbox: z.array(z.string()).optional(),
    mbox_sha1sum: z.array(z.string()).optional(),
    openid: z.array(z.string()).optional(),
    account: z.array(z.object({ homePage: z.string(), name: z.string() })).optional(),
  }),
);

export const activity = jsonAnswer(activitySchema);

/**
 * A POST with `?method=` (the Alternate Request Syntax, §1.3) answers what the request it stands
 * for answers: a POST to a resource answers its own answer or any of the others'.
 */
export const statementsPosted = jsonAnswer(
  z.union([storedIds, statementsAnswer]).describe('The ids stored; with ?method=GET, what the GET answers.'),
);
export const documentPosted = documentAnswer;

export const stored = noBody('Stored.');
export const deleted = noBody('Deleted.');
