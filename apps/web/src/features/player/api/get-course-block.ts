import type { CourseTermAttributes } from '@parcours/domain/contract/catalogue';
import type { BlockView, Document, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { indexDocument, relatedMany } from '../../../lib/json-api';
import { playerKeys } from './query-keys';

// The block type travels as `kind`: JSON:API forbids an attribute named `type`.
type BlockAttributes = Omit<BlockView, 'id' | 'terms' | 'type'> & {
  kind: BlockView['type'];
  terms?: BlockView['terms'];
};
type TermAttributes = CourseTermAttributes;

/** A block's public view with its glossary terms (node mode). */
export async function getCourseBlock(blockId: string, signal?: AbortSignal): Promise<BlockView> {
  const doc = await apiFetch<Document<Resource<string, BlockAttributes>>>(
    `course-blocks/${encodeURIComponent(blockId)}`,
    {
      query: { include: 'terms' },
      signal,
    },
  );
  const index = indexDocument(doc);
  const included = relatedMany<TermAttributes>(doc.data, 'terms', index).map((r) => ({
    id: r.id,
    ...r.attributes,
  }));
  const { kind, ...attributes } = doc.data.attributes;
  return {
    ...attributes,
    type: kind,
    id: doc.data.id,
    settings: { ...attributes.settings, hintCount: attributes.settings?.hintCount ?? 0 },
    content: { ...attributes.content, sections: attributes.content?.sections ?? [] },
    terms: included.length ? included : (attributes.terms ?? []),
  };
}

export const courseBlockQueryOptions = (blockId: string) =>
  queryOptions({
    queryKey: playerKeys.block(blockId),
    queryFn: ({ signal }) => getCourseBlock(blockId, signal),
  });

export function useCourseBlock(blockId: string | null) {
  return useQuery({ ...courseBlockQueryOptions(blockId ?? ''), enabled: blockId !== null });
}
