import { Create, FormDataConsumer, SelectInput, SimpleForm, required } from 'react-admin';
import { TYPE_CHOICES } from './choices';
import { ContentFieldsInputs } from './ContentFieldsInputs';
import { toContentCreate } from './transform';

/** `?source={"type":"page"}` in the address preselects a type (react-admin reads it). */
export function ContentResourceCreate() {
  return (
    <Create redirect="show" transform={toContentCreate}>
      <SimpleForm
        defaultValues={{ type: 'lesson', fields: { state: 'draft', visibility: 'public' } }}
        warnWhenUnsavedChanges
      >
        <SelectInput
          source="type"
          choices={TYPE_CHOICES}
          validate={required()}
          helperText="console.content.help.type"
        />
        <FormDataConsumer<{ type?: string }>>
          {({ formData }) => <ContentFieldsInputs type={formData.type} />}
        </FormDataConsumer>
      </SimpleForm>
    </Create>
  );
}
