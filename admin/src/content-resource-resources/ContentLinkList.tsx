import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import { CreateButton } from 'react-admin';
import { date, numeric } from '../common/columns';
import { RecordList } from '../common/RecordList';
import { ContentReferenceInput, LearningListActions, contentRef } from '../content-resources/shared';
import { TierField } from './TierField';

const filters = [
  <ContentReferenceInput
    key="resourceOfId"
    source="resourceOfId"
    label="resources.content-resource-resources.fields.resourceOfId"
    alwaysOn
  />,
  <ContentReferenceInput
    key="resourceId"
    source="resourceId"
    label="resources.content-resource-resources.fields.resourceId"
    alwaysOn
  />,
];

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
    <RecordList
      actions={<LearningListActions />}
      exporter
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
    </RecordList>
  );
}
