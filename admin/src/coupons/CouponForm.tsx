import { Alert, Box } from '@mui/material';
import {
  AutocompleteInput,
  BooleanInput,
  FormDataConsumer,
  NumberInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  number,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { InstantInput, PercentInput } from '../common/inputs';
import { LimitInput } from '../common/LimitInput';
import { ACTIVE_INACTIVE_CHOICES } from '../common/chipLooks';
import type { Coupon } from './choices';

function TeamCouponNote() {
  const coupon = useRecordContext<Coupon>();
  const translate = useTranslate();
  if (!coupon?.bulkPurchaseId) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2, width: '100%' }}>
      {translate('resources.coupons.teamNote')}
    </Alert>
  );
}

/**
 * A coupon's terms beyond its code and status: what it takes off, how often, until when, for which course. The form
 * and the generator both show these, so a new term is one input here.
 */
export function CouponTermsInputs({ usesLabel }: { usesLabel?: string }) {
  return (
    <>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <PercentInput
          source="percentageDiscount"
          label="resources.coupons.discountInput"
          validate={[required(), number()]}
        />
        <LimitInput source="maxUses" label={usesLabel} helperText="resources.coupons.help.maxUses" />
        <InstantInput source="expires" helperText="resources.coupons.help.expires" />
      </Box>
      <ReferenceInput source="restrictedToProductId" reference="products">
        <AutocompleteInput
          label="resources.coupons.fields.restrictedToProductId"
          helperText="resources.coupons.help.restrictedToProductId"
        />
      </ReferenceInput>
    </>
  );
}

const DURATION_CHOICES = [
  { id: 'once', name: 'resources.coupons.duration.once' },
  { id: 'repeating', name: 'resources.coupons.duration.repeating' },
  { id: 'forever', name: 'resources.coupons.duration.forever' },
];

/** How long it lasts on a membership: a number of periods is asked only for a repeating coupon. */
function DurationInputs() {
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
      <SelectInput
        source="duration"
        choices={DURATION_CHOICES}
        validate={required()}
        helperText="resources.coupons.help.duration"
      />
      <FormDataConsumer<{ duration?: string }>>
        {({ formData }) =>
          formData.duration === 'repeating' ? (
            <NumberInput source="durationPeriods" min={1} max={120} step={1} validate={[required(), number()]} />
          ) : null
        }
      </FormDataConsumer>
    </Box>
  );
}

/** A number of periods belongs to a repeating coupon only: sent as none for the others. */
export const withDurationPeriods = <T extends object>(data: T): T =>
  'duration' in data && data.duration !== 'repeating' ? { ...data, durationPeriods: null } : data;

/** The writable fields of a coupon (usedCount only moves through redemptions); the API's refusals show per field. */
export function CouponFields() {
  return (
    <>
      <TeamCouponNote />
      <TextInput source="code" helperText="resources.coupons.help.code" />
      <CouponTermsInputs />
      <DurationInputs />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%', alignItems: 'center' }}>
        <SelectInput source="status" choices={ACTIVE_INACTIVE_CHOICES} validate={required()} />
        <BooleanInput source="default" helperText="resources.coupons.help.default" />
      </Box>
    </>
  );
}
