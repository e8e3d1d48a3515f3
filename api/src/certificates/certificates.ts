import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { recordAudit, type Actor } from '../audit/record';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { Viewer } from '../learning/access';
import type { LearningService } from '../learning/learning';
import type { User } from '../identity/models';
import type { CertificatePdfInput } from './pdf';
import * as queries from './queries';
import type { CertificateRecord, CertificateView, MyCertificate } from './schemas';

/** Who issues the certificates: the storefront's name (storefront/src/head.ts SITE_NAME). */
export const PLATFORM_NAME = 'Courses';

/** Part of each PDF's ETag: raise it when the layout changes, so browsers fetch the new one. */
const PDF_LAYOUT = 1;

/** A certificate's PDF, ready to be drawn once its ETag says the reader does not have it already. */
export interface CertificatePdf {
  filename: string;
  etag: string;
  bytes(): Promise<Uint8Array>;
}

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  learning: Pick<LearningService, 'myCourses' | 'course'>;
  /** Runs after a revocation commits: the verification page, rendered once per READ_CACHE_MS, says so at once. */
  changed?: () => void;
}

/**
 * Certificates of completion (issue 18): issued once per learner and course when a learner who holds the course
 * completes its last lesson (learning.setCompleted, through queries.issueCertificate), kept through refunds and later
 * lessons, verifiable by anyone at `/certificates/:id`, revocable by support with a reason.
 */
export function certificateService({ db, clock, config, learning, changed = () => {} }: Deps) {
  const urlOf = (path: string) => new URL(path, config.publicUrl).href;
  const view = (row: queries.CertificateRow): CertificateView => ({
    id: row.id,
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    courseSlug: row.courseSlug,
    issuedAt: row.issuedAt,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
    url: urlOf(`/certificates/${row.id}`),
    pdfUrl: urlOf(`/certificates/${row.id}.pdf`),
  });

  async function find(id: string): Promise<queries.CertificateRow> {
    const row = await queries.certificateById(db, id);
    if (!row) throw new AppError('not-found', 'No such certificate.');
    return row;
  }

  /**
   * Issues what the learner earned but never got: courses finished before certificates existed, or whose last two
   * lessons were completed at the same moment on two devices. Only courses they hold (full access) count.
   */
  async function catchUp(viewer: Viewer & { user: Pick<User, 'id'> }): Promise<void> {
    const certified = await queries.certifiedCourseIds(db, viewer.user.id);
    for (const { course, progress } of await learning.myCourses(viewer)) {
      if (certified.has(course.id) || progress.total === 0 || progress.completed < progress.total) continue;
      const outline = await learning.course(course.id, viewer).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not-found') return null; // a private course
        throw error;
      });
      if (!outline?.access.full) continue;
      const lessons = outline.modules.flatMap((m) => [...m.lessons, ...m.sections.flatMap((s) => s.lessons)]);
      await queries.issueCertificate(db, {
        userId: viewer.user.id,
        courseId: course.id,
        courseTitle: course.title,
        lessonIds: lessons.map((l) => l.id),
      });
    }
  }

  /** pdf-lib and its fonts load with the first certificate asked for, not on every start (a second of CPU). */
  const pdfModule = () => import('./pdf');

  /** Drawn PDFs by ETag: a certificate shared widely is drawn once, not on every download. */
  const drawn = new LRUCache<string, Promise<Uint8Array>>({ max: 100 });
  function draw(etag: string, input: CertificatePdfInput): Promise<Uint8Array> {
    let pdf = drawn.get(etag);
    if (!pdf) {
      pdf = pdfModule().then(({ certificatePdf }) => certificatePdf(input));
      pdf.catch(() => drawn.delete(etag));
      drawn.set(etag, pdf);
    }
    return pdf;
  }

  return {
    /** The learner's certificates, newest first (revoked ones too), after issuing any they earned and lack. */
    async mine(viewer: Viewer & { user: Pick<User, 'id'> }): Promise<MyCertificate[]> {
      await catchUp(viewer);
      return (await queries.certificatesOf(db, viewer.user.id)).map((row) => ({
        ...view(row),
        courseId: row.courseId,
      }));
    },

    /** What the public verification page shows (no email, nothing else of the learner). */
    async find(id: string): Promise<CertificateView> {
      return view(await find(id));
    },

    /** The PDF of a certificate in force; a revoked one has none (410). */
    async pdf(id: string): Promise<CertificatePdf> {
      const row = await find(id);
      if (row.revokedAt) {
        const { certificateDate } = await pdfModule();
        throw new AppError(
          'certificate-revoked',
          `This certificate was revoked on ${certificateDate(row.revokedAt)}: ${row.revokedReason}`,
        );
      }
      const input: CertificatePdfInput = {
        id: row.id,
        learnerName: row.learnerName,
        courseTitle: row.courseTitle,
        issuedAt: row.issuedAt,
        platformName: PLATFORM_NAME,
        verifyUrl: urlOf(`/certificates/${row.id}`),
      };
      const etag = `"${createHash('sha1')
        .update(JSON.stringify([PDF_LAYOUT, input]))
        .digest('base64url')}"`;
      return { filename: `certificate-${row.id}.pdf`, etag, bytes: () => draw(etag, input) };
    },

    /** Revokes a certificate for good, with the reason the verification page gives; audited. */
    async revoke(actor: Actor, id: string, reason: string, requestId: string | null): Promise<CertificateRecord> {
      const record = await db.transaction(async (trx) => {
        const before = await queries.lockCertificate(trx, id);
        if (!before) throw new AppError('not-found', 'No such certificate.');
        if (before.revokedAt) throw new AppError('conflict', 'This certificate is already revoked.');
        const after = await queries.markRevoked(trx, id, { at: clock.now(), reason, byId: actor.id });
        await recordAudit(trx, {
          actor,
          action: 'certificate.revoked',
          resource: 'certificates',
          recordId: id,
          before: { revokedAt: null, revokedReason: null },
          after: { revokedAt: after.revokedAt, revokedReason: after.revokedReason },
          requestId,
        });
        return (await queries
          .certificateRecords(trx)
          .where('certificates.id', id)
          .first()) as unknown as CertificateRecord;
      });
      changed();
      return record;
    },
  };
}

export type CertificateService = ReturnType<typeof certificateService>;
