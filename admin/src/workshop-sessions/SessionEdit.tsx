import { DeleteButton, Edit, SaveButton, SimpleForm, Toolbar, useRecordContext, type RaRecord } from 'react-admin';
import type { WorkshopSession } from './choices';
import { backToProductSessions, SessionFields } from './SessionForm';

function SessionToolbar() {
  const session = useRecordContext<WorkshopSession>();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton
        mutationMode="pessimistic"
        redirect={session ? `/products/${session.productId}/show/sessions` : 'list'}
        confirmTitle="resources.workshop-sessions.deleteTitle"
        confirmContent="resources.workshop-sessions.deleteContent"
      />
    </Toolbar>
  );
}

/** An emptied join link is cleared (null), not sent as an empty text. */
const toSessionWrite = (data: RaRecord) => ({ ...data, joinUrl: data.joinUrl ? data.joinUrl : null });

export function SessionEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={backToProductSessions} transform={toSessionWrite}>
      <SimpleForm toolbar={<SessionToolbar />} warnWhenUnsavedChanges>
        <SessionFields productFixed />
      </SimpleForm>
    </Edit>
  );
}
