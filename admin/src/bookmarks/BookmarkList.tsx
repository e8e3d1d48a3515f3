import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import { DateInput, TextInput } from 'react-admin';
import { date, text } from '../common/columns';
import { LearningList, contentFilter, contentRef, userFilter, userRef } from '../content-resources/shared';

const filters = [
  userFilter('userId'),
  contentFilter('resourceId'),
  <TextInput key="type" source="type" label="resources.bookmarks.fields.type" />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="console.content.bookmarks.savedSince" />,
];

export function BookmarkList() {
  return (
    <LearningList
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
    </LearningList>
  );
}
