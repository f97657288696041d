import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/db';
import { sendCachedAnswer } from '../../lib/answer-cache';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { blocksByIds, findOwnLesson, findPage, planNodes, termsOfBlocks } from '../lesson-pages/repository';
import { ownPlayerRead } from '../lesson-pages/own-reads';
import { blockView, nodeView } from '../lesson-pages/serializer';
import { jsonStrings } from '../programs/serializer';
import { notFound } from '../scope';

const CLOSED_STATES = new Set(['LOCKED', 'HIDDEN', 'EXPIRED']);
const fileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  fileType: z.string(),
  size: z.number(),
  download: z.string(),
});

/**
 * The answer's schema. The document is built with its keys in this order, so that the bytes sent
 * (`JSON.stringify`, lib/answer-cache.ts) are those the route's serialiser sent before.
 */
export const pageResourcesAnswer = z.object({
  data: z.array(
    z.object({
      type: z.literal('page-resources'),
      id: z.string(),
      attributes: z.object({
        block: z.record(z.string(), z.unknown()).nullable(),
        node: z.record(z.string(), z.unknown()),
      }),
    }),
  ),
  meta: z.object({ files: z.array(fileSchema) }),
});
type PageResources = z.infer<typeof pageResourcesAnswer>;

/**
 * `GET /pages/{id}/resources?lessonId=` (docs/product.md §7): what the toolbar's resources list shows for a
 * lesson page — the resource nodes under the page's node with their blocks (`page-resources`
 * resources, id of the node), and the files attached to the node and its block (`meta.files`:
 * JSON:API allows no other top-level member).
 */
export const pageResourceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/pages/:id/resources',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['lesson player'],
        summary: "Resources of one of the learner's lesson pages.",
        params: z.object({ id: z.string().min(1).max(200) }),
        querystring: z.strictObject({ lessonId: z.string().min(1).max(200), noCache: z.string().optional() }),
        response: { 200: pageResourcesAnswer },
      },
    },
    async (request, reply) =>
      // Only ever the learner's own lesson (anyone else's is a 404): served from the answer cache
      // while their stamps say nothing it shows changed — their lesson and page (`u:`), the
      // course's nodes, blocks and terms and its content media (`content`, migration 0033).
      // Nothing in it reads the clock (decision 0068).
      sendCachedAnswer(app.db, request, reply, ownPlayerRead(app, request, Date.now()), async () => ({
        document: await pageResources(
          app.db,
          request.context.id,
          currentUser(request).id,
          request.query.lessonId,
          request.params.id,
        ),
        validUntil: Infinity,
      })),
  );
};

async function pageResources(
  db: Db,
  contextId: string,
  userId: string,
  lessonId: string,
  pageId: string,
): Promise<PageResources> {
  const lesson = await findOwnLesson(db, contextId, userId, lessonId);
  if (!lesson) throw notFound('Lesson');
  if (CLOSED_STATES.has(lesson.state)) throw new ApiError(403, 'Forbidden', 'This lesson is not open.');
  const page = await findPage(db, lesson.id, pageId);
  if (!page) throw notFound('Page');
  const nodes = await planNodes(db, lesson.courseId);
  const node = nodes.find((n) => n.id === page.nodeId);
  if (!node) throw notFound('Page');
  // Resources are block nodes under a block node (decision 0018). A multiblock's children are
  // the blocks to choose from, not resources (K-2).
  const resources =
    node.type === 'block'
      ? nodes.filter((n) => n.parentId === node.id && n.type === 'block').sort((a, b) => a.order - b.order)
      : [];
  const blockIds = [
    ...new Set([node.blockId, ...resources.map((r) => r.blockId)].filter((b): b is string => !!b)),
  ];
  const [blocks, terms] = await Promise.all([
    blocksByIds(db, contextId, blockIds),
    termsOfBlocks(db, blockIds),
  ]);
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const own = node.blockId ? byId.get(node.blockId) : undefined;
  const fileIds = [
    ...new Set([...jsonStrings(node.attachmentIds), ...(own ? jsonStrings(own.attachmentIds) : [])]),
  ];
  const files = fileIds.length
    ? await db
        .selectFrom('files')
        .select(['id', 'name', 'type', 'fileType', 'size'])
        .where('contextId', '=', contextId)
        .where('id', 'in', fileIds)
        .execute()
    : [];
  return {
    data: resources.map((r) => {
      const b = r.blockId ? byId.get(r.blockId) : undefined;
      return {
        type: 'page-resources' as const,
        id: r.id,
        attributes: { block: b ? { ...blockView(b, terms) } : null, node: { ...nodeView(r) } },
      };
    }),
    meta: {
      files: files.map((f) => ({
        id: f.id,
        name: f.name,
        mimeType: f.type,
        fileType: f.fileType,
        size: f.size,
        download: `/api/files/${f.id}/download`,
      })),
    },
  };
}
