import { readSummary } from '../../content/packages/store';
import type { Credential } from '../lrs/credentials';
import type { LrsOptions } from '../lrs/resource';
import type { Statement } from '../lrs/statement-schema';
import type { StoredStatement } from '../lrs/store';
import { afterCmi5Statements, checkCmi5Statements, launchOfCredential, markPreferencesRead } from './cmi5';
import type { SessionState } from './cmi5-rules';
import { countStatements } from './runtime';

/** What a check before storing leaves for after: the cmi5 session's state once they are stored. */
export interface PackageCheck {
  state: SessionState | null;
}

async function cmi5Of(o: LrsOptions, cred: Credential) {
  const launch = await launchOfCredential(o.db, cred);
  if (!launch || launch.kind !== 'cmi5') return { launch, course: null };
  const store = o.request.server.files;
  const summary = store ? await readSummary(store, launch.contextId, launch.packageId) : null;
  return { launch, course: summary?.cmi5 ?? null };
}

/**
 * Before the LRS stores statements sent with launch credentials: a cmi5 launch's statements are
 * checked against the session (issue 39; 403 with the reason for the first refused).
 */
export async function beforePackageStatements(
  o: LrsOptions,
  cred: Credential,
  statements: Statement[],
): Promise<PackageCheck> {
  const { launch, course } = await cmi5Of(o, cred);
  if (!launch || !course) return { state: null };
  return { state: await checkCmi5Statements(o.db, launch, course, statements) };
}

/** The AU read its learner preferences with launch credentials (cmi5 §11). */
export async function afterPreferencesRead(o: LrsOptions, cred: Credential): Promise<void> {
  const launch = await launchOfCredential(o.db, cred);
  if (launch?.kind === 'cmi5') await markPreferencesRead(o.db, o.kind, launch);
}

/**
 * What the LRS does after storing statements sent with launch credentials, for a package launch
 * (issue 31): counts them (the bridge's progress), and for cmi5 keeps the session's state, ends
 * the session and applies moveOn. True when the package decided the page's score (cmi5): the
 * module rule (a completed or passed statement with a score, lrs/scoring.ts) is then not
 * applied; an xAPI package keeps it.
 */
export async function afterPackageStatements(
  o: LrsOptions,
  cred: Credential,
  inserted: StoredStatement[],
  check: PackageCheck,
): Promise<boolean> {
  const { launch, course } = await cmi5Of(o, cred);
  if (!launch) return false;
  await countStatements(o.db, o.kind, launch.key, inserted.length);
  if (launch.kind !== 'cmi5') return false;
  if (course && check.state) {
    try {
      await afterCmi5Statements(
        { db: o.db, kind: o.kind, now: o.now, log: o.request.log },
        launch,
        course,
        inserted,
        check.state,
      );
    } catch (err) {
      o.request.log.error({ err, pageId: launch.pageId }, 'cmi5 moveOn not evaluated');
    }
  }
  return true;
}
