import {
  Create,
  DeleteButton,
  Edit,
  Labeled,
  NumberInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  Toolbar,
  minValue,
  number,
  required,
} from 'react-admin';
import { TIER_CHOICES } from '../content-resources/choices';
import { ContentRefField, ContentReferenceInput } from '../content-resources/shared';
import { toLinkCreate, toLinkUpdate } from './transform';

const validatePosition = [required(), number(), minValue(0)];

function LinkEditToolbar() {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton
        mutationMode="pessimistic"
        label="Remove link"
        confirmTitle="Remove this link?"
        confirmContent="The child content is kept; it is only taken out of its parent."
      />
    </Toolbar>
  );
}

const tierInput = (
  <SelectInput
    source="metadata.tier"
    choices={TIER_CHOICES}
    emptyText="Not set"
    helperText="Free: open to everyone, without a purchase."
  />
);

/** Position and tier are the only writable fields of a link; parent and child are fixed once created. */
export function ContentLinkEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={toLinkUpdate} redirect="show">
      <SimpleForm toolbar={<LinkEditToolbar />}>
        <Labeled source="resourceOfId">
          <ContentRefField source="resourceOfId" />
        </Labeled>
        <Labeled source="resourceId">
          <ContentRefField source="resourceId" />
        </Labeled>
        <NumberInput
          source="position"
          validate={validatePosition}
          step={1}
          helperText="Lower comes first. The outline's Move buttons renumber 0, 1, 2…"
        />
        {tierInput}
      </SimpleForm>
    </Edit>
  );
}

export function ContentLinkCreate() {
  return (
    <Create transform={toLinkCreate} redirect="show">
      <SimpleForm defaultValues={{ position: 0 }}>
        <ContentReferenceInput source="resourceOfId" label="Parent" validate={required()} />
        <ContentReferenceInput source="resourceId" label="Child" validate={required()} />
        <NumberInput source="position" validate={validatePosition} step={1} />
        {tierInput}
      </SimpleForm>
    </Create>
  );
}
