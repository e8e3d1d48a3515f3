import { STAMPS, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { json } from '../common/JsonField';
import { contentRef, userRef } from '../content-resources/shared';

export function UserPrefsShow() {
  return (
    <RecordShow>{[userRef('userId'), text('type'), contentRef('resourceId'), json('fields'), ...STAMPS]}</RecordShow>
  );
}
