import EventIcon from '@mui/icons-material/Event';
import { STAMPS } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import type { WorkshopSession } from './choices';
import { SessionCreate } from './SessionCreate';
import { SessionEdit } from './SessionEdit';
import { SessionList, sessionColumns } from './SessionList';

function SessionShow() {
  return (
    <RecordShow>
      {sessionColumns(true)}
      {STAMPS}
    </RecordShow>
  );
}

export default {
  list: SessionList,
  show: SessionShow,
  edit: SessionEdit,
  create: SessionCreate,
  icon: EventIcon,
  recordRepresentation: (session: WorkshopSession) => session.title,
};
