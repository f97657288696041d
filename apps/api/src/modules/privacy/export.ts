import { z } from 'zod';
import type { Db, DbKind } from '../../db/db';
import { jsonAnswer } from '../../plugins/answers';
import { learnerOf } from './learner';
import { REGISTER } from './register';

/**
 * A learner's data as one JSON document (issue 29 item 9; GDPR articles 15 and 20: access and
 * portability), made by walking the register (decision 0056): one section per entry that is
 * exported, each entry's rows with JSON columns read as JSON. What the register leaves out says
 * why there (a secret, an index of what is exported); pages are shown as the player shows them
 * to her at this moment.
 */
export const EXPORT_FORMAT = 'parcours-learner-data/1';

const row = z.record(z.string(), z.unknown()).describe("A row of the section's table, JSON columns as JSON.");

/** The document's shape, from the register: the account one object, every other section a list. */
const sections: Record<string, z.ZodType> = Object.fromEntries(
  REGISTER.flatMap((entry) =>
    'section' in entry.export ? [[entry.export.section, entry.table === 'users' ? row : z.array(row)]] : [],
  ),
);
export const learnerExportAnswer = jsonAnswer(
  z.object({ format: z.literal(EXPORT_FORMAT), exportedAt: z.string(), ...sections }),
);

/** JSON text columns as values; everything else unchanged. */
function readable(row: unknown): unknown {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return row;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && /^[[{]/.test(value)) {
      try {
        out[key] = JSON.parse(value) as unknown;
        continue;
      } catch {
        // Text that only looks like JSON stays text.
      }
    }
    out[key] = value;
  }
  return out;
}

export async function learnerExport(db: Db, kind: DbKind, contextId: string, userId: string, now: Date) {
  const who = await learnerOf(db, contextId, userId);
  const data: { format: typeof EXPORT_FORMAT; exportedAt: string; [section: string]: unknown } = {
    format: EXPORT_FORMAT,
    exportedAt: now.toISOString(),
  };
  for (const entry of REGISTER) {
    if (!('section' in entry.export)) continue;
    const rows = (await entry.export.rows({ db, kind, who, now })).map(readable);
    // The account is one object; every other section a list.
    data[entry.export.section] = entry.table === 'users' ? rows[0] : rows;
  }
  return data;
}
