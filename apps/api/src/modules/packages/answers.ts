import { z } from 'zod';
import { jsonAnswer, noBody } from '../../plugins/answers';

/** What the package routes answer (docs/api.md "Packages"), for /api/docs and the API tests. */

export const launch = jsonAnswer(
  z.object({
    url: z.string().describe("The bridge's URL on the packages origin; its secret is in the fragment."),
    origin: z.string().describe('The packages origin, where the frame is allowed.'),
    expiresAt: z.string(),
  }),
);

/** cmi5 §8.2: 200 with JSON whatever happens, the token once, then an error code. */
export const fetched = jsonAnswer(
  z.union([
    z.object({ 'auth-token': z.string().describe('Base64 of the launch credentials, for Basic.') }),
    z
      .object({ 'error-code': z.enum(['1', '2']), 'error-text': z.string() })
      .describe('1: already returned, or the session is over; 2: no such fetch URL.'),
  ]),
);

export const done = noBody('Done.');
