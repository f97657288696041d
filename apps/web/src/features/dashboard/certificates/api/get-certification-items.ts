import type { CertificationItemAttributes } from '@parcours/domain/certification';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../../lib/api-collection';
import { certificateKeys } from './query-keys';

/** docs/product.md §3 Certification item: the API's type, shared through the domain package. */
export type { CertificationItemAttributes } from '@parcours/domain/certification';

export interface CertificationItem extends CertificationItemAttributes {
  id: string;
}

/** Every one of the signed-in learner's items (a learner has a handful; the API pages them). */
export async function getCertificationItems(signal?: AbortSignal): Promise<CertificationItem[]> {
  const doc = await fetchCollection<CertificationItemAttributes>('certification-items', {}, signal);
  return doc.data.map((r) => ({ ...r.attributes, id: r.id }));
}

export const certificationItemsQueryOptions = () =>
  queryOptions({ queryKey: certificateKeys.items(), queryFn: ({ signal }) => getCertificationItems(signal) });

export function useCertificationItems() {
  return useQuery(certificationItemsQueryOptions());
}
