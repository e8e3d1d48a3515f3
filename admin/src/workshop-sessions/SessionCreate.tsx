import { Create, SimpleForm, type RaRecord } from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { browserTimeZone } from './choices';
import { backToProductSessions, SessionFields } from './SessionForm';

export function SessionCreate() {
  return (
    <Create
      redirect={backToProductSessions}
      transform={(data: RaRecord) => withoutEmpty(data)}
      title="resources.workshop-sessions.newTitle"
    >
      <SimpleForm defaultValues={{ timeZone: browserTimeZone() }}>
        <SessionFields productFixed={false} />
      </SimpleForm>
    </Create>
  );
}
