import {
  DeleteButton,
  Edit,
  FunctionField,
  Labeled,
  SaveButton,
  SimpleForm,
  Toolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from 'react-admin';
import { typeLabel } from './choices';
import { ContentFieldsInputs } from './ContentFieldsInputs';
import { toContentUpdate } from './transform';
import type { ContentResource } from './types';

function EditToolbar() {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton
        mutationMode="pessimistic"
        confirmTitle="Delete this content?"
        confirmContent="It disappears from the console and the storefront. Purchases and progress are kept."
      />
    </Toolbar>
  );
}

function EditTitle() {
  const record = useRecordContext<ContentResource>();
  return (
    <span>
      {record ? `Edit ${typeLabel(record.type).toLowerCase()}: ${record.fields?.title || 'Untitled'}` : 'Edit content'}
    </span>
  );
}

function EditInputs() {
  const record = useRecordContext<ContentResource>();
  return (
    <>
      <Labeled label="Type">
        <FunctionField<ContentResource> render={(r) => typeLabel(r.type)} />
      </Labeled>
      <ContentFieldsInputs type={record?.type} />
    </>
  );
}

/**
 * Saves pessimistically: the request goes out when Save is pressed (not ~4 s later), errors land on their
 * fields, and the show page then renders the body the API stored (sanitized).
 */
export function ContentResourceEdit() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Edit
      title={<EditTitle />}
      mutationMode="pessimistic"
      transform={toContentUpdate}
      mutationOptions={{
        onSuccess: (saved: ContentResource) => {
          notify(`Saved “${saved.fields?.title ?? 'content'}”.`, { type: 'success' });
          redirect('show', 'content-resources', saved.id);
        },
      }}
    >
      <SimpleForm toolbar={<EditToolbar />} warnWhenUnsavedChanges>
        <EditInputs />
      </SimpleForm>
    </Edit>
  );
}
