import { Alert, Box, Typography } from '@mui/material';
import { NumberInput, SelectInput, TextInput, required, useTranslate } from 'react-admin';
import { InstantInput } from '../common/inputs';
import { LimitInput } from '../common/LimitInput';
import { PRODUCT_STATUS_CHOICES, PRODUCT_TYPE_CHOICES } from './choices';

/**
 * The fields a product's create and edit screens share: exactly the API's writable fields. The API holds the rules
 * (lengths, slugs, the enrollment window) and answers a refusal per field, which the form shows under each input.
 */
export function ProductFields({ withStatus }: { withStatus: boolean }) {
  const translate = useTranslate();
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
            helperText="resources.products.help.status"
          />
        ) : null}
        <LimitInput source="quantityAvailable" helperText="resources.products.help.quantityAvailable" />
      </Box>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
        {translate('resources.products.enrollmentWindow')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <InstantInput source="enrollmentOpensAt" helperText="resources.products.help.enrollmentOpensAt" />
        <InstantInput source="enrollmentClosesAt" helperText="resources.products.help.enrollmentClosesAt" />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <TextInput source="key" helperText="resources.products.help.key" />
        <TextInput source="slug" helperText="resources.products.help.slug" />
      </Box>
      <TextInput source="description" multiline minRows={3} fullWidth />
      {/* Empty is null: not featured. No min or max here: the API's refusal shows under the field, as for the others. */}
      <NumberInput source="featuredRank" helperText="resources.products.help.featuredRank" />
    </>
  );
}

/** On the create form: what a new product is until it is published. */
export function DraftNote() {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
      {translate('resources.products.draftNote')}
    </Alert>
  );
}

export function ArchiveNote() {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
      {translate('resources.products.archiveNote')}
    </Alert>
  );
}
