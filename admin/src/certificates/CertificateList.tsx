import WorkspacePremiumOutlinedIcon from '@mui/icons-material/WorkspacePremiumOutlined';
import { useMediaQuery, type Theme } from '@mui/material';
import { SimpleList, TextField, useTranslate } from 'react-admin';
import { date } from '../common/columns';
import { choiceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { NoneFound } from '../common/EmptyState';
import { LearningList, contentFilter, userFilter } from '../content-resources/shared';
import { CertificateStatusField, RevokeCertificateButton } from './Revoke';
import type { Certificate } from './types';

const STATUS_CHOICES = [
  { id: 'issued', name: 'resources.certificates.status.issued' },
  { id: 'revoked', name: 'resources.certificates.status.revoked' },
];

const filters = [
  searchFilter('resources.certificates.search'),
  choiceFilter('status', STATUS_CHOICES),
  userFilter('userId', false),
  contentFilter('courseId', { alwaysOn: false, filter: { type: 'course' } }),
  ...dateRangeFilters('issuedAt', 'Issued'),
];

/** Revoked certificates are dimmed, so a page reads as what verifies today. */
const rowSx = (certificate: Certificate) =>
  certificate.revokedAt ? { '& td': { color: 'text.secondary' }, bgcolor: 'action.hover' } : {};

/** On a phone: one line per certificate (learner, course, issued or revoked), opening it. */
function NarrowRows() {
  const translate = useTranslate();
  return (
    <SimpleList<Certificate>
      rowClick="show"
      primaryText={(c) => `${c.learnerName} · ${c.courseTitle}`}
      secondaryText={(c) => c.learnerEmail ?? ''}
      tertiaryText={(c) =>
        translate(`resources.certificates.status.${c.revokedAt ? 'revoked' : 'issued'}`) +
        ` ${new Date(c.revokedAt ?? c.issuedAt).toLocaleDateString()}`
      }
      empty={<NoneFound>{translate('resources.certificates.noneFound')}</NoneFound>}
    />
  );
}

/** Every certificate issued: who, which course, when; support revokes one from its row or its page. */
export function CertificateList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <LearningList
      filters={filters}
      icon={WorkspacePremiumOutlinedIcon}
      sort={{ field: 'issuedAt', order: 'DESC' }}
      rowSx={rowSx}
      rows={narrow ? <NarrowRows /> : undefined}
    >
      {/* The learner's email is joined in: no index orders certificates by it, so the API refuses that sort. */}
      <TextField source="learnerEmail" sortable={false} />
      <TextField source="learnerName" sortable />
      <TextField source="courseTitle" sortable />
      {date('issuedAt', { sortable: true })}
      <CertificateStatusField label="resources.certificates.fields.status" sortBy="revokedAt" />
      <RevokeCertificateButton label="" />
    </LearningList>
  );
}
