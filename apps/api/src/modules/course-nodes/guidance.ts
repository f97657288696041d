import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { blockSolutionSchema } from '@parcours/domain/exercises/solution';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { courseTypeSettingsText, solutionOf } from '../lesson-pages/repository';
import { gradingSettings, hintsOf } from '../lesson-pages/serializer';
import type { Viewer } from '../scope';
import { notFound, scopeOf } from '../scope';
import type { NodeRow } from './repository';
import { childrenOf, nodesByIds } from './repository';

/**
 * What node mode (docs/product.md §2 /render/node/{id}) shows beside the block, none of it recorded:
 * - progression: the node's place among its parent's children (a multiblock's child counts as
 *   its multiblock);
 * - hints, revealed by click (docs/product.md §4): only the free ones (cost 0). A hint with a cost is paid
 *   for in the lesson, so node mode must not be a free way to read it (decision 0018); the total
 *   says how many more the lesson holds;
 * - feedback before Next (docs/product.md §4 Next flow): the block's general feedbacks given whatever the
 *   answer (`when: always`); nothing is graded here, so no answer-tied feedback can be chosen
 *   and none leaves the server. None when the course type turns feedbacks off, and none while
 *   the learner can still answer the block for a grade in one of their lessons (issue 29 K-1:
 *   a general feedback may state the answer — the demo's `pct-associer` lists every expected
 *   pair): node mode then shows what the page shows before an answer.
 */
export interface NodeGuidance {
  position: { index: number; count: number } | null;
  hints: { messages: string[]; total: number };
  feedbacks: { preset: string; message: string }[];
}

async function positionOf(db: Db, v: Viewer, node: NodeRow): Promise<NodeGuidance['position']> {
  let at = node;
  if (at.parentId) {
    const [parent] = await nodesByIds(db, v, [at.parentId]);
    if (parent?.type === 'multiblock') at = parent;
  }
  if (!at.parentId) return null;
  const siblings = await childrenOf(db, v, [at.parentId]);
  const index = siblings.findIndex((s) => s.id === at.id);
  return index < 0 ? null : { index, count: siblings.length };
}

/**
 * Whether the viewer has a lesson not ended (neither SKIPPED nor COMPLETED) of a course using
 * this block where no page of it has been answered yet: there, the block can still be graded.
 */
async function stillGradable(db: Db, v: Viewer, blockId: string): Promise<boolean> {
  const row = await db
    .selectFrom('lessons as l')
    .innerJoin('courseNodes as n', (j) =>
      j.onRef('n.courseId', '=', 'l.courseId').on('n.blockId', '=', blockId),
    )
    .select('l.id')
    .where('l.userId', '=', v.userId)
    .where('l.contextId', '=', v.contextId)
    .where('l.state', '<>', 'SKIPPED')
    .where((eb) => eb.or([eb('l.progress', 'is', null), eb('l.progress', '<>', 'COMPLETED')]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('lessonPages as p')
            .select('p.id')
            .whereRef('p.lessonId', '=', 'l.id')
            .whereRef('p.nodeId', '=', 'n.id')
            .where('p.answeredAt', 'is not', null),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function nodeGuidance(db: Db, v: Viewer, node: NodeRow): Promise<NodeGuidance> {
  const position = await positionOf(db, v, node);
  if (!node.blockId) return { position, hints: { messages: [], total: 0 }, feedbacks: [] };
  const block = await db
    .selectFrom('courseBlocks')
    .select('settings')
    .where('id', '=', node.blockId)
    .where('contextId', '=', v.contextId)
    .executeTakeFirst();
  const hints = block ? hintsOf(block.settings) : [];
  const settings = gradingSettings(await courseTypeSettingsText(db, node.courseId));
  const solution = blockSolutionSchema.safeParse(parseJson(await solutionOf(db, node.blockId), null));
  const feedbacks =
    settings.feedbacks && solution.success && !(await stillGradable(db, v, node.blockId))
      ? solution.data.feedbacks
          .filter((f) => f.when === 'always')
          .map(({ preset, message }) => ({ preset, message }))
      : [];
  return {
    position,
    hints: { messages: hints.filter((h) => h.cost === 0).map((h) => h.message), total: hints.length },
    feedbacks,
  };
}

export const courseNodeGuidanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/course-nodes/:id/guidance',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['courses'],
        summary: "Node mode: the node's progression, free hints and general feedbacks.",
        params: z.object({ id: z.string().min(1).max(200) }),
        querystring: z.strictObject({}),
        response: {
          200: z.object({
            data: z.object({
              type: z.literal('node-guidance'),
              id: z.string(),
              attributes: z.object({
                position: z.object({ index: z.number(), count: z.number() }).nullable(),
                hints: z.object({ messages: z.array(z.string()), total: z.number() }),
                feedbacks: z.array(z.object({ preset: z.string(), message: z.string() })),
              }),
            }),
          }),
        },
      },
    },
    async (request) => {
      const { viewer } = scopeOf(app.db, request);
      const [node] = await nodesByIds(app.db, viewer, [request.params.id]);
      if (!node) throw notFound('Node');
      return {
        data: {
          type: 'node-guidance' as const,
          id: node.id,
          attributes: await nodeGuidance(app.db, viewer, node),
        },
      };
    },
  );
};
