import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { recordAudit, type Actor } from '../audit/record';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { assertMayManageOwner } from '../identity/staff/staff-guard';
import { AppError } from '../shared/errors';
import type { Viewer } from '../learning/access';
import type { LearningService } from '../learning/learning';
import type { IssueCertificate } from '../learning/progress';
import type { User } from '../identity/models';
import type { Logger } from '../logger';
import type { SchoolSettings } from '../school/settings';
import type { CertificateDrawingInput } from './drawing';
import type { Certificate } from './models';
import * as queries from './queries';
import type { CertificateRecord, CertificateView, MyCertificate } from './schemas';

/** Part of each PDF's and picture's ETag: raise it when the layout changes, so browsers fetch the new one. */
const LAYOUT = 2;

/** A certificate's PDF or preview picture, ready to be drawn once its ETag says the reader lacks it. */
export interface CertificateFile {
  filename: string;
  etag: string;
  bytes(): Promise<Uint8Array>;
}

type Rendering = 'pdf' | 'png';

/** Who changes a certificate: their roles decide whose (the console's support, not on staff's certificates). */
type Changer = Actor & { roles: readonly string[] };

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  learning: Pick<LearningService, 'myCourses' | 'course'>;
  /** Who issues the certificates: the school's name is on each. */
  school: Pick<SchoolSettings, 'get'>;
  logger: Pick<Logger, 'warn'>;
  /** Issues one certificate (queries.issueCertificate) and sends its email once: the same issuer as learning's. */
  issue: IssueCertificate;
  /**
   * Runs after a revocation or a corrected name commits: the verification page, rendered once per READ_CACHE_MS, says
   * so at once.
   */
  changed?: () => void;
}

/**
 * Certificates of completion: issued once per learner and course when a learner who holds the course completes its
 * last lesson (learning.setCompleted, through queries.issueCertificate), in the name they had then; kept through
 * refunds and later lessons, verifiable by anyone at `/certificates/:id`, its name corrected once by its holder (or
 * by support), revocable by support with a reason.
 */
export function certificateService({ db, clock, config, learning, school, logger, issue, changed = () => {} }: Deps) {
  const urlOf = (path: string) => new URL(path, config.publicUrl).href;
  const view = (row: queries.CertificateRow): CertificateView => ({
    id: row.id,
    learnerName: row.learnerName,
    nameCorrectedAt: row.nameCorrectedAt,
    courseTitle: row.courseTitle,
    courseSlug: row.courseSlug,
    issuedAt: row.issuedAt,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
    url: urlOf(`/certificates/${row.id}`),
    pdfUrl: urlOf(`/certificates/${row.id}.pdf`),
    previewUrl: urlOf(`/certificates/${row.id}.png`),
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
      await issue(db, {
        userId: viewer.user.id,
        courseId: course.id,
        courseTitle: course.title,
        lessonIds: lessons.map((l) => l.id),
      });
    }
  }

  const mineOf = (row: queries.CertificateRow): MyCertificate => ({
    ...view(row),
    courseId: row.courseId,
    canCorrectName: !row.revokedAt && !row.holderCorrectedAt,
  });

  /** pdf-lib, HarfBuzz and the fonts load with the first certificate asked for, not on every start. */
  const renderers = {
    pdf: () => import('./pdf').then((m) => m.certificatePdf),
    png: () => import('./preview').then((m) => m.certificatePreview),
  };

  /** Drawn files by ETag: a certificate shared widely is drawn once, not on every download or preview. */
  const drawn = new LRUCache<string, Promise<Uint8Array>>({ max: 100 });
  function draw(etag: string, kind: Rendering, input: CertificateDrawingInput): Promise<Uint8Array> {
    let file = drawn.get(etag);
    if (!file) {
      file = renderers[kind]()
        .then((render) => render(input))
        .then(({ bytes, missing }) => {
          // Drawn without them rather than not at all; a face for them is a line in typesetting/faces.ts.
          if (missing.length)
            logger.warn({ certificateId: input.id, missing }, 'certificate: characters without a glyph');
          return bytes;
        });
      file.catch(() => drawn.delete(etag));
      drawn.set(etag, file);
    }
    return file;
  }

  /** The PDF or picture of a certificate in force; a revoked one has neither (410). */
  async function file(id: string, kind: Rendering): Promise<CertificateFile> {
    const row = await find(id);
    if (row.revokedAt) {
      const { certificateDate } = await import('./drawing');
      throw new AppError(
        'certificate-revoked',
        `This certificate was revoked on ${certificateDate(row.revokedAt)}: ${row.revokedReason}`,
      );
    }
    const input: CertificateDrawingInput = {
      id: row.id,
      learnerName: row.learnerName,
      courseTitle: row.courseTitle,
      issuedAt: row.issuedAt,
      schoolName: (await school.get()).name,
      verifyUrl: urlOf(`/certificates/${row.id}`),
    };
    const etag = `"${createHash('sha1')
      .update(JSON.stringify([LAYOUT, kind, input]))
      .digest('base64url')}"`;
    return { filename: `certificate-${row.id}.${kind}`, etag, bytes: () => draw(etag, kind, input) };
  }

  /** Support acts on learners' certificates; a staff member's (an administrator's, say) only an administrator. */
  async function mayActOn(trx: Knex.Transaction, certificate: Certificate, actor: Changer, what: string) {
    if (certificate.userId !== actor.id) await assertMayManageOwner(trx, { userId: certificate.userId }, actor, what);
  }

  /** A corrected name, audited; `byHolder` spends the holder's one correction. */
  async function correctName(
    actor: Changer,
    id: string,
    name: string,
    options: { byHolder: boolean; requestId: string | null },
  ): Promise<Certificate> {
    const corrected = await db.transaction(async (trx) => {
      const before = await queries.lockCertificate(trx, id);
      if (!before || (options.byHolder && before.userId !== actor.id)) {
        throw new AppError('not-found', 'No such certificate of yours.');
      }
      if (!options.byHolder) await mayActOn(trx, before, actor, 'correct the certificate of');
      if (before.revokedAt) throw new AppError('certificate-revoked', 'A revoked certificate keeps its name.');
      if (options.byHolder && before.holderCorrectedAt) {
        throw new AppError(
          'name-already-corrected',
          'You have already corrected the name on this certificate once. Ask support to correct it again.',
        );
      }
      if (before.learnerName === name) {
        throw new AppError('validation-failed', 'The certificate already reads so.', {
          name: 'is already the name on the certificate',
        });
      }
      const after = await queries.markNameCorrected(trx, id, {
        name,
        at: clock.now(),
        byId: actor.id!,
        byHolder: options.byHolder,
      });
      await recordAudit(trx, {
        actor,
        action: 'certificate.name-corrected',
        resource: 'certificates',
        recordId: id,
        before: { learnerName: before.learnerName },
        after: { learnerName: after.learnerName, byHolder: options.byHolder },
        requestId: options.requestId,
      });
      return after;
    });
    changed();
    return corrected;
  }

  return {
    /** The learner's certificates, newest first (revoked ones too), after issuing any they earned and lack. */
    async mine(viewer: Viewer & { user: Pick<User, 'id'> }): Promise<MyCertificate[]> {
      await catchUp(viewer);
      return (await queries.certificatesOf(db, viewer.user.id)).map(mineOf);
    },

    /** One of the learner's own certificates (what the page offers its holder); not-found for anyone else's. */
    async mineById(userId: string, id: string): Promise<MyCertificate> {
      const row = await find(id);
      if (row.userId !== userId) throw new AppError('not-found', 'No such certificate of yours.');
      return mineOf(row);
    },

    /** The holder's one correction of the name on their certificate; audited. */
    async correctOwnName(actor: Changer, id: string, name: string, requestId: string | null): Promise<MyCertificate> {
      await correctName(actor, id, name, { byHolder: true, requestId });
      return mineOf(await find(id));
    },

    /** Support corrects the name, as often as needed (the holder's own correction is not spent); audited. */
    async correctNameAsSupport(
      actor: Changer,
      id: string,
      name: string,
      requestId: string | null,
    ): Promise<CertificateRecord> {
      await correctName(actor, id, name, { byHolder: false, requestId });
      return (await queries
        .certificateRecords(db)
        .where('certificates.id', id)
        .first()) as unknown as CertificateRecord;
    },

    /** What the public verification page shows (no email, nothing else of the learner). */
    async find(id: string): Promise<CertificateView> {
      return view(await find(id));
    },

    /** The PDF of a certificate in force; a revoked one has none (410). */
    pdf: (id: string): Promise<CertificateFile> => file(id, 'pdf'),

    /** The link preview's picture (og:image, PNG) of a certificate in force; a revoked one has none (410). */
    preview: (id: string): Promise<CertificateFile> => file(id, 'png'),

    /** Revokes a certificate for good, with the reason the verification page gives; audited. */
    async revoke(actor: Changer, id: string, reason: string, requestId: string | null): Promise<CertificateRecord> {
      const record = await db.transaction(async (trx) => {
        const before = await queries.lockCertificate(trx, id);
        if (!before) throw new AppError('not-found', 'No such certificate.');
        await mayActOn(trx, before, actor, 'revoke the certificate of');
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
