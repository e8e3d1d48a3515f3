import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import { CreateButton } from 'react-admin';
import { date, numeric } from '../common/columns';
import { LearningList, contentFilter, contentRef } from '../content-resources/shared';
import { TierField } from './TierField';

const filters = [contentFilter('resourceOfId'), contentFilter('resourceId')];

/** A link's columns; its page shows them too. */
export const linkColumns = [
  contentRef('resourceOfId', { sortable: true }),
  contentRef('resourceId', { sortable: true }),
  numeric('position'),
  <TierField key="metadata.tier" source="metadata.tier" sortable={false} />,
  date('createdAt'),
];

export function ContentLinkList() {
  return (
    <LearningList
      filters={filters}
      sort={{ field: 'position', order: 'ASC' }}
      icon={AccountTreeOutlinedIcon}
      texts={{
        title: 'console.content.link.empty.title',
        body: 'console.content.link.empty.body',
        noMatch: 'console.content.link.empty.noMatch',
      }}
      emptyAction={<CreateButton label="console.content.link.empty.create" />}
    >
      {linkColumns}
    </LearningList>
  );
}
