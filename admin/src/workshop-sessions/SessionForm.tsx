import {
  AutocompleteInput,
  ReferenceInput,
  TextInput,
  maxLength,
  required,
  useTranslate,
  type RaRecord,
  type Validator,
} from 'react-admin';
import { InstantInput } from '../common/inputs';
import { browserTimeZone, TIME_ZONE_CHOICES } from './choices';

/** Back to the product's Sessions tab, where the session now shows. */
export const backToProductSessions = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.productId ? `/products/${String(data.productId)}/show/sessions` : `/workshop-sessions/${String(id)}/show`;

/** A light check for the form; the API decides (https only) and its refusal shows under the field. */
const httpsLink: Validator = (value) =>
  typeof value === 'string' && value.trim() && !/^https:\/\//i.test(value.trim())
    ? 'resources.workshop-sessions.httpsOnly'
    : undefined;

/** The writable fields of a session; `productFixed` when it is edited (a session stays with its workshop). */
export function SessionFields({ productFixed }: { productFixed: boolean }) {
  const translate = useTranslate();
  return (
    <>
      <ReferenceInput source="productId" reference="products" filter={{ productType: 'live' }}>
        <AutocompleteInput
          label="resources.workshop-sessions.fields.productId"
          validate={required()}
          readOnly={productFixed}
          helperText="resources.workshop-sessions.productHelp"
        />
      </ReferenceInput>
      <TextInput source="title" validate={[required(), maxLength(200)]} />
      <InstantInput
        source="startsAt"
        validate={required()}
        helperText={translate('resources.workshop-sessions.timeHelp', { zone: browserTimeZone() })}
      />
      <InstantInput
        source="endsAt"
        validate={required()}
        helperText={translate('resources.workshop-sessions.timeHelp', { zone: browserTimeZone() })}
      />
      <AutocompleteInput
        source="timeZone"
        choices={TIME_ZONE_CHOICES}
        validate={required()}
        helperText="resources.workshop-sessions.timeZoneHelp"
      />
      <TextInput
        source="joinUrl"
        type="url"
        validate={[httpsLink, maxLength(2000)]}
        helperText="resources.workshop-sessions.joinUrlHelp"
      />
    </>
  );
}
