/**
 * DEMO ONLY: a learner's totals and score records (docs/product.md §3 Record) derived from their history
 * pages, so the dashboard's XP has a past to compare with. Written as the server would have:
 * `users.scoring.xp` (Σ page scores), `donePageCount`, `timeAlive` (Σ page time), and one
 * record per UTC day with answered pages, holding the totals at that day's last page, under the
 * id the server uses for that day (modules/records/repository.ts writeDailyRecord).
 */
import { stableId } from '../../lib/ids';
import type { TenantWrite } from './context';
import { json } from './context';

export interface DonePage {
  answeredAt: string;
  xp: number;
  timeSpent: number;
}

export interface DailyRecord {
  id: string;
  date: string;
  scoring: { xp: number; donePageCount: number; timeAlive: number };
}

/** Pure: the running totals at the last page of each UTC day, oldest first. */
export function dailyRecords(userId: string, pages: DonePage[]): DailyRecord[] {
  const sorted = [...pages].sort((a, z) => a.answeredAt.localeCompare(z.answeredAt));
  const out: DailyRecord[] = [];
  let xp = 0;
  let timeAlive = 0;
  sorted.forEach((p, i) => {
    xp = Math.round((xp + p.xp) * 100) / 100;
    timeAlive += p.timeSpent;
    const day = p.answeredAt.slice(0, 10);
    const record = {
      id: stableId(userId, 'record', day),
      date: p.answeredAt,
      scoring: { xp, donePageCount: i + 1, timeAlive },
    };
    if (out.at(-1)?.id === record.id) out[out.length - 1] = record;
    else out.push(record);
  });
  return out;
}

export async function writeLearnerTotals(tw: TenantWrite, userId: string, pages: DonePage[]): Promise<void> {
  const { w, contextId } = tw;
  const records = dailyRecords(userId, pages);
  const total = records.at(-1)?.scoring ?? { xp: 0, donePageCount: 0, timeAlive: 0 };
  await w.upsert(
    'users',
    { id: userId },
    { scoring: json({ xp: total.xp }), donePageCount: total.donePageCount, timeAlive: total.timeAlive },
    'users (demo history)',
  );
  for (const r of records)
    await w.upsert('records', { id: r.id }, { contextId, userId, date: r.date, scoring: json(r.scoring) });
  // Relative dates move with the import day: yesterday's records of a re-import would linger.
  await w.prune(
    'records',
    'userId',
    userId,
    'id',
    records.map((r) => r.id),
  );
}
