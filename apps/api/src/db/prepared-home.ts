import type { Kysely } from 'kysely';
import { prepared } from './prepared';
import type { Database } from './schema';

/**
 * The home's prepared reads (decision 0015), apart from the player's (prepared.ts): the two
 * version stamps of migration 0014 — the learner's own rows and the tenants' content — in one
 * statement. A stamp never written reads as absent (version 0).
 */
export const homeVersionRows = prepared((db: Kysely<Database>, userKey: string) =>
  db.selectFrom('homeVersions').select(['key', 'version']).where('key', 'in', [userKey, 'content']),
);
