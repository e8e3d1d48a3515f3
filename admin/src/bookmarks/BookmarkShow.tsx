import { STAMPS, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { json } from '../common/JsonField';
import { contentRef, userRef } from '../content-resources/shared';

export function BookmarkShow() {
  return (
    <RecordShow>{[userRef('userId'), contentRef('resourceId'), text('type'), json('fields'), ...STAMPS]}</RecordShow>
  );
}
