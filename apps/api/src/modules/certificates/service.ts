import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { displayName } from '@parcours/domain/display-name';
import { parseJson } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import { contextSettings } from '../contexts/service';
import type { Viewer } from '../scope';
import { notFound } from '../scope';
import { publicOrigin } from '../users/origin';
import { evaluate } from './items';
import type { Evaluated } from './items';
import type { CertificateRow, CertificateSnapshot } from './repository';
import { findAwarded, findOwnItem, snapshotOf } from './repository';
import { docLocale } from './texts';
import type { DocLocale } from './texts';

/** docs/product.md §6: the certificates feature is gated by the tenant's flag; the API says so too. */
export function assertCertificationAllowed(request: FastifyRequest): void {
  if (!contextSettings(request.context).certification.allowed) {
    throw new ApiError(403, 'Forbidden', 'Certificates are not enabled for this organisation.');
  }
}

const REFUSALS: Record<NonNullable<Evaluated['refusal']>, string> = {
  NOT_ENDED: 'The lesson has not ended yet: no certificate before its end.',
  NO_REFERENCE: 'This lesson has no certification reference.',
  BELOW_PASSING_SCORE: "The lesson's score is below the course's passing score.",
};

export interface Achievement {
  certificate: CertificateRow;
  snapshot: CertificateSnapshot;
  locale: DocLocale;
  origin: string;
  verificationUrl: string;
  learnerEmail: string;
  courseId: string;
}

/** 128 random bits: the verification URL cannot be guessed from anything the learner shows. */
export function newCertificateId(): string {
  return randomBytes(16).toString('base64url');
}

export function verificationPath(id: string): string {
  return `/api/certificates/${encodeURIComponent(id)}/verify`;
}

/** What an award needs of one of the viewer's certifiable lessons, before anything is stored. */
export interface Certifiable {
  /** The completion the certificate is for: one certificate per (lesson, completion). */
  issuedFor: string;
  snapshot: CertificateSnapshot;
  locale: DocLocale;
  origin: string;
  learnerEmail: string;
  courseId: string;
  lessonId: string;
}

/**
 * One of the viewer's own lessons, as the rules certify it now. Another learner's lesson (or
 * another tenant's) is 404, as if it did not exist; a lesson the rules do not certify is 409
 * BAD_REQUEST with the reason. Reads only.
 */
export async function certifiableLesson(
  app: FastifyInstance,
  request: FastifyRequest,
  v: Viewer,
  lessonId: string,
  publicUrl?: string,
): Promise<Certifiable> {
  const row = await findOwnItem(app.db, v, lessonId);
  if (!row) throw notFound('Lesson');
  const settings = contextSettings(request.context);
  const e = evaluate(row, settings.certification.type);
  if (e.refusal) throw new ApiError(409, 'BAD_REQUEST', REFUSALS[e.refusal]);
  const user = await app.db
    .selectFrom('users')
    .select(['firstname', 'lastname', 'username', 'email', 'preferredLocale'])
    .where('id', '=', v.userId)
    .executeTakeFirstOrThrow();
  const reference = row.certificationRef as string;
  return {
    issuedFor: row.endedAt ?? reference,
    snapshot: {
      tenantName: request.context.name,
      learnerName: displayName(user),
      courseTitle: row.courseTitle,
      score: e.score,
      endedAt: row.endedAt ?? row.startedAt ?? v.now,
      reference,
      wording: e.wording,
    },
    locale: docLocale(user.preferredLocale, settings.defaultLocale),
    origin: await publicOrigin(app.db, request, request.context, publicUrl),
    learnerEmail: user.email,
    courseId: row.courseId,
    lessonId: row.id,
  };
}

/** The achievement of an awarded certificate, as the documents show it. */
export function achievementOf(c: Certifiable, certificate: CertificateRow): Achievement {
  return {
    certificate,
    snapshot: snapshotOf(certificate),
    locale: c.locale,
    origin: c.origin,
    verificationUrl: `${c.origin}${verificationPath(certificate.id)}`,
    learnerEmail: c.learnerEmail,
    courseId: c.courseId,
  };
}

/**
 * The awarded certificate of one of the viewer's own lessons, for its documents (GET: reads
 * only). Not awarded yet — or awarded before its credential was signed at award time — is 409:
 * the award (POST /lessons/{id}/certificate, award.ts) comes first.
 */
export async function loadAchievement(
  app: FastifyInstance,
  request: FastifyRequest,
  v: Viewer,
  lessonId: string,
  publicUrl?: string,
): Promise<Achievement> {
  const c = await certifiableLesson(app, request, v, lessonId, publicUrl);
  const certificate = await findAwarded(app.db, c.lessonId, c.issuedFor);
  if (!certificate?.credentialJwt || !certificate.credentialLd)
    throw new ApiError(
      409,
      'BAD_REQUEST',
      `Not awarded yet: POST /api/lessons/${lessonId}/certificate first.`,
    );
  return achievementOf(c, certificate);
}

/** Absolute URL of the tenant's logo when it is one of our stored files, for the issuer profile. */
export function logoUrl(origin: string, assetsText: string): string | null {
  const logo = parseJson<{ logo?: unknown }>(assetsText, {}).logo;
  return typeof logo === 'string' && logo.startsWith('/') ? `${origin}${logo}` : null;
}

/** Valid while the lesson still holds the completion it was issued for and nobody revoked it. */
export function certificateStatus(
  c: { revokedAt: string | null; issuedFor: string; lessonRef: string | null; lessonEndedAt: string | null },
  reference: string,
): 'valid' | 'revoked' {
  if (c.revokedAt) return 'revoked';
  if (!c.lessonRef || c.lessonRef !== reference) return 'revoked';
  return (c.lessonEndedAt ?? c.lessonRef) === c.issuedFor ? 'valid' : 'revoked';
}
