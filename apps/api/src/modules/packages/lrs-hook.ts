import { readSummary } from '../../content/packages/store';
import type { Credential } from '../lrs/credentials';
import type { LrsOptions } from '../lrs/resource';
import type { StoredStatement } from '../lrs/store';
import { afterCmi5Statements, launchOfCredential } from './cmi5';
import { countStatements } from './runtime';

/**
 * What the LRS does after storing statements sent with launch credentials, for a package launch
 * (issue 31): counts them (the bridge's progress), and for cmi5 ends the session and applies
 * moveOn. True when the package decided the page's score (cmi5): the module rule (a completed or
 * passed statement with a score, lrs/scoring.ts) is then not applied; an xAPI package keeps it.
 */
export async function afterPackageStatements(
  o: LrsOptions,
  cred: Credential,
  inserted: StoredStatement[],
): Promise<boolean> {
  const launch = await launchOfCredential(o.db, cred);
  if (!launch) return false;
  await countStatements(o.db, o.kind, launch.key, inserted.length);
  if (launch.kind !== 'cmi5') return false;
  const store = o.request.server.files;
  const summary = store ? await readSummary(store, launch.contextId, launch.packageId) : null;
  if (summary?.cmi5) {
    try {
      await afterCmi5Statements(
        { db: o.db, kind: o.kind, now: o.now, log: o.request.log },
        launch,
        summary.cmi5,
        inserted,
      );
    } catch (err) {
      o.request.log.error({ err, pageId: launch.pageId }, 'cmi5 moveOn not evaluated');
    }
  }
  return true;
}
