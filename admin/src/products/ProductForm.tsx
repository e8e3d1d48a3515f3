import { Alert, Box, Typography } from '@mui/material';
import { NumberInput, SelectInput, TextInput, number, required } from 'react-admin';
import { InstantInput } from '../common/inputs';
import { PRODUCT_STATUS_CHOICES, PRODUCT_TYPE_CHOICES } from './choices';

/**
 * The fields a product's create and edit screens share: exactly the API's writable fields. The API holds the rules
 * (lengths, slugs, the enrollment window) and answers a refusal per field, which the form shows under each input.
 */
export function ProductFields({ withStatus }: { withStatus: boolean }) {
  return (
    <>
      <TextInput source="name" validate={required()} fullWidth />
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
          validate={[required(), number()]}
          helperText="Seats for sale; −1 means unlimited."
        />
      </Box>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
        Enrollment window (optional)
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <InstantInput source="enrollmentOpensAt" helperText="Leave empty: open now." />
        <InstantInput source="enrollmentClosesAt" helperText="Leave empty: never closes." />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <TextInput source="key" helperText="A stable name for code, e.g. typescript-pro." />
        <TextInput source="slug" helperText="Used in storefront links." />
      </Box>
      <TextInput source="description" multiline minRows={3} fullWidth />
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
