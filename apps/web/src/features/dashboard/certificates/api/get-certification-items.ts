import type { CertificationWording } from '@parcours/domain/certification';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../../lib/api-collection';
import { certificateKeys } from './query-keys';

/** SPEC §3 Certification item, as GET /api/certification-items serves it (docs/api.md). */
export interface CertificationItemAttributes {
  lessonId: string;
  course: { id: string; title: string; reference: string | null };
  class: { id: string; name: string };
  classProgram: { id: string | null; startAt: string | null; expireAt: string | null };
  scoreRatio: number;
  score: number;
  passingScore: number;
  percentProgression: number;
  ended: boolean;
  endedAt: string | null;
  certificationRef: string | null;
  wording: CertificationWording;
  certificateUrl: string | null;
  credentialUrl: string | null;
}

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
