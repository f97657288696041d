import type { BlockView, Document, NodeView, Resource } from '@parcours/domain/entities';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { indexDocument, relatedMany, relatedOne } from '../../../lib/json-api';
import type { CourseNodeAttributes, CourseNodeResource } from './get-course-node';
import type { PageResource } from './get-page-resources';
import { playerKeys } from './query-keys';

/**
 * What node mode shows beside the block (GET course-nodes/{id}/guidance): its place among its
 * parent's children, the free hints (a paid hint is read in the lesson, decision 0018) and the
 * general feedbacks shown before Next (SPEC §4 Next flow).
 */
export interface NodeGuidance {
  position: { index: number; count: number } | null;
  hints: { messages: string[]; total: number };
  feedbacks: { preset: string; message: string }[];
}

const nodeModeKeys = {
  guidance: (nodeId: string) => [...playerKeys.all, 'node-guidance', nodeId] as const,
  resources: (nodeId: string) => [...playerKeys.all, 'node-resources', nodeId] as const,
};

export async function getNodeGuidance(nodeId: string, signal?: AbortSignal): Promise<NodeGuidance> {
  const doc = await apiFetch<{ data: { attributes: NodeGuidance } }>(
    `course-nodes/${encodeURIComponent(nodeId)}/guidance`,
    { signal },
  );
  return doc.data.attributes;
}

export function useNodeGuidance(nodeId: string | null) {
  return useQuery({
    queryKey: nodeModeKeys.guidance(nodeId ?? ''),
    queryFn: ({ signal }) => getNodeGuidance(nodeId ?? '', signal),
    enabled: nodeId !== null,
    retry: false,
  });
}

type BlockAttributes = Omit<BlockView, 'id' | 'type' | 'terms'> & { kind: BlockView['type'] };

function nodeViewOf(r: CourseNodeResource): NodeView {
  const a: CourseNodeAttributes = r.attributes;
  return {
    id: r.id,
    type: a.kind,
    title: a.title,
    parentId: a.parentId,
    settings: a.settings,
    tools: a.tools,
    attachmentIds: a.attachmentIds,
  };
}

/**
 * The resource nodes under a block node (SPEC §3 "a block holds resources"): its children with
 * their blocks, in the shape the toolbar's resources list reads in page mode.
 */
export async function getNodeResources(nodeId: string, signal?: AbortSignal): Promise<PageResource[]> {
  const doc = await apiFetch<Document<CourseNodeResource>>(`course-nodes/${encodeURIComponent(nodeId)}`, {
    query: { include: 'children.block' },
    signal,
  });
  const index = indexDocument(doc);
  return relatedMany<CourseNodeAttributes>(doc.data, 'children', index)
    .sort((a, b) => a.attributes.order - b.attributes.order)
    .map((child) => {
      const block = relatedOne<BlockAttributes>(child, 'block', index) as Resource<
        string,
        BlockAttributes
      > | null;
      return {
        node: nodeViewOf(child),
        block: block
          ? {
              id: block.id,
              title: block.attributes.title,
              type: block.attributes.kind,
              settings: block.attributes.settings,
              content: block.attributes.content,
              terms: [],
            }
          : null,
      };
    });
}

export function useNodeResources(nodeId: string | null) {
  return useQuery({
    queryKey: nodeModeKeys.resources(nodeId ?? ''),
    queryFn: ({ signal }) => getNodeResources(nodeId ?? '', signal),
    enabled: nodeId !== null,
    retry: false,
  });
}
