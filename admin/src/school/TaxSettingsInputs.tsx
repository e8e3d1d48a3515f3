import { Alert } from '@mui/material';
import { AutocompleteInput, BooleanInput, SelectArrayInput, TextInput, maxLength, useTranslate } from 'react-admin';
import { COUNTRY_CODES, countryName } from '../../../api/src/shared/country-codes';
import { CURRENCY_CHOICES } from '../common/money';

/** Every country, by name, its code beside it: "Germany (DE)". */
export const COUNTRY_CHOICES = COUNTRY_CODES.map((code) => ({ id: code, name: `${countryName(code)} (${code})` })).sort(
  (a, b) => a.name.localeCompare(b.name, 'en'),
);

/**
 * Where the school is established for tax, its own tax number, the EU's One-Stop Shop and which currencies' prices
 * include tax. The API checks the number against the country (a VAT number in the EU and the UK) and says so on the
 * field; registrations elsewhere and the rates are the Tax menu's.
 */
export function TaxSettingsInputs() {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate('console.school.taxNote')}
      </Alert>
      <AutocompleteInput
        source="taxCountry"
        choices={COUNTRY_CHOICES}
        emptyText="console.school.noTax"
        helperText="resources.school.help.taxCountry"
        parse={(value: string | null) => value || null}
        fullWidth
      />
      <TextInput source="taxId" validate={maxLength(30)} helperText="resources.school.help.taxId" fullWidth />
      <BooleanInput source="taxEuOss" helperText="resources.school.help.taxEuOss" />
      <SelectArrayInput
        source="taxInclusiveCurrencies"
        choices={CURRENCY_CHOICES}
        helperText="resources.school.help.taxInclusiveCurrencies"
        fullWidth
      />
    </>
  );
}
