import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import { DateInput, TextInput } from 'react-admin';
import { date, text } from '../common/columns';
import { RecordList } from '../common/RecordList';
import {
  ContentReferenceInput,
  UserReferenceInput,
  LearningListActions,
  contentRef,
  userRef,
} from '../content-resources/shared';

const filters = [
  <UserReferenceInput key="userId" source="userId" label="resources.bookmarks.fields.userId" alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="resources.bookmarks.fields.resourceId" alwaysOn />,
  <TextInput key="type" source="type" label="resources.bookmarks.fields.type" />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="console.content.bookmarks.savedSince" />,
];

export function BookmarkList() {
  return (
    <RecordList
      actions={<LearningListActions />}
      exporter
      filters={filters}
      icon={BookmarkBorderIcon}
      texts={{
        title: 'console.content.bookmarks.empty.title',
        body: 'console.content.bookmarks.empty.body',
        noMatch: 'console.content.bookmarks.empty.noMatch',
      }}
    >
      {userRef('userId')}
      {contentRef('resourceId')}
      {text('type')}
      {date('createdAt')}
    </RecordList>
  );
}
