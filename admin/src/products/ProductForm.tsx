import { Alert, Box, Typography } from '@mui/material';
import {
  NumberInput,
  SelectInput,
  TextInput,
  maxLength,
  minLength,
  minValue,
  maxValue,
  number,
  regex,
  required,
  type Validator,
} from 'react-admin';
import { InstantInput } from '../common/inputs';
import { PRODUCT_STATUS_CHOICES, PRODUCT_TYPE_CHOICES } from './choices';

const SLUG = regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Lower-case letters, digits and dashes only (e.g. typescript-pro).');

/** Closing must come after opening (the API checks it too). */
export const closesAfterOpens: Validator = (value, values: Record<string, unknown>) => {
  const opens = values.enrollmentOpensAt;
  if (!value || !opens) return undefined;
  return Date.parse(String(value)) <= Date.parse(String(opens)) ? 'Must be after the opening.' : undefined;
};

/** The fields a product's create and edit screens share: exactly the API's writable fields. */
export function ProductFields({ withStatus }: { withStatus: boolean }) {
  return (
    <>
      <TextInput source="name" validate={[required(), minLength(2), maxLength(90)]} fullWidth />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <SelectInput source="productType" choices={PRODUCT_TYPE_CHOICES} validate={required()} />
        {withStatus ? (
          <SelectInput
            source="status"
            choices={PRODUCT_STATUS_CHOICES}
            validate={required()}
            helperText="Archiving hides it from the storefront and archives its price; buyers keep access."
          />
        ) : null}
        <NumberInput
          source="quantityAvailable"
          step={1}
          validate={[required(), number(), minValue(-1), maxValue(1_000_000)]}
          helperText="Seats for sale; −1 means unlimited."
        />
      </Box>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
        Enrollment window (optional)
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <InstantInput source="enrollmentOpensAt" helperText="Leave empty: open now." />
        <InstantInput source="enrollmentClosesAt" validate={closesAfterOpens} helperText="Leave empty: never closes." />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <TextInput
          source="key"
          validate={[SLUG, maxLength(64)]}
          helperText="A stable name for code, e.g. typescript-pro."
        />
        <TextInput source="slug" validate={[SLUG, maxLength(90)]} helperText="Used in storefront links." />
      </Box>
      <TextInput source="description" multiline minRows={3} validate={maxLength(2000)} fullWidth />
    </>
  );
}

export function ArchiveNote() {
  return (
    <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
      A product that has purchases cannot be deleted: archive it instead (status Archived).
    </Alert>
  );
}
