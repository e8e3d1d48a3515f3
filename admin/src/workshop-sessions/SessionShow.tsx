import { STAMPS } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { sessionColumns } from './SessionList';

export function SessionShow() {
  return (
    <RecordShow>
      {sessionColumns(true)}
      {STAMPS}
    </RecordShow>
  );
}
