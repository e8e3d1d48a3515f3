import { Create, NumberInput, SelectInput, SimpleForm, required } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { TIER_CHOICES } from '../content-resources/choices';
import { ContentReferenceInput, LinkEdit, PositionInput, contentRef } from '../content-resources/shared';
import { ReleaseDateInput } from './ReleaseDateInput';
import { toLinkCreate, toLinkUpdate } from './transform';

const toolbar = (
  <SaveAndDeleteToolbar
    label="console.content.link.remove"
    confirmTitle="console.content.link.removeTitle"
    confirmContent="console.content.link.removeContent"
  />
);

const tierInput = (
  <SelectInput
    source="metadata.tier"
    choices={TIER_CHOICES}
    emptyText="console.content.tier.notSet"
    helperText="console.content.link.tierHelp"
  />
);

/** Scheduled release (docs/domain.md §11): days after the learner's start, or a cohort's date. */
const releaseInputs = [
  <NumberInput
    key="days"
    source="metadata.releaseAfterDays"
    min={1}
    step={1}
    helperText="console.content.link.releaseAfterDaysHelp"
  />,
  <ReleaseDateInput key="on" source="metadata.releaseOn" helperText="console.content.link.releaseOnHelp" />,
];

/** Position, tier and release are the writable fields of a link; parent and child are fixed once created. */
export function ContentLinkEdit() {
  return (
    <LinkEdit transform={toLinkUpdate} toolbar={toolbar} ends={[contentRef('resourceOfId'), contentRef('resourceId')]}>
      <PositionInput helperText="console.content.link.positionHelp" />
      {tierInput}
      {releaseInputs}
    </LinkEdit>
  );
}

export function ContentLinkCreate() {
  return (
    <Create transform={toLinkCreate} redirect="show">
      <SimpleForm defaultValues={{ position: 0 }}>
        <ContentReferenceInput
          source="resourceOfId"
          label="resources.content-resource-resources.fields.resourceOfId"
          validate={required()}
        />
        <ContentReferenceInput
          source="resourceId"
          label="resources.content-resource-resources.fields.resourceId"
          validate={required()}
        />
        <PositionInput />
        {tierInput}
        {releaseInputs}
      </SimpleForm>
    </Create>
  );
}
