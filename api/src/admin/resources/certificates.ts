import { Certificate } from '../../certificates/models';
import { CERTIFICATE_STATUS, certificateRecordColumns } from '../../certificates/queries';
import { CertificateIdParam } from '../../certificates/schemas';
import { defineResource } from '../resource';
import { instant, text } from '../../http/csv-columns';

/**
 * Certificates of completion, with the learner's email (which the public page never shows). Nothing is edited
 * here: support revokes one with a reason (POST /api/admin/certificates/:id/revoke, api/src/certificates/routes.ts).
 */
export const certificates = defineResource({
  name: 'certificates',
  model: Certificate,
  read: ['support'],
  baseQuery: (db) =>
    Certificate.query(db).leftJoin('users', 'users.id', 'certificates.userId').select(certificateRecordColumns(db)),
  idParam: CertificateIdParam,
  sqlColumns: {
    id: 'certificates.id',
    userId: 'certificates.userId',
    courseId: 'certificates.courseId',
    learnerName: 'certificates.learnerName',
    courseTitle: 'certificates.courseTitle',
    learnerEmail: 'users.email',
    issuedAt: 'certificates.issuedAt',
    revokedAt: 'certificates.revokedAt',
    createdAt: 'certificates.createdAt',
    status: { expression: CERTIFICATE_STATUS },
  },
  filterable: {
    id: 'text',
    userId: 'id',
    courseId: 'id',
    status: 'enum',
    learnerEmail: 'text',
    issuedAt: 'date',
    revokedAt: 'date',
  },
  // Not by email: it is the learner's, read through a join, so no index of certificates can give that order.
  sortable: ['id', 'issuedAt', 'revokedAt', 'learnerName', 'courseTitle'],
  searchable: ['learnerName', 'learnerEmail', 'courseTitle', 'id'],
  defaultSort: ['issuedAt', 'DESC'],
  export: {
    columns: [
      text('Learner email', 'learnerEmail'),
      text('Learner name', 'learnerName'),
      text('Course', 'courseTitle'),
      instant('Issued', 'issuedAt'),
      text('Status', 'status'),
      instant('Revoked', 'revokedAt'),
      text('Certificate id', 'id'),
    ],
  },
});
