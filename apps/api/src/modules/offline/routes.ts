import { z } from 'zod';
import { scoringSchema } from '@parcours/domain/contract/lessons';
import { lessonPageAttributesSchema } from '@parcours/domain/contract/player';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import { collectionDocumentSchema } from '../../plugins/jsonapi';
import { collectionOf, documented } from '../../plugins/contract';
import { offlinePageResource } from '../../plugins/resources';
import type { Resource } from '../../plugins/jsonapi';
import { VersionedContentCache } from '../lesson-pages/content-cache';
import { frontierOf, loadAll, loadLesson } from '../lesson-pages/context';
import type { Loaded, PlayerContext } from '../lesson-pages/context';
import type { Slot } from '../lesson-pages/plan';
import { accommodatedLimit } from '@parcours/domain/time-accommodation';
import { lessonLimitOf } from '../lesson-pages/limits';
import { timeLimitOf } from '../lesson-pages/limits';
import { nodeView } from '../lesson-pages/serializer';
import { parseJson } from '../../db/schema';

/**
 * Offline lessons (issue 12, decision 0013): the public views of the pages a learner has not
 * reached yet, so the device can show them on a train. Read-only on purpose: GET …/pages/current
 * and POST …/pages/next create pages and move the learner, this call moves nothing. Built only
 * from `blockView`/`nodeView` (the page document's public parts): never a solution, validator,
 * hint text or answer-tied feedback. Grading stays on the server when the queued answers arrive.
 */

/**
 * Why a page cannot be played offline: its clock, its module, its choice or its conditions
 * (whether it is shown at all depends on grades only the server gives, decision 0051) are the server's.
 */
export type NeedsNetwork = 'timed' | 'tincan' | 'multiblock' | 'conditions' | null;

const MAX_PAGES = 50;

const offlineMeta = z.object({
  meta: z.object({
    total: z.number().int(),
    page: z.object({ number: z.number().int(), size: z.number().int() }),
    lesson: z.object({
      // The stored scoring as is: `global` is absent until the lesson's first score.
      lessonScoring: z.object({ global: scoringSchema.shape.global.optional() }),
      courseTypeSettings: lessonPageAttributesSchema.shape.courseTypeSettings,
      needsNetwork: z.enum(['timed']).nullable(),
      started: z.boolean(),
    }),
  }),
});
// Typed for the contract; serialised through the envelope with its meta, as before (plugins/contract.ts).
const offlineDocumentSchema = documented(
  collectionOf(offlinePageResource).extend(offlineMeta.shape),
  collectionDocumentSchema.extend(offlineMeta.shape),
);

async function upcoming(ctx: PlayerContext, l: Loaded, slots: Slot[]): Promise<Resource[]> {
  const count = l.plan.slots.length;
  const out: Resource[] = [];
  for (const slot of slots) {
    const node = slot.node;
    const content = node.blockId ? await ctx.cache.block(ctx.db, ctx.contextId, node.blockId) : null;
    const block = content ? ctx.cache.view(content) : null;
    // Decision 0019: the learner's own limit (a page not opened yet has only its node's). With
    // no limit there is no clock for the server to keep: the page can be played offline.
    const timeLimit = accommodatedLimit(timeLimitOf(node), l.accommodation);
    const view = nodeView(node);
    const needsNetwork: NeedsNetwork =
      node.type === 'multiblock'
        ? 'multiblock'
        : slot.conditions.length > 0
          ? 'conditions'
          : timeLimit !== null
            ? 'timed'
            : block?.type === 'tincan'
              ? 'tincan'
              : null;
    out.push({
      type: 'offline-pages',
      id: `${l.lesson.id}:${node.id}`,
      attributes: {
        lessonId: l.lesson.id,
        nodeId: node.id,
        index: slot.index,
        count,
        sectionId: slot.sectionId,
        // The limit the player would send for this page, so the device shows no countdown.
        node: { ...view, settings: { ...view.settings, timeLimit } },
        block: needsNetwork === null ? block : null,
        needsNetwork,
      },
    });
  }
  return out;
}

export const offlineRoutes: FastifyPluginAsyncZod = async (app) => {
  // Under the content stamp read with the viewer, as the player's (decision 0025): a page kept
  // for offline use is never older than the content the player would show.
  const caches = new VersionedContentCache();
  app.get(
    '/offline/lessons/:id/pages',
    {
      onRequest: [app.auth.requireHomeUser],
      schema: {
        tags: ['lesson player'],
        summary:
          "The public views of the lesson's pages after the furthest one reached, for offline use (moves nothing).",
        params: z.object({ id: z.string().min(1).max(200) }),
        querystring: z.strictObject({
          limit: z.coerce.number().int().min(1).max(MAX_PAGES).optional(),
        }),
        response: { 200: offlineDocumentSchema },
      },
    },
    async (request) => {
      const ctx: PlayerContext = {
        db: app.db,
        kind: app.dbKind,
        contextId: request.context.id,
        userId: currentUser(request).id,
        receivedAt: new Date(),
        cache: caches.at(currentUser(request).homeVersions?.content),
      };
      // 'read' without sync: judged open like a correction read, and nothing is written.
      const lesson = await loadLesson(ctx, request.params.id, 'read');
      const l = await loadAll(ctx, lesson);
      const limit = request.query.limit ?? MAX_PAGES;
      const from = frontierOf(l) + 1;
      const slots = l.plan.slots.slice(from, from + limit);
      const data = await upcoming(ctx, l, slots);
      return {
        data,
        meta: {
          total: Math.max(l.plan.slots.length - from, 0),
          page: { number: 1, size: limit },
          // A lesson not opened on this device yet (decision 0020: the next unlocked ones are kept
          // ahead) has no page document to take these from; a timed lesson needs the server.
          lesson: {
            lessonScoring: parseJson(l.lesson.scoring, { global: { actual: 0, max: 0 } }),
            courseTypeSettings: l.settings,
            needsNetwork: lessonLimitOf(l.accommodation, l.lesson) !== null ? ('timed' as const) : null,
            started: from > 0,
          },
        },
      };
    },
  );
};
