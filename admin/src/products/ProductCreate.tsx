import { Box, Typography } from '@mui/material';
import { Create, SelectInput, SimpleForm, minValue, maxValue, number, useTranslate, type RaRecord } from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { CURRENCY_CHOICES } from '../common/money';
import { MoneyInput } from '../common/inputs';
import { DraftNote, ProductFields } from './ProductForm';

const DEFAULTS = { productType: 'self-paced', quantityAvailable: -1, currency: 'usd' };

/** Optional fields left empty are left out, so the API applies its defaults; the amount is already in cents. */
export const toProductCreate = (data: RaRecord) => withoutEmpty(data);

export function ProductCreate() {
  const translate = useTranslate();
  return (
    <Create redirect="show" transform={toProductCreate}>
      <SimpleForm defaultValues={DEFAULTS}>
        <DraftNote />
        <ProductFields withStatus={false} />
        <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
          {translate('resources.products.firstPrice')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
          <MoneyInput
            source="unitAmount"
            currencySource="currency"
            label="resources.products.firstPriceInput"
            validate={[number(), minValue(0), maxValue(1_000_000)]}
            helperText="resources.products.help.unitAmount"
          />
          <SelectInput source="currency" choices={CURRENCY_CHOICES} />
        </Box>
      </SimpleForm>
    </Create>
  );
}
