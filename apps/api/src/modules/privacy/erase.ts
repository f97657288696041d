import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Db, DbKind } from '../../db/db';
import type { FileStore } from '../../files/store';
import { removeFileBytes } from '../files/service';
import { writeTx } from '../../db/tx';
import { learnerOf } from './learner';
import { REGISTER, attachmentHashes, statementIdsOf } from './register';
import type { EraseRun } from './register';

/**
 * A tenant administrator erases a learner (issue 29 item 9; GDPR article 17) by walking the
 * register (decision 0056): each entry's rows are deleted, made anonymous, or kept for the reason
 * the register gives (figures of the class and the tenant, under an account that no longer says
 * who it was). One transaction: all of it or nothing. After the commit, the bytes of her uploads
 * go from the store that keeps them, and the mails of the outbox folder that name her.
 */
export async function eraseLearner(
  db: Db,
  kind: DbKind,
  store: FileStore | null,
  contextId: string,
  userId: string,
  now: Date,
  outboxDir?: string,
): Promise<void> {
  const { paths, email } = await writeTx(db, kind, async (trx) => {
    const who = await learnerOf(trx, contextId, userId);
    const run: EraseRun = {
      iso: now.toISOString(),
      // Read before anything goes: the index that finds them is among what is deleted.
      statementIds: (await statementIdsOf(trx, who, 'naming').execute()).map((r) => r.id),
      sha2s: await attachmentHashes(trx, who, 'naming'),
      paths: [],
    };
    for (const entry of REGISTER) if (entry.erase.action !== 'keep') await entry.erase.run(trx, who, run);
    return { paths: run.paths, email: who.email };
  });
  if (store) for (const p of paths) await removeFileBytes(store, p);
  if (outboxDir) await removeMailsNaming(outboxDir, email);
}

/** The outbox folder's mails (written without SMTP) that name the address: to her, or from her. */
async function removeMailsNaming(dir: string, email: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // No outbox folder: mail goes by SMTP.
  }
  const needle = email.toLowerCase();
  for (const name of names) {
    if (!name.endsWith('.eml')) continue;
    const file = path.join(dir, name);
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.toLowerCase().includes(needle)) await rm(file, { force: true });
  }
}
