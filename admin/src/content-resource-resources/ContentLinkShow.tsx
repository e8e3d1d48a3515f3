import { STAMPS, pick } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { linkColumns } from './ContentLinkList';

export function ContentLinkShow() {
  return <RecordShow>{[...linkColumns, ...pick(STAMPS, ['updatedAt', 'id'])]}</RecordShow>;
}
