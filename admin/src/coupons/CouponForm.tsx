import { Alert, Box } from '@mui/material';
import {
  AutocompleteInput,
  BooleanInput,
  NumberInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  number,
  required,
  useRecordContext,
} from 'react-admin';
import { InstantInput, PercentInput } from '../common/inputs';
import { ACTIVE_INACTIVE_CHOICES } from '../common/StatusChipField';
import type { Coupon } from './choices';

function TeamCouponNote() {
  const coupon = useRecordContext<Coupon>();
  if (!coupon?.bulkPurchaseId) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2, width: '100%' }}>
      This is a team coupon: its uses are the seats of a team purchase. Change it only to fix a mistake.
    </Alert>
  );
}

/** The writable fields of a coupon (usedCount only moves through redemptions); the API's refusals show per field. */
export function CouponFields() {
  return (
    <>
      <TeamCouponNote />
      <TextInput source="code" helperText="What buyers type; case does not matter. Leave empty for a site-wide sale." />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <PercentInput source="percentageDiscount" label="Discount (%)" validate={[required(), number()]} />
        <NumberInput source="maxUses" step={1} validate={[required(), number()]} helperText="−1 means unlimited." />
        <InstantInput source="expires" helperText="Leave empty: never expires." />
      </Box>
      <ReferenceInput source="restrictedToProductId" reference="products">
        <AutocompleteInput label="Only for product" helperText="Leave empty: valid for every product." />
      </ReferenceInput>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%', alignItems: 'center' }}>
        <SelectInput source="status" choices={ACTIVE_INACTIVE_CHOICES} validate={required()} />
        <BooleanInput
          source="default"
          helperText="Applies automatically at checkout, without a code (the best active sale wins)."
        />
      </Box>
    </>
  );
}
