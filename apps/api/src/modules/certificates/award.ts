import type { FastifyInstance, FastifyRequest } from 'fastify';
import { writeTx } from '../../db/tx';
import type { Viewer } from '../scope';
import type { CertificateRow } from './repository';
import { findAwarded, insertAwarded } from './repository';
import { achievementOf, certifiableLesson, newCertificateId } from './service';
import type { Achievement } from './service';
import { completeCredential, signCredentialForms } from './signed-credential';
import { drawStatusIndex } from './status-list';

/** A drawn status index taken by another certificate of the tenant meanwhile: drawn again. */
const MAX_ATTEMPTS = 8;

/**
 * The award of a certificate (decision 0065): the one write of the certificates a learner makes,
 * a POST. The certificate of this completion is stored with its signed credential, both forms,
 * in one statement — the public id, the status list entry, the JWT and the embedded proof
 * together or nothing — so every later download (GET, reads only) serves what was signed here.
 *
 * Signing happens before the write (it reads the tenant's keys, and a new tenant's first key is
 * made there, as before), so the write itself holds no lock while it signs. Two awards at once:
 * the unique (lesson, completion) index keeps the first stored, the other reads it back.
 * A certificate awarded before this decision, without its credential, is completed here.
 *
 * Not charged to the write budget: one certificate per completion of a lesson bounds it
 * (quotas/tables.ts BOUNDED), as before.
 */
export async function awardCertificate(
  app: FastifyInstance,
  request: FastifyRequest,
  v: Viewer,
  lessonId: string,
  opts: { secret: string; publicUrl?: string | undefined },
): Promise<{ achievement: Achievement; created: boolean }> {
  const c = await certifiableLesson(app, request, v, lessonId, opts.publicUrl);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const existing = await findAwarded(app.db, c.lessonId, c.issuedFor);
    if (existing) return { achievement: await completed(app, request, v, c, existing, opts), created: false };
    const id = newCertificateId();
    const statusIndex = await drawStatusIndex(app.db, v.contextId);
    const signed = await signCredentialForms(app.db, request.context, opts.secret, {
      certificateId: id,
      snapshot: c.snapshot,
      locale: c.locale,
      origin: c.origin,
      learnerEmail: c.learnerEmail,
      courseId: c.courseId,
      userId: v.userId,
      statusIndex,
    });
    await writeTx(app.db, app.dbKind, (trx) =>
      insertAwarded(trx, {
        id,
        contextId: v.contextId,
        lessonId: c.lessonId,
        userId: v.userId,
        issuedFor: c.issuedFor,
        snapshot: JSON.stringify(c.snapshot),
        createdAt: v.now,
        statusIndex,
        credentialJwt: signed.jwt,
        credentialLd: JSON.stringify(signed.ld),
      }),
    );
    const stored = await findAwarded(app.db, c.lessonId, c.issuedFor);
    if (stored) return { achievement: achievementOf(c, stored), created: stored.id === id };
  }
  throw new Error('no status list index could be given');
}

async function completed(
  app: FastifyInstance,
  request: FastifyRequest,
  v: Viewer,
  c: Parameters<typeof achievementOf>[0],
  row: CertificateRow,
  opts: { secret: string },
): Promise<Achievement> {
  if (row.credentialJwt && row.credentialLd) return achievementOf(c, row);
  await completeCredential(app, achievementOf(c, row), v.userId, request.context, opts.secret);
  return achievementOf(c, (await findAwarded(app.db, c.lessonId, c.issuedFor)) ?? row);
}
