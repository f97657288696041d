import { ApiError } from '../../plugins/errors';
import { notFound } from '../scope';
import { issueCredential, launchTarget, learnerAgent, sameSecret } from './credentials';
import { emitStatements, launchedStatement } from './emit';
import type { LrsOptions } from './resource';
import type { Agent } from './statement-schema';

/** What the player puts in the module's address (docs/product.md §7). */
export interface LaunchParameters {
  endpoint: string;
  auth: string;
  actor: Agent;
  registration: string;
  expiresAt: string;
}

/**
 * POST /api/xapi/launches: the player opens a learning-module page. With the launch the server
 * issued with the page (`tincanLaunch`, decision 0009), the learner gets Basic credentials for
 * this launch and the parameters the module reads; a `launched` statement is recorded.
 */
export async function launchModule(
  o: LrsOptions,
  userId: string,
  body: { lessonId: string; pageId: string; launch: string },
): Promise<LaunchParameters> {
  const { db, kind, request, now } = o;
  const context = request.context;
  const target = await launchTarget(db, context.id, userId, body.lessonId, body.pageId);
  if (!target) throw notFound('Learning-module page');
  if (!sameSecret(target.launchToken, body.launch)) {
    throw new ApiError(403, 'Forbidden', 'This is not the launch issued for this page.', {
      pointer: '/launch',
    });
  }
  const user = await db
    .selectFrom('users')
    .select(['id', 'tincanIdentifier'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const { credential, secret, expiresAt } = await issueCredential(db, kind, context.id, target, now);
  const actor = learnerAgent(context, user);
  emitStatements(db, kind, context, [launchedStatement(actor, credential.registration, target, now)]);
  return {
    endpoint: `${request.protocol}://${request.host}/api/xapi/`,
    auth: `Basic ${Buffer.from(`${credential.key}:${secret}`).toString('base64')}`,
    actor,
    registration: credential.registration,
    expiresAt,
  };
}
